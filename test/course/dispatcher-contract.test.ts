// The reference dispatcher (src/execute.ts) stays a plain switch, as a student writes it; this holds it to the
// contract table every hint, probe and finding reads, so the two cannot drift apart.
import { describe, expect, it } from 'vitest';
import {
  ECHO,
  ECHO_KEY,
  KNOWN_NAMES,
  METHODS,
  UNKNOWN_NAMES,
  unknownAnswer,
  type ArgumentSource,
} from '../../src/course/dispatcher-contract.ts';
import { makeExecute } from '../../src/execute.ts';
import type { Tools } from '../../src/tools/index.ts';

type Seen = { method: string; args: unknown[] };

// A Tools whose every method records how it was called and answers with its own name.
function spyTools(seen: Seen[]): Tools {
  const methods = Object.fromEntries(
    Object.keys(METHODS).map((method) => [
      method,
      (...args: unknown[]) => {
        seen.push({ method, args });
        return { content: method };
      },
    ]),
  );
  return methods as unknown as Tools;
}

// A distinct value per key, so that an argument read from the wrong key shows.
const valueFor = (key: string): string => `value of ${key}`;

// The input that gives every key of a method, the first key of a fallback only.
function inputFor(args: ArgumentSource[]): Record<string, unknown> {
  return Object.fromEntries(args.map((a) => (typeof a === 'string' ? a : a[0]!)).map((k) => [k, valueFor(k)]));
}

const routes = Object.entries(METHODS).flatMap(([method, contract]) =>
  contract.names.map((name) => ({ name, method, args: contract.args })),
);

describe('the reference dispatcher keeps the contract', () => {
  it.each(routes)(
    'routes $name to tools.$method, its arguments in the contract order',
    async ({ name, method, args }) => {
      const seen: Seen[] = [];
      expect(await makeExecute(spyTools(seen))(name, inputFor(args))).toEqual({ content: method });
      const expected = args.map((a) => valueFor(typeof a === 'string' ? a : a[0]!));
      expect(seen).toEqual([{ method, args: expected }]);
    },
  );

  it.each(routes.filter((r) => r.args.some((a) => typeof a !== 'string')))(
    'falls back for $name when the first key of a fallback is missing',
    async ({ name, method, args }) => {
      const seen: Seen[] = [];
      const input = Object.fromEntries(
        args.map((a) => (typeof a === 'string' ? a : a[1]!)).map((k) => [k, valueFor(k)]),
      );
      await makeExecute(spyTools(seen))(name, input);
      expect(seen[0]!.args).toEqual(args.map((a) => valueFor(typeof a === 'string' ? a : a[1]!)));
      expect(seen[0]!.method).toBe(method);
    },
  );

  it(`answers ${ECHO} from input.${ECHO_KEY} without a method`, async () => {
    const seen: Seen[] = [];
    expect(await makeExecute(spyTools(seen))(ECHO, { [ECHO_KEY]: 'hi' })).toEqual({ content: 'hi' });
    expect(seen).toEqual([]);
  });

  it.each(UNKNOWN_NAMES)('answers %j as a name outside the contract', async (name) => {
    const seen: Seen[] = [];
    expect(await makeExecute(spyTools(seen))(name, {})).toEqual(unknownAnswer(name));
    expect(seen).toEqual([]);
  });

  it('routes no name the contract does not list', () => {
    expect(new Set(KNOWN_NAMES).size).toBe(KNOWN_NAMES.length);
    expect(KNOWN_NAMES.filter((n) => UNKNOWN_NAMES.includes(n))).toEqual([]);
  });
});

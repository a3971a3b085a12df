// One problem, one message: failures that share a cause are grouped, the rest stay apart.
import { describe, expect, it } from 'vitest';
import { causeOf, groupFailures } from '../../../src/grade/report/group-failures.ts';
import type { CaseResult, Failure } from '../../../src/grade/types.ts';

const fail = (name: string, failure: Failure, output = ''): CaseResult => ({
  name,
  description: '',
  status: 'fail',
  durationMs: 1,
  failure,
  output,
});
const alias = (name: string) =>
  fail(name, {
    kind: 'mismatch',
    message: `call 1 of 1 (Read) differs in ${name}`,
    hint: 'the alias `Read` is not wired: route it to tools.view',
  });
const load = (name: string, output: string) =>
  fail(
    name,
    {
      kind: 'crash',
      message: 'the program exited with code 1 before running any case',
      beforeAnyCase: true,
      hint: 'does not compile',
    },
    output,
  );
const plain = (name: string) => fail(name, { kind: 'mismatch', message: `call 2 of 2 (Bash) differs in ${name}` });
const crash = (name: string) =>
  fail(
    name,
    { kind: 'crash', message: 'the program exited with code 3 before printing results for this case' },
    `${name} output`,
  );

describe('causeOf', () => {
  it('is the same for failures with the same hint, whatever their cases and messages', () => {
    expect(causeOf(alias('a'))).toBe(causeOf(alias('b')));
  });

  it('is the same load failure in two processes, whatever each printed', () => {
    expect(causeOf(load('a', 'pid 1'))).toBe(causeOf(load('b', 'pid 2')));
    expect(causeOf(load('a', ''))).not.toBe(causeOf(alias('a')));
  });

  it('is the same crash word for word', () => {
    expect(causeOf(crash('a'))).toBe(causeOf(crash('b')));
  });

  it('is the mistake behind a hint, not its words: one throw on unknown names, whichever name each case sent', () => {
    const threw = (name: string, tool: string) =>
      fail(name, {
        kind: 'mismatch',
        message: `call 1 of 1 (${tool}) differs`,
        hint: `execute threw on ${tool}`,
        hintCause: 'threw on an unknown name',
      });
    expect(causeOf(threw('a', 'View'))).toBe(causeOf(threw('b', 'toString')));
    expect(causeOf(threw('a', 'View'))).not.toBe(causeOf(alias('a')));
  });

  it('is one for every wrong count of results, which only an edited program.ts (or stray stdout) prints', () => {
    const count = (name: string, message: string) => fail(name, { kind: 'result-count', message });
    expect(causeOf(count('a', 'printed 1 result for 2 calls'))).toBe(
      causeOf(count('b', 'printed 0 results for 4 calls')),
    );
  });

  it('is nothing for a mismatch without a hint or a missing snapshot: each is about its own case', () => {
    expect(causeOf(plain('a'))).toBeUndefined();
    expect(causeOf(fail('a', { kind: 'no-snapshot', message: 'no snapshot' }))).toBeUndefined();
  });
});

describe('groupFailures', () => {
  it('groups by cause where each cause first showed, keeping the order of cases within a group', () => {
    const failures = [alias('a'), plain('b'), crash('c'), alias('d'), plain('e'), crash('f'), alias('g')];
    const names = groupFailures(failures).map((g) => g.results.map((r) => r.name));
    expect(names).toEqual([['a', 'd', 'g'], ['b'], ['c', 'f'], ['e']]);
  });

  it('shows in full a case whose expected result may be shown, before the hidden ones', () => {
    const failures = [
      { ...alias('a'), visibility: 'hidden' as const },
      { ...alias('b'), visibility: 'after_due_date' as const },
      alias('c'),
      alias('d'),
      { ...crash('e'), visibility: 'hidden' as const },
    ];
    const names = groupFailures(failures).map((g) => g.results.map((r) => r.name));
    expect(names).toEqual([['c', 'a', 'b', 'd'], ['e']]);
  });
});

describe('mismatches without a hint', () => {
  const differs = (name: string, difference: string) =>
    fail(name, { kind: 'mismatch', message: `call 1 of 1 (Bash) differs in ${name}`, difference });

  it('are one message when they share their first difference', () => {
    const groups = groupFailures([differs('a', 'trimmed'), differs('b', 'cut short'), differs('c', 'trimmed')]);
    expect(groups.map((g) => g.results.map((r) => r.name))).toEqual([['a', 'c'], ['b']]);
  });

  it('stay alone without one', () => {
    expect(causeOf(plain('a'))).toBeUndefined();
  });
});

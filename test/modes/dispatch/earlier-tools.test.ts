// The Tools given to makeExecute before any case: once per factory, every method of the course's Tools answering
// the one answer nothing else gives, silenced, a throw or a rejection ignored; a dispatcher keeping its first Tools fails a case
// run alone.
import { expect, it, vi } from 'vitest';
import { makeExecute } from '../../../src/execute.ts';
import { dispatch } from '../../../src/modes/dispatch/driver.ts';
import { EARLIER_TOOLS_ANSWER, giveEarlierTools } from '../../../src/modes/dispatch/earlier-tools.ts';
import { Tools } from '../../../src/tools/index.ts';

it('gives each factory one Tools, once, whose every method answers the earlier-Tools answer', async () => {
  const given: Record<string, (...args: unknown[]) => Promise<unknown>>[] = [];
  const make = (tools: any) => given.push(tools);
  giveEarlierTools(make, Tools);
  giveEarlierTools(make, Tools);
  expect(given).toHaveLength(1);
  const methods = Object.getOwnPropertyNames(Tools.prototype).filter((m) => m !== 'constructor');
  for (const method of methods) expect(await given[0]![method]!('x')).toEqual(EARLIER_TOOLS_ANSWER);
});

it('ignores a throw and silences what makeExecute prints', () => {
  const write = vi.spyOn(process.stdout, 'write');
  const make = () => {
    console.log('made');
    throw new Error('no');
  };
  expect(() => giveEarlierTools(make, Tools)).not.toThrow();
  expect(write).not.toHaveBeenCalled();
  write.mockRestore();
});

it('hears the rejection of an async makeExecute, which would otherwise end the process unheard', async () => {
  const unheard: unknown[] = [];
  const hear = (reason: unknown) => unheard.push(reason);
  process.on('unhandledRejection', hear);
  try {
    giveEarlierTools(async () => {
      throw new Error('no');
    }, Tools);
    // Node says a rejection is unhandled after the microtasks of the turn it happened in.
    await new Promise((settled) => setTimeout(settled, 20));
  } finally {
    process.off('unhandledRejection', hear);
  }
  expect(unheard).toEqual([]);
});

it('fails a case run alone when the dispatcher keeps the first Tools it was given', async () => {
  let shared: Tools | undefined;
  const make = (tools: Tools) => {
    shared ??= tools;
    return makeExecute(shared);
  };
  const results = await dispatch(
    { files: { 'a.txt': 'a\n' }, calls: [{ tool: 'Read', input: { path: 'a.txt' } }] },
    make,
  );
  expect(results).toEqual([EARLIER_TOOLS_ANSWER]);
  expect(await dispatch({ calls: [{ tool: 'Read', input: { path: 'a.txt' } }] }, makeExecute as never)).not.toEqual([
    EARLIER_TOOLS_ANSWER,
  ]);
});

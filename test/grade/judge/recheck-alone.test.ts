// The leaked-state rule: suspect failures re-run alone, a sample first (started as they arrive), all of them once
// a verdict changes.
import { describe, expect, it } from 'vitest';
import { LEAK_CAUSE, leakHint, startRecheck, verdictChanged } from '../../../src/grade/judge/recheck-alone.ts';
import type { CaseResult } from '../../../src/grade/types.ts';

const fail = (name: string, received: unknown = 'x'): CaseResult => ({
  name,
  description: '',
  status: 'fail',
  durationMs: 1,
  failure: { kind: 'mismatch', message: 'differs', expected: 'a', received },
  output: '',
});
const pass = (name: string): CaseResult => ({ name, description: '', status: 'pass', durationMs: 1, output: '' });

// Runs "alone" by looking verdicts up in a table, recording which names were asked for, batch by batch.
function alone(verdicts: Record<string, CaseResult>) {
  const asked: string[][] = [];
  return {
    asked,
    entry: 'makeExecute',
    runAlone: async (names: string[]) => {
      asked.push(names);
      return names.map((n) => verdicts[n]!);
    },
  };
}

// Feeds the suspects in as a run would find them, then applies the rule.
async function recheck(
  suspects: CaseResult[],
  how: { entry: string; runAlone: (names: string[]) => Promise<CaseResult[]> },
) {
  const r = startRecheck(how);
  for (const s of suspects) r.suspect(s);
  return r.finish();
}

describe('startRecheck', () => {
  it('does nothing without suspects', async () => {
    const runner = alone({});
    expect(await recheck([], runner)).toEqual({ results: [] });
    expect(runner.asked).toEqual([]);
  });

  it('re-runs the first suspect alone as it arrives, and keeps the rest when its verdict holds', async () => {
    const runner = alone({ c: fail('c') });
    const result = await recheck([fail('c'), fail('b'), fail('a')], runner);
    expect(runner.asked).toEqual([['c']]);
    expect(result).toEqual({ results: [fail('a'), fail('b'), fail('c')] });
  });

  it('starts a sampled re-run as soon as the suspect is reported, before the rest are in', () => {
    const runner = alone({ a: fail('a') });
    startRecheck(runner).suspect(fail('a'));
    expect(runner.asked).toEqual([['a']]);
  });

  it('re-runs every suspect alone once the sampled verdict changes, and fails each that passed alone with the leak hint', async () => {
    const runner = alone({ a: pass('a'), b: fail('b', 'own'), c: pass('c') });
    const result = await recheck([fail('a'), fail('b'), fail('c')], runner);
    expect(runner.asked).toEqual([['a'], ['b', 'c']]);
    const leaked = (name: string) => ({
      ...fail(name),
      failure: { ...fail(name).failure!, hint: leakHint('makeExecute'), hintCause: LEAK_CAUSE },
    });
    expect(result).toEqual({ results: [leaked('a'), fail('b', 'own'), leaked('c')] });
  });

  it('reports the failures alone, and warns, when a verdict changed but none passed alone', async () => {
    const runner = alone({ a: fail('a', 'y'), b: fail('b', 'y') });
    const result = await recheck([fail('a'), fail('b')], runner);
    expect(result.results).toEqual([fail('a', 'y'), fail('b', 'y')]);
    expect(result.warning).toBe(
      'your cases affect each other — module-level state? 2 failing cases gave a different verdict when run alone (a, b). Every failure that ran after another case was re-run alone and that verdict is reported. Keep the state of a case inside makeExecute, in what it is given and what it makes, not in module variables.',
    );
  });

  it('settles once every re-run it started has, even one that failed', async () => {
    let release = (): void => {};
    const gate = new Promise<void>((r) => (release = r));
    let done = false;
    const r = startRecheck({
      entry: 'makeExecute',
      runAlone: async () => {
        await gate;
        done = true;
        throw new Error('aborted');
      },
    });
    r.suspect(fail('a'));
    const settled = r.settled();
    release();
    await settled;
    expect(done).toBe(true);
  });
});

describe('verdictChanged', () => {
  it.each([
    [fail('a'), fail('a'), false],
    [fail('a'), pass('a'), true],
    [fail('a', 'x'), fail('a', 'y'), true],
    [fail('a'), { ...fail('a'), failure: { kind: 'crash' as const, message: 'differs' } }, true],
  ])('%#', (a, b, changed) => {
    expect(verdictChanged(a, b)).toBe(changed);
  });
});

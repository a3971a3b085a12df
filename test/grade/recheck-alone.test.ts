// The leaked-state rule: suspect failures re-run alone, a sample first, all of them once a verdict changes.
import { describe, expect, it } from 'vitest';
import { recheckAlone, verdictChanged } from '../../src/grade/recheck-alone.ts';
import type { CaseResult } from '../../src/grade/types.ts';

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
    runAlone: async (names: string[]) => {
      asked.push(names);
      return names.map((n) => verdicts[n]!);
    },
  };
}

describe('recheckAlone', () => {
  it('does nothing without suspects', async () => {
    const runner = alone({});
    expect(await recheckAlone([], { jobs: 2, ...runner })).toEqual({ results: [] });
    expect(runner.asked).toEqual([]);
  });

  it('re-runs a sample of `jobs` suspects by name and keeps the rest when no verdict changes', async () => {
    const runner = alone({ a: fail('a'), b: fail('b') });
    const result = await recheckAlone([fail('c'), fail('b'), fail('a')], { jobs: 2, ...runner });
    expect(runner.asked).toEqual([['a', 'b']]);
    expect(result).toEqual({ results: [fail('a'), fail('b'), fail('c')] });
  });

  it('re-runs every suspect alone once a sampled verdict changes, reports the isolated verdicts, and warns', async () => {
    const runner = alone({ a: pass('a'), b: fail('b'), c: pass('c') });
    const result = await recheckAlone([fail('a'), fail('b'), fail('c')], { jobs: 2, ...runner });
    expect(runner.asked).toEqual([['a', 'b'], ['c']]);
    expect(result.results).toEqual([pass('a'), fail('b'), pass('c')]);
    expect(result.warning).toBe(
      'your cases affect each other — module-level state? 2 failing cases gave a different verdict when run alone (a, c). Every failure that ran after another case was re-run alone and that verdict is reported. Keep state in your Tools instance, not in module variables.',
    );
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

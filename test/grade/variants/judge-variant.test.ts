// A variant's verdict, a case's verdict with its variant's, and the pairing of the two as verdicts stream in.
import { describe, expect, it } from 'vitest';
import type { Case } from '../../../src/course/types.ts';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import type { CaseRun } from '../../../src/grade/run/run-batches.ts';
import type { CaseResult } from '../../../src/grade/types.ts';
import { judgeVariant, pairVerdicts, variantHint, withVariant } from '../../../src/grade/variants/judge-variant.ts';

const variantCase: Case<DispatchCaseData> = {
  stage: 'register-tools',
  name: 'read-routes-to-view',
  file: '/tmp/v.json',
  data: {
    description: 'Read routes to view',
    files: { 'q.txt': 'Q' },
    calls: [{ tool: 'Read', input: { path: 'q.txt' } }],
  },
};
const ran = (results: unknown[]): CaseRun => ({
  name: 'read-routes-to-view/variant',
  outcome: { kind: 'results', results },
  output: '',
  durationMs: 3,
  afterProbe: true,
});
const verdict = (name: string, status: 'pass' | 'fail', message = ''): CaseResult => ({
  name,
  description: `${name} proves something`,
  status,
  durationMs: 5,
  output: '',
  ...(status === 'fail' ? { failure: { kind: 'mismatch' as const, message } } : {}),
});

describe('judgeVariant', () => {
  it("passes a run that gives the reference's results, named for its case", () => {
    const v = judgeVariant(variantCase, { ok: true, results: [{ content: '1: Q' }] }, ran([{ content: '1: Q' }]), 9);
    expect([v?.name, v?.status]).toEqual(['read-routes-to-view', 'pass']);
  });

  it('fails one that gives anything else, saying it is a variant, with the seed and the hint of where results come from', () => {
    const v = judgeVariant(variantCase, { ok: true, results: [{ content: '1: Q' }] }, ran([{ content: '1: A' }]), 9);
    expect(v?.failure).toMatchObject({
      kind: 'mismatch',
      message: 'variant (seed 9): call 1 of 1 (Read) differs: "content": expected "1: Q", received "1: A"',
      call: { tool: 'Read', input: { path: 'q.txt' } },
      expected: { content: '1: Q' },
      received: { content: '1: A' },
      variant: { seed: 9 },
      hint: variantHint(9),
    });
  });

  it('judges nothing when the reference gave no result for the variant', () => {
    expect(judgeVariant(variantCase, { ok: false, why: 'crashed' }, ran([]), 9)).toBeUndefined();
    expect(judgeVariant(variantCase, undefined, ran([]), 9)).toBeUndefined();
  });
});

describe('withVariant', () => {
  const own = verdict('a', 'pass');
  it.each([
    ['both pass', own, verdict('a', 'pass'), own],
    [
      'the case fails as written: that failure',
      verdict('a', 'fail', 'own'),
      verdict('a', 'fail', 'variant'),
      verdict('a', 'fail', 'own'),
    ],
    ['only the variant fails: its failure', own, verdict('a', 'fail', 'variant'), verdict('a', 'fail', 'variant')],
    ['no variant was judged', own, undefined, own],
  ])('%s', (_, mine, theirs, expected) => {
    expect(withVariant(mine, theirs)).toEqual({ ...expected, description: mine.description });
  });
});

describe('pairVerdicts', () => {
  it('holds a case until its variant is in, whichever comes first, and passes on cases without one at once', () => {
    const done: string[] = [];
    const pairs = pairVerdicts(
      (name) => name !== 'plain',
      (r) => done.push(`${r.name}:${r.status}`),
    );
    pairs.add(verdict('plain', 'pass'), undefined);
    pairs.add(verdict('a', 'pass'), undefined);
    pairs.add(verdict('b/variant', 'fail', 'x'), 'b');
    expect(done).toEqual(['plain:pass']);
    pairs.add(verdict('a/variant', 'pass'), 'a');
    pairs.add(verdict('b', 'pass'), undefined);
    expect(done).toEqual(['plain:pass', 'a:pass', 'b:fail']);
    expect(pairs.judged()).toBe(2);
  });

  it('passes on a case alone when its variant gives no verdict, or never ran', () => {
    const done: string[] = [];
    const pairs = pairVerdicts(
      () => true,
      (r) => done.push(`${r.name}:${r.status}`),
    );
    pairs.add(verdict('a', 'pass'), undefined);
    pairs.without('a');
    pairs.add(verdict('b', 'fail', 'x'), undefined);
    expect(done).toEqual(['a:pass']);
    pairs.flush();
    expect(done).toEqual(['a:pass', 'b:fail']);
    expect(pairs.judged()).toBe(0);
  });
});

// A class's mistakes: a failure's hint cause is one mistake with a stable id, counted once per submission, ranked by
// how many submissions made it; cases ranked by pass rate over the submissions whose program ran.
import { describe, expect, it } from 'vitest';
import {
  caseRates,
  classMistakes,
  mistakeId,
  mistakesOf,
  submissionScore,
} from '../../../src/grade/report/class-mistakes.ts';
import type { CaseResult, ClassReport, RunReport, SubmissionResult } from '../../../src/grade/types.ts';
import { crash, mismatch, pass, report, weighty } from './reports.ts';

// A failed case with a hint whose cause is `cause` (the hint's wording may vary, as it does with the names sent).
const hinted = (name: string, cause: string, hint = `hint for ${cause}`): CaseResult => ({
  ...mismatch,
  name,
  failure: { ...mismatch.failure!, hint, hintCause: cause },
});
const notStarted: CaseResult = {
  ...crash,
  failure: { ...crash.failure!, beforeAnyCase: true, hint: 'add "type": "module"' },
};

const submission = (name: string, run: RunReport, verdict: SubmissionResult['verdict'] = 'fail'): SubmissionResult => ({
  name,
  dir: `/class/${name}`,
  verdict,
  passed: run.passed,
  failed: run.failed,
  report: run,
});

describe('mistakeId', () => {
  it.each([['finding: not wired: view'], ['finding: arguments: glob: ·'], ['variant']])(
    'is m- and 8 hex digits, the same for the same cause: %s',
    (cause) => {
      expect(mistakeId(cause)).toMatch(/^m-[0-9a-f]{8}$/);
      expect(mistakeId(cause)).toBe(mistakeId(cause));
    },
  );

  it('differs between causes', () => {
    expect(mistakeId('finding: not wired: view')).not.toBe(mistakeId('finding: not wired: glob'));
  });
});

describe('mistakesOf', () => {
  it('is each hint cause once, with its cases in every stage, in the order first met', () => {
    const earlier = report('register-tools', [hinted('r1', 'A')]);
    const run = {
      ...report('agent-loop', [hinted('c1', 'B'), pass('c2'), hinted('c3', 'A'), hinted('c4', 'B')]),
      previous: [earlier],
    };
    expect(mistakesOf(run)).toEqual([
      {
        id: mistakeId('B'),
        hint: 'hint for B',
        cases: [
          { stage: 'agent-loop', name: 'c1' },
          { stage: 'agent-loop', name: 'c4' },
        ],
      },
      {
        id: mistakeId('A'),
        hint: 'hint for A',
        cases: [
          { stage: 'agent-loop', name: 'c3' },
          { stage: 'register-tools', name: 'r1' },
        ],
      },
    ]);
  });

  it('leaves out a failure without a hint and a program that did not start', () => {
    const { hint: _, ...unhinted } = mismatch.failure!;
    expect(mistakesOf(report('register-tools', [crash, notStarted, { ...mismatch, failure: unhinted }]))).toEqual([]);
  });

  it('takes the hint as the cause when a failure names none', () => {
    expect(mistakesOf(report('register-tools', [mismatch])).map((m) => m.id)).toEqual([
      mistakeId(mismatch.failure!.hint!),
    ]);
  });
});

describe('classMistakes', () => {
  const CLASS: ClassReport = {
    stage: 'register-tools',
    durationMs: 1,
    submissions: [
      submission('ann', report('register-tools', [hinted('a', 'A', 'the alias `Read`'), hinted('b', 'B')])),
      submission('bea', report('register-tools', [hinted('a', 'A', 'the alias `view`')])),
      submission(
        'cal',
        report('register-tools', [hinted('a', 'A', 'the alias `view`'), hinted('c', 'C'), hinted('d', 'C')]),
      ),
      submission('dan', report('register-tools', [notStarted]), 'did not start'),
    ],
  };

  it('ranks by submissions, then by cases failed, each with its most common wording and who made it', () => {
    expect(classMistakes(CLASS)).toEqual([
      {
        id: mistakeId('A'),
        hint: 'the alias `view`',
        submissions: [
          { name: 'ann', cases: 1 },
          { name: 'bea', cases: 1 },
          { name: 'cal', cases: 1 },
        ],
      },
      { id: mistakeId('C'), hint: 'hint for C', submissions: [{ name: 'cal', cases: 2 }] },
      { id: mistakeId('B'), hint: 'hint for B', submissions: [{ name: 'ann', cases: 1 }] },
    ]);
  });

  it('ranks cases by pass rate over the submissions that ran, with the mistakes behind their failures', () => {
    const rates = caseRates({
      ...CLASS,
      submissions: [
        submission('ann', report('register-tools', [hinted('a', 'A'), pass('b')])),
        submission('bea', report('register-tools', [pass('a'), pass('b')]), 'pass'),
        submission('dan', report('register-tools', [notStarted, { ...notStarted, name: 'b' }]), 'did not start'),
      ],
    });
    expect(rates).toEqual([
      { stage: 'register-tools', name: 'a', passed: 1, graded: 2, mistakes: [mistakeId('A')] },
      { stage: 'register-tools', name: 'b', passed: 2, graded: 2, mistakes: [] },
    ]);
  });
});

describe('submissionScore', () => {
  it('sums the points of every stage graded', () => {
    const run = { ...report('agent-loop', [weighty, mismatch]), previous: [report('register-tools', [pass('x')])] };
    expect(submissionScore(run)).toEqual({ score: 4, maxScore: 5 });
  });
});

// A class's mistakes: a failure's hint cause is one mistake with a stable id, counted once per submission, ranked by
// how many submissions made it; cases ranked by pass rate over the submissions whose program ran.
import { describe, expect, it } from 'vitest';
import {
  caseRates,
  classMistakes,
  kindOf,
  mistakeId,
  mistakesOf,
  submissionMistakes,
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

describe('kindOf', () => {
  it.each([
    ['finding: routed: view to glob', 'finding: routed'],
    ['finding: not wired: create', 'finding: not wired'],
    ['finding: default branch', 'finding: default branch'],
    ["tools.view's branch routed to glob", 'routed to another method'],
    ["tools.view's branch routed to a method taking pattern", 'routed to another method'],
    ['nothing returned in the branch of "ec\\"ho"', 'nothing returned in a branch'],
    ["not awaited in tools.glob's branch", 'not awaited in a branch'],
    ['variant', 'variant'],
    ['the stub', 'the stub'],
  ])('%s is of the kind %s', (cause, kind) => expect(kindOf(cause)).toBe(kind));
});

describe('one mistake of several causes', () => {
  // A routing table shifted by one, as the probe tells it: three findings of one family.
  const shifted = (name: string, order: string[]) =>
    submission(
      name,
      report(
        'register-tools',
        order.map((pair, k) => hinted(`c${k}`, `finding: routed: ${pair}`, `\`${pair}\` reaches the wrong method`)),
      ),
    );

  it('is one mistake of a submission, its hints in cause order, each cause known by its id', () => {
    const { mistakes, idOf } = submissionMistakes(shifted('ann', ['view to glob', 'glob to grep']).report);
    const id = mistakeId('finding: routed: glob to grep\nfinding: routed: view to glob');
    expect(mistakes).toEqual([
      {
        id,
        hint: '`glob to grep` reaches the wrong method; `view to glob` reaches the wrong method',
        cases: [
          { stage: 'register-tools', name: 'c0' },
          { stage: 'register-tools', name: 'c1' },
        ],
      },
    ]);
    expect([...idOf.values()]).toEqual([id, id]);
  });

  it('is one row of the class for the submissions that made it, whatever order their failures came in', () => {
    const rows = classMistakes({
      stage: 'register-tools',
      durationMs: 1,
      submissions: [
        shifted('ann', ['view to glob', 'glob to grep', 'grep to view']),
        shifted('bea', ['grep to view', 'view to glob', 'glob to grep']),
        shifted('cal', ['view to glob']),
      ],
    });
    expect(rows.map((m) => [m.submissions.map((s) => s.name), m.hint.split('; ').length])).toEqual([
      [['ann', 'bea'], 3],
      [['cal'], 1],
    ]);
    expect(rows[1]!.id).toBe(mistakeId('finding: routed: view to glob'));
  });

  it('is the one mistake behind each of its cases in the case table', () => {
    const rates = caseRates({
      stage: 'register-tools',
      durationMs: 1,
      submissions: [shifted('ann', ['view to glob', 'glob to grep'])],
    });
    const id = mistakeId('finding: routed: glob to grep\nfinding: routed: view to glob');
    expect(rates.map((r) => r.mistakes)).toEqual([[id], [id]]);
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

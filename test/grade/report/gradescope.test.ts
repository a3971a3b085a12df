// Gradescope's results.json: the score out of the cases' points, a test per case with its status, visibility and
// output, every text plain, and nothing of a hidden case's calls or expected results in its output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { render } from '../../../src/grade/report/gradescope.ts';
import { plainText } from '../../../src/grade/report/plain-text.ts';
import { visibleText } from '../../../src/grade/report/visible-text.ts';
import type { CaseResult } from '../../../src/grade/types.ts';
import { ctx, diagnose, mismatch, pass, report, RUNS, VARIANT_SEED, variantFailure } from './reports.ts';

const TOP_KEYS = [
  'score',
  'max_score',
  'execution_time',
  'output',
  'output_format',
  'test_output_format',
  'test_name_format',
  'stdout_visibility',
  'extra_data',
  'tests',
];
const TEST_KEYS = ['name', 'score', 'max_score', 'status', 'visibility', 'output'];

// Gradescope's documented results format as a JSON Schema (the file's $comment says where it comes from).
const SPEC = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/gradescope/results.schema.json'), 'utf8'),
);
const followsSpec = new Ajv({ allErrors: true }).compile(SPEC);

describe('gradescope reporter', () => {
  // Every run of one point a case, all visible (the weighted run has its own test below).
  describe.each(Object.entries(RUNS).filter(([name]) => name !== 'weighted'))('%s run', (_, run) => {
    const text = render(run, ctx);
    const parsed = JSON.parse(text);

    it("follows Gradescope's documented results format", () => {
      expect(followsSpec(parsed) ? [] : followsSpec.errors).toEqual([]);
    });

    it('is two-space JSON with a trailing newline, keys in a fixed order, every text declared plain', () => {
      expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
      expect(Object.keys(parsed)).toEqual(TOP_KEYS);
      for (const t of parsed.tests) expect(Object.keys(t)).toEqual(TEST_KEYS);
      expect([parsed.output_format, parsed.test_output_format, parsed.test_name_format]).toEqual([
        'text',
        'text',
        'text',
      ]);
    });

    it('scores a point per passing case out of a point per case, and marks each passed or failed', () => {
      expect([parsed.score, parsed.max_score]).toEqual([run.passed, run.cases.length]);
      expect(parsed.tests.map((t: { status: string }) => t.status)).toEqual(
        run.cases.map((c) => (c.status === 'pass' ? 'passed' : 'failed')),
      );
      expect(parsed.extra_data).toEqual({
        stage: run.stage,
        passed: run.passed,
        failed: run.failed,
        seed: run.variants?.seed ?? null,
      });
    });

    it('gives a visible failing case the full diagnosis, a passing one its description', () => {
      run.cases.forEach((c, i) => {
        const expected = c.status === 'pass' ? c.description : diagnose(c);
        expect(parsed.tests[i].output).toBe(plainText(visibleText(expected)));
        expect(parsed.tests[i].visibility).toBe('visible');
      });
    });

    it('carries no colour or control characters in any string', () => {
      const strings = (v: unknown): string[] =>
        typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];
      for (const s of strings(parsed)) expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    });
  });

  it("scores the judge's weighted run by points, and tells its hidden failure without its calls", () => {
    const parsed = JSON.parse(render(RUNS.weighted!, ctx));
    expect([parsed.score, parsed.max_score]).toEqual([4, 6]);
    expect(parsed.tests.map((t: Record<string, unknown>) => [t.name, t.score, t.max_score, t.visibility])).toEqual([
      ['view-range', 3, 3, 'visible'],
      // Verdict shown, expected withheld: Gradescope's `visible` (its `hidden` would hide the total too).
      ['edit-hidden', 0, 2, 'visible'],
      ['after', 1, 1, 'after_due_date'],
    ]);
    expect(parsed.tests[1].output).not.toContain('unknown tool: Read');
    expect(parsed.tests[1].output).toContain('a hidden case');
  });

  it('reads points and visibility off the cases, and scores by points', () => {
    const worth = (c: CaseResult, points: number, visibility: NonNullable<CaseResult['visibility']>) => ({
      ...c,
      points,
      visibility,
    });
    const run = report('register-tools', [worth(pass('echo'), 3, 'after_due_date'), worth(mismatch, 2, 'visible')]);
    const parsed = JSON.parse(render(run, ctx));
    expect([parsed.score, parsed.max_score]).toEqual([3, 5]);
    expect(
      parsed.tests.map((t: { score: number; max_score: number; visibility: string }) => [
        t.score,
        t.max_score,
        t.visibility,
      ]),
    ).toEqual([
      [3, 3, 'after_due_date'],
      [0, 2, 'visible'],
    ]);
  });

  it("never shows a hidden case's input or expected result, as written or in its variant", () => {
    for (const failed of [mismatch, variantFailure]) {
      const parsed = JSON.parse(render(report('register-tools', [{ ...failed, visibility: 'hidden' }]), ctx));
      const output: string = parsed.tests[0].output;
      expect(output).toBe(
        `${failed.description}\nfailed: call 1 returned a different result${failed === variantFailure ? " in the case's variant" : ''} (a hidden case: its calls and expected results are not shown)`,
      );
      for (const secret of ['a.txt', 'q.txt', '1: A', '1: Q', 'unknown tool']) expect(output).not.toContain(secret);
      expect(parsed.tests[0].visibility).toBe('visible');
    }
  });

  it("words a hidden loop case's failure by its requests or the returned conversation, never by a call", () => {
    const loopFailure = (callIndex?: number): CaseResult => ({
      ...mismatch,
      visibility: 'hidden',
      failure: {
        kind: 'mismatch',
        message: 'request 2 of 3 differs',
        steps: 'requests',
        ...(callIndex === undefined ? {} : { callIndex }),
        received: { request: { secret: '1: Q' } },
      },
    });
    const output = (c: CaseResult) => JSON.parse(render(report('agent-loop', [c]), ctx)).tests[0].output as string;
    const note = '(a hidden case: its turns and expected results are not shown)';
    expect(output(loopFailure(1))).toBe(`${mismatch.description}\nfailed: request 2 differed ${note}`);
    expect(output(loopFailure())).toBe(
      `${mismatch.description}\nfailed: the conversation runLoop returned differed ${note}`,
    );
  });

  it('says the counts, the seed and the warnings in the top-level output', () => {
    const run = { ...RUNS.variants!, warnings: ['your cases affect each other'] };
    expect(JSON.parse(render(run, ctx)).output).toBe(
      [
        'register-tools: 1 of 2 cases passed',
        `variants: seed ${VARIANT_SEED}, 2 cases also checked on renamed files; 1 had none (--seed ${VARIANT_SEED} repeats them)`,
        'warning: your cases affect each other',
      ].join('\n'),
    );
  });

  it('makes a program that never started one test worth the stage, its error said once', () => {
    const run = RUNS['all errored']!;
    const started = {
      ...run,
      cases: run.cases.map((c) => ({ ...c, failure: { ...c.failure!, beforeAnyCase: true } })),
    };
    const parsed = JSON.parse(render(started, ctx));
    expect(followsSpec(parsed)).toBe(true);
    expect(parsed.output).toBe('register-tools: 0 of 2 cases passed');
    expect(parsed.tests).toHaveLength(1);
    expect(parsed.tests[0]).toMatchObject({ name: 'your program did not start', score: 0, max_score: 2 });
    expect(parsed.tests[0].output).toContain(plainText(started.cases[0]!.failure.message).slice(0, 40));
    expect([parsed.score, parsed.max_score]).toEqual([0, 2]);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { NOT_STARTED, OUTPUT_LIMIT, OUTPUT_NOTICE, render } from '../../../src/grade/report/json.ts';
import type { CaseResult, RunReport } from '../../../src/grade/types.ts';
import { plainText } from '../../../src/grade/report/plain-text.ts';
import { caseStatus } from '../../../src/grade/report/case-status.ts';
import { ctx, diagnose, RUNS, VARIANT_SEED } from './reports.ts';

// Every string in a parsed JSON value.
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

const TOP_KEYS = [
  'version',
  'status',
  'message',
  'stage',
  'passed',
  'failed',
  'variants',
  'score',
  'max_score',
  'stages',
  'tests',
];
const TEST_KEYS = ['name', 'task_id', 'status', 'message', 'output', 'line_no', 'score', 'points', 'visibility'];

// The schema the package publishes for this report (schemas/, in package.json `files`).
const SCHEMA = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schemas/json-report.schema.json'), 'utf8'));
const followsSchema = new Ajv2020({ allErrors: true }).compile(SCHEMA);

describe('json reporter', () => {
  describe.each(Object.entries(RUNS))('%s run', (_, report) => {
    const text = render(report, ctx);
    const parsed = JSON.parse(text);

    it('follows the published schema', () => {
      expect(followsSchema(parsed) ? [] : followsSchema.errors).toEqual([]);
    });

    it('is two-space JSON with a trailing newline, keys in a fixed order', () => {
      expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
      expect(Object.keys(parsed)).toEqual(TOP_KEYS);
      for (const t of parsed.tests) expect(Object.keys(t)).toEqual(TEST_KEYS);
    });

    it('has the results.json v3 fields, the stage and the counts', () => {
      expect(parsed.version).toBe(3);
      expect(['pass', 'fail', 'error']).toContain(parsed.status);
      expect(parsed.stage).toBe(report.stage);
      expect([parsed.passed, parsed.failed]).toEqual([report.passed, report.failed]);
      expect(parsed.tests.map((t: { name: string }) => t.name)).toEqual(report.cases.map((c) => plainText(c.name)));
    });

    it('gives each case its status, its diagnosis as the message, and its output capped', () => {
      report.cases.forEach((c, i) => {
        const t = parsed.tests[i];
        expect(t.status).toBe(caseStatus(c));
        expect(t.message).toBe(c.status === 'pass' ? null : plainText(diagnose(c)));
        if (c.output === '') expect(t.output).toBeNull();
        else expect(t.output.length).toBeLessThanOrEqual(OUTPUT_LIMIT);
      });
    });

    it('carries no colour or control characters in any string', () => {
      for (const s of strings(parsed)) expect(s).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    });
  });

  it.each([
    ['passing', 'pass', null],
    ['failing', 'fail', null],
    ['crash', 'fail', null],
    ['empty', 'pass', null],
  ])('the %s run has status %s', (name, status, message) => {
    const parsed = JSON.parse(render(RUNS[name]!, ctx));
    expect([parsed.status, parsed.message]).toEqual([status, message]);
  });

  it('says the seed of its variants, how many were judged and which cases had none; null without', () => {
    expect(JSON.parse(render(RUNS.variants!, ctx)).variants).toEqual({
      seed: VARIANT_SEED,
      judged: 2,
      none: [{ name: 'bash-environment', why: 'nothing in it to rename' }],
    });
    expect(JSON.parse(render(RUNS.passing!, ctx)).variants).toBeNull();
  });

  it('is an error, with the first diagnosis as its message, when every case errored', () => {
    const report = RUNS['all errored']!;
    const parsed = JSON.parse(render(report, ctx));
    expect(parsed.status).toBe('error');
    expect(parsed.message).toBe(plainText(diagnose(report.cases[0]!)));
    expect(parsed.message).toContain("TypeError: Cannot read properties of undefined (reading 'trim')");
  });

  it('keeps its version and shape with --previous (one stage or several: the same keys, version 3)', () => {
    const one = JSON.parse(render(RUNS.failing!, ctx));
    const two = JSON.parse(render({ ...RUNS.failing!, previous: [RUNS.passing!] }, ctx));
    expect([one.version, two.version]).toEqual([3, 3]);
    expect(Object.keys(two)).toEqual(Object.keys(one));
    expect(followsSchema(two) ? [] : followsSchema.errors).toEqual([]);
    expect(two.stages).toHaveLength(2);
  });

  it('gives each test its score, which is what GitHub Classroom adds up', () => {
    // classroom-resources/autograding-grading-reporter: the Points are the sum of every test's `score` out of the
    // report's `max_score`, and its verdict is `status`.
    const parsed = JSON.parse(render(RUNS.weighted!, ctx));
    const total = parsed.tests.reduce((acc: number, t: { score: number }) => acc + t.score, 0);
    expect(`Points ${total}/${parsed.max_score}`).toBe('Points 4/6');
    expect(parsed.status).toBe('fail');
  });

  it('says a program that did not start once, at the top, with its stack trimmed; each case points there', () => {
    const output =
      'file:///c/src/execute.ts:3\nthrow new Error("not ready")\n      ^\n\nError: not ready\n    at file:///c/src/execute.ts:3:7\n    at ModuleJob.run (node:internal/modules/esm/module_job:271:25)\n    at async onImport.tracePromise.__proto__ (node:internal/modules/esm/loader:547:26)\n';
    const notStarted = (name: string): CaseResult => ({
      name,
      description: `${name} proves something`,
      status: 'fail',
      durationMs: 0,
      output,
      failure: {
        kind: 'crash',
        message: 'the program exited with code 1 before running any case (it fails while loading: see its output)',
        beforeAnyCase: true,
        hint: 'your code throws `Error: not ready` while it is loaded, at /c/src/execute.ts:3',
      },
    });
    const report: RunReport = {
      stage: 'register-tools',
      dir: '/c',
      cases: [notStarted('a'), notStarted('b'), notStarted('c')],
      passed: 0,
      failed: 3,
      durationMs: 5,
    };
    const parsed = JSON.parse(render(report, ctx));
    expect(parsed.status).toBe('error');
    expect(parsed.message).toMatch(/^✗ your program did not start — none of the 3 cases ran\n/);
    expect(parsed.message).toContain('hint: your code throws `Error: not ready` while it is loaded');
    expect(parsed.message).toContain('(2 lines of stack inside Node and node_modules left out)');
    expect(parsed.message).not.toContain('ModuleJob.run');
    expect(parsed.message).not.toContain('proves something');
    expect(parsed.tests).toEqual(
      ['a', 'b', 'c'].map((name) => ({
        name,
        task_id: 2,
        status: 'error',
        message: NOT_STARTED,
        output: null,
        line_no: 0,
        score: 0,
        points: 1,
        visibility: 'visible',
      })),
    );
    expect([parsed.score, parsed.max_score]).toEqual([0, 3]);
  });

  it('gives the score and each case its points and visibility, defaults included', () => {
    const parsed = JSON.parse(render(RUNS.weighted!, ctx));
    expect([parsed.score, parsed.max_score]).toEqual([4, 6]);
    expect(parsed.tests.map((t: { points: number; visibility: string }) => [t.points, t.visibility])).toEqual([
      [3, 'visible'],
      [2, 'hidden'],
      [1, 'after_due_date'],
    ]);
    expect(JSON.parse(render(RUNS.failing!, ctx))).toMatchObject({ score: 1, max_score: 3 });
  });

  it('cuts output over the cap to its head and the notice', () => {
    const report = RUNS['over the cap']!;
    const output: string = JSON.parse(render(report, ctx)).tests[0].output;
    expect(output).toHaveLength(OUTPUT_LIMIT);
    expect(output.endsWith(`\n${OUTPUT_NOTICE}`)).toBe(true);
    expect(report.cases[0]!.output.startsWith(output.slice(0, -OUTPUT_NOTICE.length - 1))).toBe(true);
  });

  it('keeps output under the cap whole', () => {
    expect(JSON.parse(render(RUNS.passing!, ctx)).tests[1].output).toBe('debug: hello\n');
  });

  it('keeps hostile text readable: escapes, controls and separators visible, unicode intact', () => {
    const t = JSON.parse(render(RUNS.hostile!, ctx)).tests[1];
    expect(t.output).toContain('colour \u241b[31mred\u241b[0m and bell \u2407 nul \u2400');
    expect(t.output).toContain('::add-mask::x');
    expect(t.output).toContain('unicode: ✓ café 日本語 עברית 🎉 lone \ufffd surrogate');
    expect(t.output).toContain('windows line\n::error::after crlf');
  });
});

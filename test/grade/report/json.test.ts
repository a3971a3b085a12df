import { describe, expect, it } from 'vitest';
import { OUTPUT_LIMIT, OUTPUT_NOTICE, render } from '../../../src/grade/report/json.ts';
import { plainText } from '../../../src/grade/report/plain-text.ts';
import { caseStatus } from '../../../src/grade/report/case-status.ts';
import { ctx, diagnose, RUNS } from './reports.ts';

// Every string in a parsed JSON value.
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : v !== null && typeof v === 'object' ? Object.values(v).flatMap(strings) : [];

const TOP_KEYS = ['version', 'status', 'message', 'stage', 'passed', 'failed', 'score', 'max_score', 'tests'];
const TEST_KEYS = ['name', 'status', 'message', 'output', 'points', 'visibility'];

describe('json reporter', () => {
  describe.each(Object.entries(RUNS))('%s run', (_, report) => {
    const text = render(report, ctx);
    const parsed = JSON.parse(text);

    it('is two-space JSON with a trailing newline, keys in a fixed order', () => {
      expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
      expect(Object.keys(parsed)).toEqual(TOP_KEYS);
      for (const t of parsed.tests) expect(Object.keys(t)).toEqual(TEST_KEYS);
    });

    it('has the results.json v2 fields, the stage and the counts', () => {
      expect(parsed.version).toBe(2);
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

  it('is an error, with the first diagnosis as its message, when every case errored', () => {
    const report = RUNS['all errored']!;
    const parsed = JSON.parse(render(report, ctx));
    expect(parsed.status).toBe('error');
    expect(parsed.message).toBe(plainText(diagnose(report.cases[0]!)));
    expect(parsed.message).toContain("TypeError: Cannot read properties of undefined (reading 'trim')");
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

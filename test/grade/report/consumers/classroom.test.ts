// The json report as GitHub Classroom's grading reporter reads it, run as a process the way the action starts it:
// the report base64-encoded in one environment variable (test/fixtures/classroom/grading-reporter.mjs). Linux refuses
// to start a process whose one environment string passes 128 KiB, so the report must stay small at class size, with
// --previous, and when the program prints 1 MB.
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPORT_LIMIT } from '../../../../src/grade/report/json.ts';
import { renderReport } from '../../../../src/grade/report/index.ts';
import type { RunReport } from '../../../../src/grade/types.ts';
import { REPO } from '../../../support/reference-course.ts';
import { ONE_MB, previousRun } from './class-size-runs.ts';

const REPORTER = join(REPO, 'test/fixtures/classroom/grading-reporter.mjs');

// The reporter run on `json` as the action runs it: the step id `theinference`, its report in THEINFERENCE_RESULTS.
function classroom(json: string) {
  return execa(process.execPath, [REPORTER], {
    env: { INPUT_RUNNERS: 'theinference', THEINFERENCE_RESULTS: Buffer.from(json).toString('base64') },
    extendEnv: false,
    reject: false,
  });
}

const json = (report: RunReport) => renderReport('json', report, { color: false });

describe("GitHub Classroom's grading reporter", () => {
  it('cannot start at all on a report of 128 KiB: the failure the cap prevents', async () => {
    const run = await classroom(JSON.stringify({ status: 'pass', max_score: 0, tests: [], pad: 'x'.repeat(100_000) }));
    expect(run.exitCode).toBeUndefined();
    expect(run.message).toMatch(/E2BIG/);
  });

  it.each([
    ['every case of two stages failing (--previous)', () => previousRun()],
    ['a program that prints 1 MB in every case', () => previousRun(ONE_MB)],
  ])('reads %s: under the cap, every test once, no line undefined', async (_, make) => {
    const report = make();
    const text = json(report);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(REPORT_LIMIT);
    const run = await classroom(text);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(1);
    expect(run.stdout).not.toMatch(/undefined/);
    const lines = run.stdout.split('\n');
    const names = lines.filter((l) => /^(PASS|FAIL) /.test(l)).map((l) => l.replace(/ - line \d+$/, ''));
    expect(new Set(names).size).toBe(names.length);
    const cases = [report, ...(report.previous ?? [])].flatMap((r) => r.cases);
    const errored = lines.filter((l) => l.startsWith('Error: ')).length;
    expect(names.length + errored).toBe(cases.length);
    // A failure inside execute says the line Node's trace names.
    const threw = report.cases.find((c) => c.output.includes('execute.ts:17:'));
    expect(lines).toContain(`FAIL register-tools: ${threw?.name} - line 17`);
    const passed = cases.filter((c) => c.status === 'pass').length;
    expect(lines).toContain(`Points ${passed}/${cases.length}`);
  });

  it('says where a message was cut, and keeps the cut under the cap', () => {
    const parsed = JSON.parse(json(previousRun(ONE_MB)));
    const cut = parsed.tests.filter((t: { message: string | null }) => t.message?.endsWith('terminal report)'));
    expect(cut.length).toBeGreaterThan(0);
    for (const t of parsed.tests) expect((t.output ?? '').length).toBeLessThanOrEqual(500);
  });
});

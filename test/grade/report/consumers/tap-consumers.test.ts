// Every TAP report read by the two reporters people pipe TAP into, run as processes: tap-mocha-reporter (node-tap's
// own, reading `at`/`stack` as a stack string) and tap-spec (tape's, whose parser tap-out reads each diagnostic line
// as `key: value`). Each must read the report to its end: every point counted, exit 1 exactly when one failed.
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../../../src/grade/report/index.ts';
import type { RunReport } from '../../../../src/grade/types.ts';
import { REPO } from '../../../support/reference-course.ts';
import { RUNS } from '../reports.ts';
import { ONE_MB, previousRun } from './class-size-runs.ts';

const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);

const REPORTS: [string, () => RunReport][] = [
  ...Object.entries(RUNS).map(([name, run]): [string, () => RunReport] => [name, () => run]),
  ['every case of two stages (--previous)', () => previousRun()],
  ['a program that prints 1 MB per case', () => previousRun(ONE_MB)],
];

const counts = (report: RunReport) => {
  const cases = [report, ...(report.previous ?? [])].flatMap((r) => r.cases);
  const failed = cases.filter((c) => c.status === 'fail').length;
  return { total: cases.length, failed, passed: cases.length - failed };
};

describe.each(REPORTS)('the TAP of the %s run', (_, make) => {
  const report = make();
  const tap = renderReport('tap', report, { color: false });
  const { total, passed, failed } = counts(report);

  it('is read to its end by tap-mocha-reporter', async () => {
    const run = await execa(bin('tap-mocha-reporter'), ['spec'], { input: tap, reject: false });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(failed > 0 ? 1 : 0);
    if (total > 0) expect(run.stdout).toContain(`${passed} passing`);
    if (failed > 0) expect(run.stdout).toContain(`${failed} failing`);
    // Each failure's place is the student's file, as a stack frame.
    if (report.stage === 'register-tools' && failed > 0)
      expect(run.stdout).toMatch(/at makeExecute \(src\/execute\.ts:\d+:1\)/);
  });

  it('is read to its end by tap-spec', async () => {
    const run = await execa(bin('tap-spec'), [], { input: tap, reject: false });
    expect(run.stderr).toBe('');
    const shown = stripVTControlCharacters(run.stdout);
    expect(run.exitCode).toBe(failed > 0 ? 1 : 0);
    if (total > 0) {
      expect(shown).toMatch(new RegExp(`total:\\s+${total}\\n`));
      expect(shown).toMatch(new RegExp(`passing:\\s+${passed}\\n`));
    }
    if (failed > 0) expect(shown).toMatch(new RegExp(`failing:\\s+${failed}\\n`));
  });
});

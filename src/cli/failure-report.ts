// The report of a run that never graded: the command was misused (exit 2) or theinference itself failed (exit 3),
// before or during its start. A consumer that reads a file rather than an exit code would otherwise find none: Gradescope
// then tells the student only that "the autograder failed to execute correctly". So the report the flags asked for is
// written with one failing test that says what happened, once, and scores 0: for a misuse to a gradescope file only
// (CI systems read the exit code and the missing report there, as docs/reporters.md says), for a crash to every file.
// The flags are read from argv as given, as early-start.ts reads them: commander may never have parsed them.
import { basename, resolve } from 'node:path';
import { writeAtomically } from '../course/snapshot-file.ts';
import { renderReport } from '../grade/report/index.ts';
import { oneLine } from '../grade/report/plain-text.ts';
import type { RunReport } from '../grade/types.ts';
import { collectReporter, planReports, type ReporterChoice } from './commands/reporter-flags.ts';
import { NAME_TOKEN } from './commands/report-paths.ts';
import { checkOutputFile } from './commands/output-file.ts';
import { flagValue, flagValues } from './early-start.ts';

// What ended the run: the harness was misused, or theinference failed.
export type NoRun = { kind: 'misuse' | 'crash'; message: string };

// The one-test report for `what`, as the run's stage and course directory are known from argv.
export function noRunReport(argv: string[], cwd: string, what: NoRun): RunReport {
  const description =
    what.kind === 'misuse'
      ? 'theinference could not grade this submission as it is'
      : 'theinference failed before grading: a bug in theinference, not in this submission';
  return {
    stage: flagValue(argv, '--stage') ?? 'unknown',
    dir: resolve(cwd, flagValue(argv, '--dir') ?? '.'),
    cases: [
      {
        name: 'theinference',
        description,
        status: 'fail',
        durationMs: 0,
        failure: { kind: 'crash', message: oneLine(what.message) },
        output: '',
      },
    ],
    passed: 0,
    failed: 1,
    durationMs: 0,
  };
}

// Writes the no-run report to each file the flags of a `test` command ask for (see the header for which); the paths
// written. Never throws: it runs on the way out of a failure, which it must not hide.
export async function writeNoRunReports(argv: string[], cwd: string, what: NoRun): Promise<string[]> {
  if (argv[0] !== 'test') return [];
  let planned: { name: ReporterChoice['name']; file?: string }[];
  try {
    const choices = flagValues(argv, '--reporter').reduce<ReporterChoice[]>((all, v) => collectReporter(v, all), []);
    planned = planReports(choices, flagValue(argv, '--output'));
  } catch {
    return [];
  }
  const report = noRunReport(argv, cwd, what);
  const written: string[] = [];
  for (const p of planned) {
    if (p.file === undefined || (what.kind === 'misuse' && p.name !== 'gradescope')) continue;
    try {
      const file = await checkOutputFile(cwd, p.file.split(NAME_TOKEN).join(basename(report.dir)));
      // No student file to point at: nothing of theirs ran.
      await writeAtomically(file, renderReport(p.name, report, { color: false, fileOf: () => undefined }));
      written.push(file);
    } catch {
      // A file that cannot be written (the misuse may be that very path): nothing more to do.
    }
  }
  return written;
}

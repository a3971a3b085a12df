import { HarnessError } from '../../errors.ts';
import { courseDirFor } from '../../course/find-course-dir.ts';
import { writeAtomically } from '../../course/snapshot-file.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import { ciIsSet, type IsolationMode } from '../../grade/run/isolation/isolation-mode.ts';
import { DEFAULT_MEMORY_MIB, MEMORY_ENV, MIN_MEMORY_MIB } from '../../grade/run/isolation/program-limits.ts';
import { renderReport } from '../../grade/report/index.ts';
import { renderStepSummary } from '../../grade/report/github.ts';
import { planReports, type PlannedReport, type ReporterChoice } from './reporter-flags.ts';
import { ERASE_LINE, renderLiveCount } from '../../grade/report/pretty.ts';
import { visibleLine } from '../../grade/report/visible-text.ts';
import { allPassed, runCourse, stageReports, stageTotals } from '../../grade/run-course.ts';
import { parseShard } from '../../grade/select-cases.ts';
import type { RunOptions } from '../../grade/run-options.ts';
import type { CaseResult, RunReport, TypeCheck, TypeCheckSetting } from '../../grade/types.ts';
import { dumbTerminal, useColor, write, type CommandIo, type Outcome } from './io.ts';
import { readFailures, recordFailures } from '../../grade/failed-record.ts';
import { firstFailureTeller, renderFirstFailure } from '../../grade/report/first-failure.ts';
import { readTimings, writeTimings } from '../../grade/case-timings.ts';
import { failedCases } from './failed-cases.ts';
import { shellQuote } from '../../shell-quote.ts';
import { checkOutputFile, clearOutputFile } from './output-file.ts';
import { chooseVariants } from './variants-flags.ts';
import { appendFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { type SourceFileOf, stageFile } from '../../grade/report/source-file.ts';
import { NAME_TOKEN, summaryPath } from './report-paths.ts';
import { isClass } from './submissions.ts';
import { writeSummary } from './write-summary.ts';
import { oneRun } from '../../grade/run-class.ts';
import { packageRoot } from '../../course/stages.ts';
import { nextStep } from '../next-step.ts';
import { pendingNote } from '../pending-note.ts';
import { courseStage } from './course-stage.ts';
import { runTypeCheck } from '../../grade/type-check/run-type-check.ts';
import { typeCheckSetting } from '../../grade/type-check/type-check-setting.ts';
import { renderTypeCheckNote, typeCheckFails } from '../../grade/report/type-check-note.ts';

// The flags as commander hands them over (numbers still text).
export type TestFlags = {
  stage: string;
  // Every --dir given: one course directory, or several (or a glob) for a class.
  dir?: string[];
  case: string[];
  bail?: boolean;
  timeout?: string;
  jobs?: string;
  shard?: string;
  // Every --reporter, in order (src/cli/commands/reporter-flags.ts); none means `pretty`.
  reporter: ReporterChoice[];
  output?: string;
  summary?: string;
  // A class run's graded results, for `theinference merge` (src/grade/report/class-data.ts).
  classData?: string;
  watch?: boolean;
  failed?: boolean;
  previous?: boolean;
  variants?: boolean;
  seed?: string;
  isolation?: IsolationMode;
  memory?: string;
};

// The flags as commander hands them over: --stage may be left out in a course directory.
export type GivenTestFlags = Omit<TestFlags, 'stage'> & { stage?: string };

// The flags with a stage: given, or the one the course directory's `npm test` grades (with its --previous).
async function withStage(given: GivenTestFlags, io: CommandIo): Promise<TestFlags> {
  if (given.stage !== undefined) return { ...given, stage: given.stage };
  if ((given.dir ?? []).length > 1 || isClass(given.dir ?? [])) {
    throw new HarnessError('BAD_FLAG', 'a class run names its stage: add --stage <slug>.');
  }
  const { stage, previous } = await courseStage(courseDirFor(io.cwd, given.dir?.[0]));
  return { ...given, stage, ...(previous ? { previous: true } : {}) };
}

// The flag that named a report's file, for a message about it.
function flagOf(p: PlannedReport, flags: TestFlags): string {
  return flags.reporter.some((c) => c.name === p.name && c.file !== undefined) ? `--reporter ${p.name}:` : '--output';
}

// Failures up to this many are re-run by name (a command that works anywhere); more, with --failed.
const NAMED_RERUN = 3;

// Runs the command: a class (several --dir, or a glob), watch mode, or one run whose report goes to stdout or
// --output. Every flag is checked, and every report's file, before anything runs.
export async function testCommand(given: GivenTestFlags, io: CommandIo): Promise<Outcome> {
  const flags = await withStage(given, io);
  const planned = planReports(flags.reporter, flags.output);
  if (isClass(flags.dir ?? [], io.cwd)) return gradeClass(flags, planned, io);
  if (flags.classData !== undefined) {
    throw new HarnessError(
      'BAD_FLAG',
      "--class-data writes a class run's results: grade the class (--dir 'submissions/*'), or drop --class-data.",
    );
  }
  const options = runOptions(flags, io);
  const color = useColor(io);
  if (flags.watch === true && (flags.output !== undefined || planned.some((p) => p.name !== 'pretty' || p.file))) {
    throw new HarnessError(
      'BAD_FLAG',
      '--watch shows the terminal report: drop --reporter and --output, or drop --watch.',
    );
  }
  const outputs = await claimOutputs(flags, planned, basename(options.dir), io);
  const typeCheck = await typeCheckSetting(options.dir, io.env);
  const warning = await chooseRunSettings(flags, options, io);
  if (flags.failed === true) {
    options.cases = await failedCases(options.dir, flags);
    if (options.cases.length === 0) {
      await write(
        io.stdout,
        `The last run of ${flags.stage} in ${options.dir} had no failures: nothing to re-run (drop --failed to grade every case).\n`,
      );
      return 'pass';
    }
  }
  if (flags.watch === true) {
    // Loaded only for --watch: the file watcher is not needed for one run.
    const { runWatch } = await import('../watch/index.ts');
    const warnings = warning === undefined ? [] : [warning];
    return runWatch(options, { stdin: io.stdin, stdout: io.stdout, color, warnings, typeCheck });
  }
  // The type check runs beside the cases, at a lower priority, and is told after their verdict; a run that stops
  // early stops it too.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  io.signal?.addEventListener('abort', onAbort, { once: true });
  const checking = typeCheckWanted(typeCheck, outputs) ? typeCheckOf(options.dir, stop.signal) : undefined;
  try {
    const { report, rerunCommand } = await gradeOnce(flags, options, outputs, color, io);
    await deliverReports(options, outputs, { report, rerunCommand }, color, io);
    const checked = await checking;
    if (checked !== undefined) {
      const pretty = outputs.toStdout?.name === 'pretty';
      const note = renderTypeCheckNote(checked, typeCheck, { color: pretty && color });
      if (note !== '') await write(pretty ? io.stdout : io.stderr, note);
    }
    const typesFail = checked !== undefined && typeCheckFails(checked, typeCheck);
    return allPassed(report) && !typesFail ? 'pass' : 'fail';
  } finally {
    stop.abort();
    io.signal?.removeEventListener('abort', onAbort);
    await checking;
  }
}

// A person reading the terminal report sees the type check; a CI format only when the course grades it.
function typeCheckWanted(setting: TypeCheckSetting, outputs: Outputs): boolean {
  return setting === 'fail' || (setting === 'note' && outputs.toStdout?.name === 'pretty');
}

// The type check of `dir`, never a rejection: a check that could not run says why.
function typeCheckOf(dir: string, signal: AbortSignal): Promise<TypeCheck> {
  return runTypeCheck(dir, { signal }).catch((error: unknown) => ({
    kind: 'not run' as const,
    why: error instanceof Error ? error.message : String(error),
  }));
}

// A class run: one format per submission, its files named by --output.
async function gradeClass(flags: TestFlags, planned: PlannedReport[], io: CommandIo): Promise<Outcome> {
  if (planned.length > 1) {
    throw new HarnessError(
      'BAD_FLAG',
      'a class run writes one format per submission: give one --reporter (with --output for its files).',
    );
  }
  const [only] = planned;
  const { output: _, ...rest } = flags;
  return (await import('./test-class.ts')).classCommand(
    { ...rest, reporter: only!.name, ...(only!.file === undefined ? {} : { output: only!.file }) },
    io,
  );
}

// Where the run's reports go: each file (and the summary's) checked, and whatever an earlier run left there removed.
type Outputs = {
  // The course directory's name, for {name} in a file.
  name: string;
  reports: (PlannedReport & { path?: string })[];
  // The one report written to stdout, if any.
  toStdout: PlannedReport | undefined;
  summary: Awaited<ReturnType<typeof summaryPath>> | undefined;
};

async function claimOutputs(flags: TestFlags, planned: PlannedReport[], name: string, io: CommandIo): Promise<Outputs> {
  const reports: Outputs['reports'] = [];
  for (const p of planned) {
    const path =
      p.file === undefined
        ? undefined
        : await checkOutputFile(io.cwd, p.file.split(NAME_TOKEN).join(name), flagOf(p, flags));
    reports.push({ ...p, ...(path === undefined ? {} : { path }) });
  }
  const summary = flags.summary === undefined ? undefined : await summaryPath(io.cwd, flags.summary);
  if (summary !== undefined && flags.watch === true) {
    throw new HarnessError('BAD_FLAG', '--watch writes no summary: drop --summary, or drop --watch.');
  }
  // Nothing earlier stays at a path the run will write: a run that ends without its report leaves none there.
  for (const file of [...reports.map((r) => r.path), summary?.file])
    if (file !== undefined) await clearOutputFile(file);
  return { name, reports, toStdout: reports.find((r) => r.path === undefined), summary };
}

// The sandbox and the variants, decided once for the command (watch mode's runs included) and set on `options`;
// `required` without a sandbox stops here. Resolves to the sandbox's warning, if any.
async function chooseRunSettings(flags: TestFlags, options: RunOptions, io: CommandIo): Promise<string | undefined> {
  const isolation = await chooseSandbox(flags.isolation, io.env);
  // Watch mode shows it with every report instead: its first run would clear it off the screen at once.
  if (isolation.warning !== undefined && flags.watch !== true)
    await write(io.stderr, `warning: ${isolation.warning}\n`);
  options.sandbox = isolation.sandbox;
  const variants = await chooseVariants(flags, io);
  if (variants.note !== undefined) await write(io.stderr, `note: ${variants.note}\n`);
  if (variants.seed !== undefined) options.variants = { seed: variants.seed };
  return isolation.warning;
}

// A run's report, and the command that re-runs its failures (none when all passed).
type Graded = { report: RunReport; rerunCommand: string | undefined };

// One run. A terminal sees the count go up as verdicts arrive; a pipe, a file or a terminal that cannot redraw a
// line gets the report alone. The failures and the case times are put on record in the course directory.
async function gradeOnce(
  flags: TestFlags,
  options: RunOptions,
  outputs: Outputs,
  color: boolean,
  io: CommandIo,
): Promise<Graded> {
  const live = outputs.toStdout?.name === 'pretty' && io.stdout.isTTY === true && !dumbTerminal(io);
  const count = { done: 0, failed: 0 };
  // The first failure at once, above the count, as soon as it is judged: the report tells it again, with the
  // rest, at the end.
  const tellFirst = firstFailureTeller((result) => io.stdout.write(renderFirstFailure(result, { color })));
  const onCaseResult = (result: CaseResult): void => {
    count.done += 1;
    if (result.status === 'fail') count.failed += 1;
    tellFirst(result);
    io.stdout.write(renderLiveCount(count, { color }));
  };
  const onFailureSeen = (result: CaseResult): void => {
    if (tellFirst(result)) io.stdout.write(renderLiveCount(count, { color }));
  };
  // The last run's times choose the number of processes and balance the batches; this run's replace them. On a
  // terminal, the cases that failed last time run first.
  const timings = readTimings(options.dir, flags.stage);
  const runFirst = live ? await readFailures(options.dir, flags.stage) : undefined;
  let report: RunReport;
  try {
    report = await runCourse({
      ...options,
      timings,
      runFirst,
      ...(io.standbys === undefined ? {} : { standbys: io.standbys }),
      ...(live ? { onCaseResult, onFailureSeen } : {}),
    });
  } finally {
    // Also when the run stops (Ctrl-C): what is said then starts on a line of its own, not after the count.
    if (live && count.done > 0) io.stdout.write(ERASE_LINE);
  }
  const [recorded] = await Promise.all([
    Promise.all(stageReports(report).map(recordFailures)),
    writeTimings(options.dir, flags.stage, timings),
  ]);
  // In CI the record of failures stays on the runner, so `--failed` would re-run nothing: the command names the
  // failures when there are few, else grades the stage again.
  const rerunnable = ciIsSet(io.env) ? recorded.map(() => false) : recorded;
  return { report, rerunCommand: allPassed(report) ? undefined : rerunAll(flags, report, rerunnable) };
}

// The report to each of its places: files, GitHub's step summary, stdout (or a count there), and the class-style
// summary.
async function deliverReports(
  options: RunOptions,
  { name, reports, toStdout, summary }: Outputs,
  { report, rerunCommand }: Graded,
  color: boolean,
  io: CommandIo,
): Promise<void> {
  // The terminal report shows the warnings; the CI formats have no place for them, so they go to stderr.
  if (toStdout?.name !== 'pretty') {
    for (const warning of report.warnings ?? []) await write(io.stderr, `warning: ${visibleLine(warning)}\n`);
  }
  const context = { ...(rerunCommand ? { rerunCommand } : {}), fileOf: studentFileOf(io.cwd, options.dir) };
  const written: string[] = [];
  for (const r of reports) {
    if (r.path === undefined) continue;
    await writeAtomically(r.path, renderReport(r.name, report, { color: false, ...context }));
    written.push(`Wrote the ${r.name} report to ${r.file!.split(NAME_TOKEN).join(name)}`);
  }
  // GitHub Actions shows this file's Markdown on the run's page, as vitest's github-actions reporter writes it.
  const stepSummary = io.env.GITHUB_STEP_SUMMARY;
  if (reports.some((r) => r.name === 'github') && stepSummary !== undefined && stepSummary !== '') {
    await appendFile(stepSummary, renderStepSummary(report, context));
  }
  if (toStdout !== undefined) await write(io.stdout, renderReport(toStdout.name, report, { color, ...context }));
  else {
    const { passed, failed } = stageTotals(report);
    await write(io.stdout, `${passed} passed, ${failed} failed\n`);
  }
  // A student's terminal report, green: what comes next, so that nobody looks for it in the docs.
  const next = toStdout?.name === 'pretty' ? nextStep(report, io.root ?? packageRoot()) : [];
  if (next.length > 0) await write(io.stdout, `\n${next.join('\n')}\n`);
  // A failure that is a snapshot waiting for review says so (stderr beside a CI format, which owns stdout). The
  // snapshots graded are the installed package's, as the grader reads them (run-stage.ts).
  const pending = pendingNote(report, packageRoot());
  if (pending.length > 0) await write(toStdout?.name === 'pretty' ? io.stdout : io.stderr, `\n${pending.join('\n')}\n`);
  if (written.length > 0) await write(toStdout === undefined ? io.stdout : io.stderr, `${written.join('\n')}\n`);
  if (summary !== undefined) {
    const first = reports.find((r) => r.path !== undefined)?.path;
    const files = new Map(first === undefined ? [] : [[name, first]]);
    await writeSummary(summary, oneRun(report, { name, dir: options.dir }), files);
  }
}

// The student's file of a stage in course directory `dir`, as a CI job names it: relative to where the grader runs
// (the repository's root, as a rule), so annotations and JUnit's `file` land on it.
export function studentFileOf(cwd: string, dir: string): SourceFileOf {
  return (stage) => {
    const own = stageFile(stage);
    // A directory's name may hold what a log or terminal must not show raw (a student may choose it).
    return own === undefined ? undefined : visibleLine(relative(cwd, join(dir, own)).split(sep).join('/'));
  };
}

// The commands that re-run the failures, one per stage that has any, joined by newlines.
function rerunAll(flags: TestFlags, report: RunReport, recorded: boolean[]): string {
  return stageReports(report)
    .flatMap((r, i) => {
      if (r.failed === 0) return [];
      // Without a record, more failures than a command names re-run the whole stage.
      const named = recorded[i] === true || r.failed <= NAMED_RERUN ? r : { ...r, cases: [] };
      return [rerunFailures({ ...flags, stage: r.stage }, named, recorded[i])];
    })
    .join('\n');
}

// The flags checked and turned into RunOptions; a bad value is a HarnessError saying what a good one is.
function runOptions(flags: TestFlags, io: CommandIo): RunOptions {
  return {
    stage: flags.stage,
    dir: courseDirFor(io.cwd, flags.dir?.[0]),
    cases: flags.case,
    // --memory reaches every program process through its starting environment, as early standbys get it.
    env: flags.memory === undefined ? io.env : { ...io.env, [MEMORY_ENV]: String(memoryMiB(flags.memory)) },
    ...(flags.bail === true ? { bail: true } : {}),
    ...(flags.timeout === undefined
      ? {}
      : { timeoutMs: positiveInteger('--timeout', flags.timeout, 'milliseconds per case, e.g. --timeout 20000') }),
    ...(flags.jobs === undefined
      ? {}
      : { jobs: positiveInteger('--jobs', flags.jobs, 'program processes at once, e.g. --jobs 2') }),
    ...(flags.shard === undefined ? {} : { shard: parseShard(flags.shard) }),
    ...(flags.previous === true ? { previous: true } : {}),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
  };
}

// --memory, checked: a whole number of MiB, at least what Node and tsx need to start.
function memoryMiB(text: string): number {
  const n = positiveInteger('--memory', text, 'MiB of memory per program process, e.g. --memory 2048');
  if (n >= MIN_MEMORY_MIB) return n;
  throw new HarnessError(
    'BAD_FLAG',
    `--memory ${n} is too little: Node and tsx need ${MIN_MEMORY_MIB} MiB to start. Give at least --memory ${MIN_MEMORY_MIB} (the default is ${DEFAULT_MEMORY_MIB}).`,
  );
}

export function positiveInteger(flag: string, text: string, what: string): number {
  const n = Number(text);
  if (/^\d+$/.test(text.trim()) && Number.isSafeInteger(n) && n > 0) return n;
  throw new HarnessError('BAD_FLAG', `${flag} '${text}' is not a whole number above 0: give ${what}.`);
}

// The one command that re-runs just the failures, with the flags that change what a run means kept: the failures
// by name when there are few, else `--failed` (when `recorded`: the run's failures are on record in the course
// directory), so the command stays short however many failed.
export function rerunFailures(
  flags: Pick<TestFlags, 'stage'> & Omit<Partial<TestFlags>, 'reporter'>,
  report: RunReport,
  recorded = true,
): string {
  const parts = ['npx', 'theinference', 'test', '--stage', report.stage];
  for (const dir of flags.dir ?? []) parts.push('--dir', dir);
  if (flags.timeout !== undefined) parts.push('--timeout', flags.timeout);
  // The same variants again: a failure on one is seen again, not another draw.
  if (report.variants !== undefined) parts.push('--seed', String(report.variants.seed));
  const failed = report.cases.filter((r) => r.status === 'fail');
  if (recorded && failed.length > NAMED_RERUN) parts.push('--failed');
  else for (const c of failed) parts.push('--case', c.name);
  return parts.map(shellQuote).join(' ');
}

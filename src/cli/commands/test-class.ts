// `theinference test` for a class: several --dir (or a glob), graded in one run (src/grade/run-class.ts). Each
// submission's report goes to its own file (--output: a {name} pattern or a directory), a line per submission as
// each is done, then the summary table; --summary writes it as JSON or CSV. --shard splits the submissions, not
// the cases; --class-data writes the graded shard for `theinference merge` (src/cli/commands/merge.ts). Exit code
// 0 only when every submission passed.
import { writeAtomically } from '../../course/snapshot-file.ts';
import { HarnessError } from '../../errors.ts';
import { renderClassData } from '../../grade/report/class-data.ts';
import { firstSentence, renderSummaryTable, shownName } from '../../grade/report/class-summary.ts';
import { renderClassHtml } from '../../grade/report/html.ts';
import { renderReport, type ReporterName } from '../../grade/report/index.ts';
import { painter } from '../../grade/report/paint.ts';
import { oneLine } from '../../grade/report/plain-text.ts';
import { visibleLine, visibleText } from '../../grade/report/visible-text.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import { runClass } from '../../grade/run-class.ts';
import { stageReports } from '../../grade/run-course.ts';
import type { ClassReport, SubmissionResult } from '../../grade/types.ts';
import { parseShard, shardOf } from '../../grade/select-cases.ts';
import { useColor, write, type CommandIo, type Outcome } from './io.ts';
import { checkOutputFile, clearOutputFile } from './output-file.ts';
import { classPagePath, NAME_TOKEN, reportPaths, summaryPath } from './report-paths.ts';
import { findSubmissions } from './submissions.ts';
import { positiveInteger, rerunFailures, studentFileOf, type TestFlags } from './test.ts';
import { chooseVariants } from './variants-flags.ts';
import { writeSummary } from './write-summary.ts';

// Failures up to this many are named in a submission's re-run command; more, and it re-grades the submission.
const NAMED_RERUN = 3;

// The flags of a class run: one reporter, its files from --output (src/cli/commands/test.ts checks that).
export type ClassFlags = Omit<TestFlags, 'reporter'> & { reporter: ReporterName };

export async function classCommand(flags: ClassFlags, io: CommandIo): Promise<Outcome> {
  for (const [given, flag, why] of [
    [flags.watch, '--watch', 'grades one course directory as it changes'],
    [flags.failed, '--failed', "re-runs one course directory's last failures"],
  ] as const) {
    if (given === true) throw new HarnessError('BAD_FLAG', `${flag} ${why}: give one --dir, or drop ${flag}.`);
  }
  const all = await findSubmissions(io.cwd, flags.dir ?? []);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const submissions = shard === undefined ? all : shardOf(all, shard);
  // The html reporter writes one page for the whole class (src/grade/report/html-class.ts), the others a report
  // per submission.
  const page = flags.reporter === 'html' ? await classPagePath(io.cwd, flags.output, all) : undefined;
  if (flags.output === undefined && flags.reporter !== 'pretty') {
    throw new HarnessError(
      'BAD_FLAG',
      `--reporter ${flags.reporter} writes one report per submission: give --output with a pattern or a directory, e.g. --output 'reports/${NAME_TOKEN}.${flags.reporter === 'junit' ? 'xml' : 'json'}'.`,
    );
  }
  const files =
    flags.output === undefined || page !== undefined
      ? new Map<string, string>()
      : await reportPaths(io.cwd, flags.output, submissions, flags.reporter);
  const summary = flags.summary === undefined ? undefined : await summaryPath(io.cwd, flags.summary);
  const data =
    flags.classData === undefined ? undefined : await checkOutputFile(io.cwd, flags.classData, '--class-data');
  // Nothing earlier stays at a path the run will write: a run that ends without a report leaves none there.
  for (const file of [...files.values(), page, summary?.file, data])
    if (file !== undefined) await clearOutputFile(file);
  const isolation = await chooseSandbox(flags.isolation, io.env);
  if (isolation.warning !== undefined) await write(io.stderr, `warning: ${isolation.warning}\n`);
  const variants = await chooseVariants(flags, io);
  if (variants.note !== undefined) await write(io.stderr, `note: ${variants.note}\n`);
  const color = useColor(io);
  const c = painter(color);
  const classData = async (report: ClassReport): Promise<void> => {
    if (data !== undefined)
      await writeAtomically(data, renderClassData(report, { shard, classSize: all.length, files }));
  };
  if (submissions.length === 0) {
    // An empty shard is a shard all the same: its data says so, so that the merge knows every shard is there, and
    // carries the run's seed, which the merge checks every shard shares.
    const seed = variants.seed === undefined ? {} : { variants: { seed: variants.seed } };
    await classData({ stage: flags.stage, submissions: [], durationMs: 0, ...seed });
    await write(io.stdout, `No submission in this shard (${flags.shard}): ${all.length} in all.\n`);
    return 'pass';
  }

  const report = await runClass({
    stage: flags.stage,
    cases: flags.case,
    env: io.env,
    sandbox: isolation.sandbox,
    submissions,
    ...(flags.bail === true ? { bail: true } : {}),
    ...(flags.previous === true ? { previous: true } : {}),
    ...(flags.timeout === undefined
      ? {}
      : { timeoutMs: positiveInteger('--timeout', flags.timeout, 'milliseconds per case, e.g. --timeout 20000') }),
    ...(flags.jobs === undefined
      ? {}
      : { jobs: positiveInteger('--jobs', flags.jobs, 'program processes at once, e.g. --jobs 2') }),
    ...(variants.seed === undefined ? {} : { variants: { seed: variants.seed } }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    onSubmission: (s) => void io.stdout.write(`${progressLine(s, c)}\n`),
  });
  for (const s of report.submissions) {
    for (const warning of s.report.warnings ?? [])
      await write(io.stderr, `warning: ${shownName(s.name)}: ${visibleLine(warning)}\n`);
    const file = files.get(s.name);
    if (file === undefined) continue;
    const rerunCommand = s.failed > 0 ? rerunSubmission(flags, s) : undefined;
    // Whose report it is, and the student's file from where the grader ran: a class's JUnit files merge into one
    // suite per submission, and each failure points at a file that exists there.
    const context = {
      submission: s.name,
      fileOf: studentFileOf(io.cwd, s.dir),
      ...(rerunCommand ? { rerunCommand } : {}),
    };
    await writeAtomically(file, renderReport(flags.reporter, s.report, { color: false, ...context }));
  }
  if (page !== undefined) await writeAtomically(page, renderClassHtml(report));
  if (summary !== undefined) await writeSummary(summary, report, files);
  await classData(report);
  for (const warning of report.warnings ?? []) await write(io.stderr, `warning: ${visibleLine(warning)}\n`);
  const where = [
    files.size > 0 || page !== undefined
      ? `${page === undefined ? 'Reports' : 'Report'}: ${flags.output}`
      : `Each submission's full report: add --output 'reports/${NAME_TOKEN}.txt', or grade one with --dir <its directory>.`,
    ...(summary === undefined ? [] : [`Summary: ${flags.summary}`]),
    ...(data === undefined ? [] : [`Class data: ${flags.classData} (merge the shards' with theinference merge)`]),
  ];
  await write(io.stdout, `\n${renderSummaryTable(report, { color })}${where.join('\n')}\n`);
  return report.submissions.every((s) => s.verdict === 'pass') ? 'pass' : 'fail';
}

// A submission's line as it is done.
function progressLine(s: SubmissionResult, c: ReturnType<typeof painter>): string {
  const mark = s.verdict === 'pass' ? c.green('✓') : c.red('✗');
  const what =
    s.verdict === 'misuse' || s.verdict === 'did not start'
      ? `${s.verdict}: ${firstSentence(shown(s.message ?? ''))}`
      : `${s.passed} passed, ${s.failed} failed`;
  return ` ${mark} ${shownName(s.name)} ${c.dim(`— ${what}`)}`;
}

// The commands that grade this submission again, one per stage that failed: its failures by name when there are
// few, else all of the stage.
function rerunSubmission(flags: ClassFlags, s: SubmissionResult): string {
  return stageReports(s.report)
    .filter((r) => r.failed > 0)
    .map((r) => rerunFailures({ ...flags, dir: [s.dir] }, r.failed <= NAMED_RERUN ? r : { ...r, cases: [] }, false))
    .join('\n');
}

function shown(text: string): string {
  return oneLine(visibleText(text));
}

// The commands and their flags, as commander reads them: one declaring step per command, each loading its command
// module only when it runs (the grader starts before every program process, so what it does not need it does not
// load). The outcome goes to `done`; src/cli/main.ts alone turns it into an exit code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { packageRoot } from '../course/stages.ts';
import { REPORTER_NAMES } from '../grade/report/names.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from '../grade/run/case-timeout.ts';
import { MAX_WATCH_JOBS } from '../grade/run/default-jobs.ts';
import { ISOLATION_MODES } from '../grade/run/isolation/isolation-mode.ts';
import { DEFAULT_MEMORY_MIB, MIN_MEMORY_MIB } from '../grade/run/isolation/program-limits.ts';
import { BASH_MODES, DEFAULT_MAX_CALLS, DEFAULT_MAX_TURNS } from '../record/record-types.ts';
import type { AuditFlags } from './commands/audit.ts';
import type { InitFlags } from './commands/init.ts';
import type { CommandIo, Outcome } from './commands/io.ts';
import type { RecordFlags } from './commands/record-flags.ts';
import type { RedactFlags } from './commands/redact.ts';
import { collectReporter } from './commands/reporter-flags.ts';
import type { SnapshotFlags } from './commands/snapshot.ts';
import type { GivenTestFlags } from './commands/test.ts';

// Everything the CLI may touch, injected: tests pass their own and never touch process.argv or exit.
export type CliIo = CommandIo & { argv: string[] };
// Where a command's outcome goes.
type Done = (outcome: Outcome) => void;

// The `theinference` program: its own flags, then each command in the order --help lists them.
export function buildProgram(io: CliIo, done: Done): Command {
  const program = new Command('theinference')
    .description('Grade a build-a-coding-agent course stage against its cases.')
    .version(packageVersion(), '-v, --version', 'print the version of theinference')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
    });
  declareTest(program, io, done);
  declareInit(program, io, done);
  declareStages(program, io, done);
  declareAudit(program, io, done);
  declareSnapshot(program, io, done);
  declareRecord(program, io, done);
  declareRedact(program, io, done);
  declareMerge(program, io, done);
  return program;
}

// `theinference test`: a student's grade, and a class's (--dir repeated).
function declareTest(program: Command, io: CliIo, done: Done): void {
  program
    .command('test')
    .description('grade your course directory against a stage')
    .option(
      '--stage <slug>',
      "the stage to grade (default: the one your course's `npm test` grades; list them with `npx theinference stages`)",
    )
    .option(
      '--dir <path>',
      'your course directory (default: the nearest directory at or above this one with program.ts and a package.json); repeat it, or give a glob, to grade a class',
      collect,
    )
    .addOption(caseOption())
    .option('--bail', 'stop at the first failing case')
    .option('--timeout <ms>', `per-case timeout in milliseconds (default: ${DEFAULT_CASE_TIMEOUT_MS})`)
    .option(
      '--jobs <n>',
      `program processes at once (default: one fewer than the CPUs, at least 1, more for a large suite; with --watch, one per CPU up to ${MAX_WATCH_JOBS}; for a class, submissions at once, one per CPU)`,
    )
    .option('--shard <i/n>', 'grade only the i-th of n deterministic shards of the cases, or of a class (CI matrices)')
    .addOption(
      new Option(
        '--reporter <name>',
        `report format: ${REPORTER_NAMES.join(', ')}; repeat for several, each to its own file as <name>:<file> (e.g. --reporter junit:junit.xml --reporter json:results.json)`,
      )
        .argParser(collectReporter)
        .default([], 'pretty'),
    )
    .option(
      '--output <file>',
      "write the report (of the one --reporter without a file) to a file instead of stdout; for a class, a pattern ('reports/{name}.xml') or a directory",
    )
    .option('--summary <file>', "write the class's summary (submission, passed, failed, verdict) as .json or .csv")
    .option(
      '--class-data <file>',
      "write the class's graded results (each submission's whole report) for `theinference merge` to read",
    )
    .option('--watch', 'grade again on every save')
    .option('--failed', 'grade only the cases the last run in this course directory failed')
    .option('--previous', 'then grade the earlier stages this course directory has reached (their every case)')
    .option(
      '--variants',
      'also run every case on renamed files, expected results from the reference (default: on in CI where the reference is)',
    )
    .option('--no-variants', 'run no variants, in CI too')
    .option('--seed <n>', 'the seed the variants are made from, to repeat a run (implies --variants)')
    .addOption(isolationOption())
    .option(
      '--memory <MiB>',
      `memory each program process may use, in MiB (default: ${DEFAULT_MEMORY_MIB}, at least ${MIN_MEMORY_MIB})`,
    )
    .action(async (flags: GivenTestFlags) => done(await (await import('./commands/test.ts')).testCommand(flags, io)));
}

// `theinference init`: a course directory for a stage; it grades nothing (`npm test` does).
function declareInit(program: Command, io: CliIo, done: Done): void {
  program
    .command('init')
    .argument('[dir]', 'the new course directory (default: the current directory)')
    .description(
      'write a course directory for a stage, or add the stage to yours (never replaces a file without --force); `npm test` then grades it',
    )
    .option(
      '--stage <slug>',
      'the stage to write it for (default: the first of the course; list them with `theinference stages`)',
    )
    .option(
      '--from <spec>',
      "where the course's package.json gets theinference: a git URL, a tarball or a directory (default: where this copy was installed from)",
    )
    .option('--force', 'replace files that exist')
    .action(async (dir: string | undefined, flags: InitFlags) =>
      done(await (await import('./commands/init.ts')).initCommand(dir, flags, io)),
    );
}

// `theinference stages`: the stages and their case counts.
function declareStages(program: Command, io: CliIo, done: Done): void {
  program
    .command('stages')
    .description('list the stages and their case counts')
    .option('--json', 'one JSON array: each stage with its mode, the files its student writes and its case count')
    .action(async (flags: { json?: boolean }) =>
      done(await (await import('./commands/stages.ts')).stagesCommand(io, flags)),
    );
}

// `theinference audit`: the stage's catalogue of wrong implementations against its cases.
function declareAudit(program: Command, io: CliIo, done: Done): void {
  program
    .command('audit')
    .description("run the stage's catalogue of wrong solutions against its cases: the kill matrix (course authors)")
    .requiredOption('--stage <slug>', 'the stage to audit')
    .option('--json', 'print the matrix as JSON')
    .addOption(
      new Option('--mistake <slug>', 'audit only this catalogue entry; repeat for several')
        .argParser(collect)
        .default([], 'every entry'),
    )
    .action(async (flags: AuditFlags) => done(await (await import('./commands/audit.ts')).auditCommand(flags, io)));
}

// `theinference snapshot`: the reference's snapshots, written as pending files and reviewed.
function declareSnapshot(program: Command, io: CliIo, done: Done): void {
  program
    .command('snapshot')
    .description(
      'run the reference in this repository and write each snapshot that changes as a pending file to review (course authors)',
    )
    .requiredOption('--stage <slug>', 'the stage whose snapshots to regenerate')
    .addOption(caseOption())
    .option('--check', 'write nothing; fail on any stale, missing, obsolete or pending snapshot (CI)')
    .option('--review', 'walk the pending snapshots one by one: accept, reject or skip each')
    .option('--accept <case...>', 'accept these pending snapshots (names or globs)')
    .option('--reject <case...>', 'reject these pending snapshots (names or globs)')
    .option('--accept-all', 'accept every pending snapshot (of the --case cases, when given)')
    .option('--reject-all', 'reject every pending snapshot (of the --case cases, when given)')
    .option('--remove-obsolete', 'remove the snapshots (and pending files) that have no case')
    .addOption(isolationOption())
    .action(async (flags: SnapshotFlags) =>
      done(await (await import('./commands/snapshot.ts')).snapshotCommand(flags, io)),
    );
}

// `theinference record`: transcripts, or a live session, turned into cases.
function declareRecord(program: Command, io: CliIo, done: Done): void {
  program
    .command('record')
    .description(
      'turn real agent transcripts (or, with --live, a session run now) into replay-verified cases (course authors)',
    )
    .usage(
      '<transcript>… --stage <slug> [options]\n       theinference record --live --stage <slug> [options] -- <agent command…>',
    )
    .argument('[transcripts...]', 'transcript files; with --live, the agent command after --')
    .requiredOption('--stage <slug>', 'the stage the cases are for')
    .option(
      '--name <slug>',
      'the case name: cases/<stage>/<name>.json, or <name>-01.json… for several (default: recorded-<transcript>)',
    )
    .option(
      '--dir <path>',
      'the course directory to write cases/ and snapshots/ into (default: the nearest directory at or above this one with program.ts and a package.json, else this one)',
    )
    .option('--format <fmt>', 'read the transcripts as this format (default: detected from their content)')
    .option(
      '--files-from <dir>',
      "the workspace as it was when the session started: seeds take files' contents from it",
    )
    .option(
      '--max-calls <n>',
      `calls per case at most (default: ${DEFAULT_MAX_CALLS}; turns per loop case: ${DEFAULT_MAX_TURNS})`,
    )
    .addOption(
      new Option('--bash <mode>', 'Bash calls: kept when two replays agree with the recording, when one does, or never')
        .choices(BASH_MODES)
        .default('reproducible'),
    )
    .option('--redact <regex>', 'also redact what this pattern matches; repeat for several', collect)
    .option('--dry-run', 'print the report and the cases; write nothing')
    .option('--force', 'replace existing cases whose content differs')
    .option('--verbose', 'list every dropped call in the report: its tool, id and reason')
    .addOption(
      new Option('--divergences <which>', 'divergences shown as diffs: the first few, or every one')
        .choices(['first', 'all'])
        .default('first'),
    )
    .addOption(isolationOption('the replays'))
    .option('--live', 'run the agent command (after --) through a local API proxy and record its session')
    .option(
      '--workspace <dir>',
      'with --live: the directory the agent works in, snapshotted as the seed (default: the current directory)',
    )
    .option('--upstream <url>', 'with --live: where the proxy forwards requests (default: the Anthropic API)')
    .option('--port <n>', 'with --live: the port the proxy listens on (default: any free one)')
    .option(
      '--keep-transcript <file>',
      'with --live: keep the captured exchanges in this file (`theinference record` reads it back)',
    )
    .action(async (operands: string[], options: Omit<RecordFlags, 'operands'>, command: Command) => {
      const flags = recordFlags(operands, options, command.getOptionValueSource('bash') === 'cli');
      if (flags.live === true) done(await (await import('./commands/record-live.ts')).recordLiveCommand(flags, io));
      else done(await (await import('./commands/record.ts')).recordCommand(flags, io));
    });
}

// `theinference redact`: recorded cases redacted again in place.
function declareRedact(program: Command, io: CliIo, done: Done): void {
  program
    .command('redact')
    .description(
      'redact the recorded cases of a stage and their snapshots in place, without their transcripts (course authors)',
    )
    .requiredOption('--stage <slug>', 'the stage whose recorded cases to redact')
    .addOption(caseOption('a recorded case name or glob (* and ?); repeat for several', 'every recorded case'))
    .option('--redact <regex>', 'also redact what this pattern matches; repeat for several', collect)
    .option(
      '--dir <path>',
      'the course directory the cases are in (default: the nearest directory at or above this one with program.ts and a package.json, else this one)',
    )
    .option('--dry-run', 'print the report; write nothing')
    .addOption(isolationOption('the reference'))
    .action(async (flags: RedactFlags) => done(await (await import('./commands/redact.ts')).redactCommand(flags, io)));
}

// `theinference merge`: the shards of a class run, read as one class (staff, CI).
function declareMerge(program: Command, io: CliIo, done: Done): void {
  program
    .command('merge')
    .description("read the class data of a class run's shards (test --shard i/n --class-data <file>) as one class")
    .argument('<files...>', 'the class data file of every shard')
    .option('--html <file>', "write the class's page (the html reporter's)")
    .option('--summary <file>', "write the class's summary as .json or .csv")
    .action(async (files: string[], flags: { html?: string; summary?: string }) =>
      done(await (await import('./commands/merge.ts')).mergeCommand({ ...flags, files }, io)),
    );
}

// --bash has its default for --help; a loop stage refuses it only when it is given (record-flags.ts), so it is
// passed on only when the command line set it.
export function recordFlags(
  operands: string[],
  options: Omit<RecordFlags, 'operands'>,
  bashGiven: boolean,
): RecordFlags {
  const { bash, ...given } = options;
  return { ...given, ...(bashGiven ? { bash } : {}), operands };
}

// No commander default: the default depends on the environment (CI), decided where the command runs.
function isolationOption(what = 'program processes'): Option {
  return new Option(
    '--isolation <mode>',
    `run ${what} in the OS sandbox (default: auto; required when CI is set)`,
  ).choices(ISOLATION_MODES);
}

// `--case`, repeatable; its default is shown in words, not as `[]`.
function caseOption(what = 'a case name or glob (* and ?); repeat for several', all = 'every case'): Option {
  return new Option('--case <name>', what).argParser(collect).default([], all);
}

// This copy's version, for --version (a bug report says which one ran).
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

// The command line: commander wiring, and the only place where outcomes and errors become exit codes
// (0 all passed, 1 a case failed, 2 the harness was misused, 130 interrupted, 3 a bug in theinference).
import { Command, CommanderError, Option } from 'commander';
import { HarnessError } from '../errors.ts';
import { REPORTER_NAMES } from '../grade/report/names.ts';
import { ISOLATION_MODES } from '../grade/run/isolation/isolation-mode.ts';
import type { CommandIo, Outcome } from './commands/io.ts';
import type { SnapshotFlags } from './commands/snapshot.ts';
import type { TestFlags } from './commands/test.ts';

// Everything the CLI may touch, injected: tests pass their own and never touch process.argv or exit.
export type CliIo = CommandIo & { argv: string[] };

const EXIT: Record<Outcome, number> = { pass: 0, fail: 1, misuse: 2 };

// Runs `theinference <argv…>` and resolves to its exit code.
export async function runCli(io: CliIo): Promise<number> {
  let outcome: Outcome | undefined;
  const program = buildProgram(io, (o) => (outcome = o));
  try {
    await program.parseAsync(io.argv, { from: 'user' });
  } catch (error) {
    return exitCodeFor(error, io);
  }
  if (outcome !== undefined) return EXIT[outcome];
  io.stderr.write(program.helpInformation());
  return EXIT.misuse;
}

function exitCodeFor(error: unknown, io: CliIo): number {
  if (error instanceof HarnessError) {
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT.misuse;
  }
  if (error instanceof CommanderError) {
    // commander has printed its message (or the help) already.
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : EXIT.misuse;
  }
  if (io.signal?.aborted === true) {
    io.stderr.write('interrupted: every program process was stopped and its temp directory removed\n');
    return 130;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`internal error (a bug in theinference, please report it):\n${detail}\n`);
  return 3;
}

function buildProgram(io: CliIo, done: (outcome: Outcome) => void): Command {
  const program = new Command('theinference')
    .description('Grade a build-a-coding-agent course stage against its cases.')
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
    });
  program
    .command('test')
    .description('grade your course directory against a stage')
    .requiredOption('--stage <slug>', 'the stage to grade (list them with `theinference stages`)')
    .option('--dir <path>', 'your course directory (default: the current directory)')
    .option('--case <name>', 'a case name or glob (* and ?); repeat for several', collect, [])
    .option('--bail', 'stop at the first failing case')
    .option('--timeout <ms>', 'per-case timeout in milliseconds (default: 10000)')
    .option('--jobs <n>', 'program processes at once (default: one fewer than the CPUs, at least 1; with --watch, one per CPU up to 4)')
    .option('--shard <i/n>', 'grade only the i-th of n deterministic shards (CI matrices)')
    .addOption(new Option('--reporter <name>', 'report format').choices(REPORTER_NAMES).default('pretty'))
    .option('--output <file>', "write the report to a file instead of stdout")
    .option('--watch', 'grade again on every save')
    .addOption(isolationOption())
    // Each command is loaded when it runs: the grader starts before every program process, so what it does
    // not need it does not load.
    .action(async (flags: TestFlags) => done(await (await import('./commands/test.ts')).testCommand(flags, io)));
  program
    .command('stages')
    .description('list the stages and their case counts')
    .action(async () => done(await (await import('./commands/stages.ts')).stagesCommand(io)));
  program
    .command('snapshot')
    .description('regenerate snapshots from the reference in this repository (course authors)')
    .requiredOption('--stage <slug>', 'the stage whose snapshots to regenerate')
    .option('--case <name>', 'a case name or glob (* and ?); repeat for several', collect, [])
    .option('--check', 'write nothing; fail on any stale, missing or obsolete snapshot (CI)')
    .addOption(isolationOption())
    .action(async (flags: SnapshotFlags) => done(await (await import('./commands/snapshot.ts')).snapshotCommand(flags, io)));
  return program;
}

// No commander default: the default depends on the environment (CI), decided where the command runs.
function isolationOption(): Option {
  return new Option('--isolation <mode>', 'run program processes in the OS sandbox (default: auto; required when CI is set)').choices(ISOLATION_MODES);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

// The command line: commander wiring, and the only place where outcomes and errors become exit codes
// (0 all passed, 1 a case failed, 2 the harness was misused, 130 interrupted, 3 a bug in theinference).
import { CommanderError } from 'commander';
import { listStages, packageRoot } from '../course/stages.ts';
import { HarnessError } from '../errors.ts';
import { visibleText } from '../grade/report/visible-text.ts';
import type { Outcome } from './commands/io.ts';
import { buildProgram, type CliIo } from './program.ts';
import { writeNoRunReports } from './failure-report.ts';

export type { CliIo } from './program.ts';
// For bin/theinference.js, before it exits.
export { stopCompiler } from './stop-compiler.ts';
// For bin/theinference.js, when theinference itself fails outside runCli (while its program processes start).
export { writeNoRunReports } from './failure-report.ts';

const EXIT: Record<Outcome, number> = { pass: 0, fail: 1, misuse: 2, interrupted: 130 };
// A bug in theinference itself: no outcome, an error nobody expected.
const BUG = 3;

// Runs `theinference <argv…>` and resolves to its exit code.
export async function runCli(io: CliIo): Promise<number> {
  let outcome: Outcome | undefined;
  const program = buildProgram(io, (o) => (outcome = o));
  try {
    await program.parseAsync(io.argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError && missingStage(error)) await nameStages(io);
    if (error instanceof CommanderError && error.code === 'commander.excessArguments') caseAsArgument(io);
    const code = exitCodeFor(error, io);
    if (code === EXIT.misuse || code === BUG) {
      const message = error instanceof Error ? error.message : String(error);
      await writeNoRunReports(io.argv, io.cwd, { kind: code === BUG ? 'crash' : 'misuse', message });
    }
    return code;
  }
  if (outcome !== undefined) return outcome === 'interrupted' && stdoutClosed(io) ? 0 : EXIT[outcome];
  io.stderr.write(program.helpInformation());
  return EXIT.misuse;
}

function missingStage(error: CommanderError): boolean {
  return error.code === 'commander.missingMandatoryOptionValue' && error.message.includes('--stage');
}

// After commander's "required option '--stage <slug>' not specified": the stages there are, and how to list them.
async function nameStages(io: CliIo): Promise<void> {
  const stages = await listStages(io.root ?? packageRoot()).catch(() => []);
  const known = stages.map((s) => s.slug).join(', ') || '(none)';
  io.stderr.write(
    `The stages: ${known}, e.g. --stage ${stages[0]?.slug ?? '<slug>'}. \`npx theinference stages\` lists them with their cases.\n`,
  );
}

// After commander's "too many arguments" for `test` or `snapshot`: a word after the flags is most often a case name,
// which those commands take with --case.
function caseAsArgument(io: CliIo): void {
  const command = io.argv.find((a) => !a.startsWith('-'));
  if (command !== 'test' && command !== 'snapshot') return;
  io.stderr.write(
    `A case is named with --case, not as an argument: npx theinference ${command} --stage <slug> --case <name> (repeat --case for several; * and ? match many).\n`,
  );
}

// Whether the run was stopped because whoever read stdout went away (bin/theinference.js says so in the reason).
function stdoutClosed(io: CliIo): boolean {
  return (io.signal?.reason as { stdoutClosed?: unknown } | undefined)?.stdoutClosed === true;
}

function exitCodeFor(error: unknown, io: CliIo): number {
  if (error instanceof HarnessError) {
    // A message may quote a submission (a file's name, a line of its package.json): its controls made visible.
    io.stderr.write(`error: ${visibleText(error.message)}\n`);
    return EXIT.misuse;
  }
  if (error instanceof CommanderError) {
    // commander has printed its message (or the help) already.
    // `--help`, `help [command]` and `--version` asked for what they printed: a success, as in vitest, jest and eslint.
    // The help shown for a missing command is commander's `help({ error: true })`: exit code 1 there, a misuse here.
    const asked = ['commander.helpDisplayed', 'commander.version'].includes(error.code);
    return asked || (error.code === 'commander.help' && error.exitCode === 0) ? 0 : EXIT.misuse;
  }
  if (io.signal?.aborted === true) {
    // Whoever read stdout went away (`… | head`): nothing to say to it, and not an interrupt.
    if (stdoutClosed(io)) return 0;
    io.stderr.write('interrupted: every program process was stopped and its temp directory removed\n');
    return EXIT.interrupted;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`internal error (a bug in theinference, please report it):\n${detail}\n`);
  return BUG;
}

// The course driver: the package's own, run by the grader from its own install in every program process (never a
// file of the graded directory), and by a course's thin program.ts for a case run by hand.
//
//   driver <mode> [--stage <slug>] <case.json> [<case.json> …]    run case files, in the course directory
//   driver <mode> [--stage <slug>] -                              read cases from stdin, one JSON object per
//                                                                 line, until it ends; or, given the grader's
//                                                                 channel, ask it for them (how the grader runs it)
//
// The mode is a name of the table of modes (mode-table.ts); the stage, a stage of that mode (src/course/stages.ts),
// the first of the mode in course order when not named. The stage's row says which module of the course the mode
// loads and which of its exports it calls. What each mode does with a case is its folder's
// (src/modes/<mode>/driver.ts); this file reads the cases, prints
// one line `{"results":[…]}` per case on stdout and, reading stdin, `{"calling":{"call":2,"of":3,"tool":"echo"}}`
// before each call, so that the grader can say which call hangs; then the probe's `{"observed":…}` when the first
// case asked for one (`observe`). The student's modules are loaded from the course directory (the working
// directory, or the one given), by a path worked out at run time: a course holds only the stages it has reached.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { firstStageIn, type Stage, STAGES, studentCode } from '../course/stages.ts';
import { CHANNEL_ENV, openChannel } from './channel.ts';
import type { BeforeCall } from './kit.ts';
import { courseUrl, describeThrow } from './kit.ts';
import type { DriverMode } from './driver-mode.ts';
import { killLeftovers, processesBelow } from './leftovers.ts';
import { aspectExport, aspectUrl, isModeName, MODE_NAMES, type ModeName } from './mode-table.ts';
import { linesIn, sealLanguage, writeOut } from './seal.ts';

// The cases to run, each with where it comes from and how to read its text: the lines of stdin for `-` (read
// whole already, `sent`), else the named files.
async function* caseSource(
  args: string[],
  sent: string[] | undefined,
): AsyncGenerator<{ where: string; read: () => Promise<string> }> {
  if (sent !== undefined) {
    for (const [i, line] of sent.entries()) {
      if (line.trim() !== '') yield { where: `on stdin line ${i + 1}`, read: async () => line };
    }
  } else {
    for (const file of args) yield { where: file, read: () => readFile(file, 'utf8') };
  }
}

// Every line of stdin, read through fd 0 itself (never process.stdin, which the code under test can listen to:
// ./seal.ts) to its end, before the code under test loads: the grader sends a process its whole batch and closes
// the pipe, so nothing of a case is left there for that code to read.
async function sentLines(first: Uint8Array | undefined): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of linesIn(first)) lines.push(line);
  return lines;
}

// Whether the cases come from stdin (`-`), as the grader sends them.
function fromStdin(args: string[]): boolean {
  return args.length === 1 && args[0] === '-';
}

// Two lines per mode of the table: its case files, or its cases on stdin; then how to name a stage, and each
// stage's mode.
const WIDEST = Math.max(...MODE_NAMES.map((name) => name.length));
const USAGE = [
  ...MODE_NAMES.flatMap((name) => [
    `tsx program.ts ${name} <case.json> [<case.json> …]`,
    `tsx program.ts ${`${name} -`.padEnd(WIDEST + 5)}(cases as JSON lines on stdin)`,
  ]).map((line, i) => `${i === 0 ? 'usage: ' : '       '}${line}`),
  `       tsx program.ts <mode> --stage <slug> …   (a stage of the mode; its first in course order when not given)`,
  `each stage's mode: ${STAGES.map((s) => `${s.slug} ${s.mode}`).join(', ')}`,
];

// The stage named by `--stage <slug>` at the head of `args` (the mode's first when not), and the rest; undefined
// when the slug is no stage of `mode`.
function stageArg(mode: ModeName, args: string[]): { stage: Stage; rest: string[] } | undefined {
  const named = args[0] === '--stage';
  const slug = named ? args[1] : undefined;
  const stage = named ? STAGES.find((s) => s.slug === slug && s.mode === mode) : firstStageIn(mode);
  return stage === undefined ? undefined : { stage, rest: named ? args.slice(2) : args };
}

// The driver aspect of mode `name` (src/modes/<name>/driver.ts), or undefined when the table has no such mode.
async function driverOf(name: string | undefined): Promise<DriverMode | undefined> {
  if (!isModeName(name)) return undefined;
  return aspectExport<DriverMode>(await import(aspectUrl(name, 'driver').href), name, 'driver', 'driver');
}

// Runs the driver on `argv` (`<mode> <case.json>…` or `<mode> -`) with the course directory `course` (a directory
// URL; the working directory's when absent); resolves to the exit code. `first`: bytes of stdin a standby has read
// already.
export async function main(argv: string[], course: URL = courseUrl(), first?: Uint8Array): Promise<number> {
  const [command, ...given] = argv;
  const mode = await driverOf(command);
  const staged = mode === undefined ? undefined : stageArg(command as ModeName, given);
  if (mode === undefined || staged === undefined || staged.rest.length === 0) {
    process.stderr.write(`${USAGE.join('\n')}\n`);
    return 2;
  }
  const args = staged.rest;
  // Result lines own fd 1, written by ./seal.ts. Anything the code under test prints (a debugging console.log,
  // say) goes to stderr instead, where the grader shows it beside the verdict rather than choking on it.
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  // Prints one line of JSON; resolves once it has left this process.
  const print = async (value: unknown) => writeOut(`${JSON.stringify(value)}\n`);
  // The grader (reading stdin) is told which call is about to run, before it starts: a call that never gives
  // the event loop back (a `while (true)`) would keep a line not yet sent from ever leaving.
  const beforeCall: BeforeCall | undefined = fromStdin(args)
    ? (call, of, tool) => print({ calling: { call, of, tool } })
    : undefined;
  const sent = fromStdin(args) ? await sentLines(first) : undefined;
  // The grader's channel, when it keeps the evidence of this mode itself (src/modes/channel.ts): read before the
  // code under test loads.
  const channelPath = fromStdin(args) ? process.env[CHANNEL_ENV] : undefined;
  const started = await mode.start(course, studentCode(staged.stage));
  if (channelPath !== undefined && started.serve !== undefined) return started.serve(await openChannel(channelPath));
  let request: unknown;
  // What runs below the driver before a case: its end kills anything else (src/modes/leftovers.ts).
  let running = processesBelow();
  // Each case is checked before it runs; a bad one stops the run (the cases before it have printed).
  for await (const { where, read } of caseSource(args, sent)) {
    let testCase: unknown;
    try {
      testCase = started.parse(await read());
    } catch (error) {
      process.stderr.write(`error: cannot read case ${where}: ${describeThrow(error)}\n`);
      return 2;
    }
    if (fromStdin(args) && started.probe !== undefined) request ??= (testCase as { observe?: unknown }).observe;
    let results: unknown[];
    try {
      results = await started.run(testCase, beforeCall);
    } catch (error) {
      process.stderr.write(`error: ${started.cannot} ${where}: ${describeThrow(error)}\n`);
      return 2;
    } finally {
      // Nothing a case started outlives it.
      running = killLeftovers(running).running;
    }
    await print({ results });
  }
  if (request === undefined || started.probe === undefined) return 0;
  await print({ observed: await started.probe(request) });
  // What the probe started and never finished (a timer its code keeps waiting on) must not keep the process up.
  process.exit(0);
}

// Loads ahead what the mode `name` takes from the package, for a warm standby (src/grade/run/standby.ts).
export async function preload(name: string): Promise<void> {
  await (await driverOf(name))?.preload?.();
}

// Run as a program (`node --import <tsx> <this file> <mode> --stage <slug> -`, as the grader does): the course is the working
// directory.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  sealLanguage();
  process.exitCode = await main(process.argv.slice(2));
}

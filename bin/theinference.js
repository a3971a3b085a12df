#!/usr/bin/env node
// The `theinference` command: runs the compiled CLI when it is up to date, else the sources through tsx
// (bin/find-cli.js), then hands over to runCli. A one-off `test` run's program processes are started before the
// CLI is even loaded (src/cli/early-start.ts). The first Ctrl-C (or SIGTERM, SIGHUP) stops the run cleanly, within
// a second: program processes killed, temp dirs removed.
import { pathToFileURL, fileURLToPath } from 'node:url';
import { findCli } from './find-cli.js';

const cli = findCli(fileURLToPath(new URL('..', import.meta.url)));
if (cli.needsTsx) (await import('tsx/esm/api')).register();
const argv = process.argv.slice(2);
// A bug in theinference outside runCli (a program process that cannot even be spawned while the run starts, say):
// said once on stderr, the report asked for written with one test saying so (src/cli/failure-report.ts), every
// program process stopped, exit 3, as src/cli/main.ts does for a bug inside the command.
let standbys;
let crashed = false;
async function crash(error) {
  if (crashed) return;
  crashed = true;
  process.stderr.write(`internal error (a bug in theinference, please report it):\n${error?.stack ?? String(error)}\n`);
  try {
    const { writeNoRunReports } = await import(pathToFileURL(cli.entry).href);
    await writeNoRunReports(argv, process.cwd(), { kind: 'crash', message: error?.message ?? String(error) });
    await standbys?.close();
  } finally {
    process.exit(3);
  }
}
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);
const { startEarly } = await import(pathToFileURL(cli.early).href);
try {
  standbys = startEarly(argv, process.cwd(), process.env);
} catch (error) {
  await crash(error);
}
const { runCli, stopCompiler } = await import(pathToFileURL(cli.entry).href);
const interrupt = new AbortController();
// A run stops well within this once its signal fires; should anything hold it longer, the grader exits anyway, and
// its exit hook (src/grade/run/live-groups.ts) kills every program process and removes their temp dirs.
const STOP_WITHIN_MS = 800;
// Except `record --live`: its first Ctrl-C stops the agent, and what the agent did is then recorded, which takes
// as long as the replays take. A second signal, there as anywhere, exits at once.
const finishesAfterInterrupt = argv[0] === 'record' && argv.includes('--live');
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    interrupt.abort();
    if (!finishesAfterInterrupt) setTimeout(() => process.exit(130), STOP_WITHIN_MS).unref();
  });
}
// Whoever read our output is gone (a closed pipe, `… | head`): stop the run rather than die mid-cleanup. It is not
// an interrupt: the CLI exits 0 and says nothing (src/cli/main.ts).
process.stdout.on('error', (error) =>
  interrupt.abort(Object.assign(new Error('stdout closed'), { code: error.code ?? 'EPIPE', stdoutClosed: true })),
);
try {
  process.exitCode = await runCli({
    argv,
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: interrupt.signal,
    ...(standbys === undefined ? {} : { standbys }),
  });
} finally {
  // Whatever the run did not take (a misused command, fewer batches than processes) is killed here.
  await standbys?.close();
  // tsx's compiler, when it ran: stopped and reaped, so that nothing the grader started outlives it.
  await stopCompiler();
}

#!/usr/bin/env node
// The `theinference` command: runs the compiled CLI when it is up to date, else the sources through tsx
// (bin/find-cli.js), then hands over to runCli. The first Ctrl-C (or SIGTERM, SIGHUP) stops the run cleanly:
// program processes killed, temp dirs removed.
import { pathToFileURL, fileURLToPath } from 'node:url';
import { findCli } from './find-cli.js';

const cli = findCli(fileURLToPath(new URL('..', import.meta.url)));
if (cli.needsTsx) (await import('tsx/esm/api')).register();
const { runCli } = await import(pathToFileURL(cli.entry).href);
const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => interrupt.abort());
// Whoever read our output is gone (a closed pipe): stop the run rather than die mid-cleanup.
process.stdout.on('error', () => interrupt.abort());
process.exitCode = await runCli({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
});

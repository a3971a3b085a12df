#!/usr/bin/env node
// The `theinference` command: registers tsx so the TypeScript sources run as they are, then hands over to
// src/cli/main.ts. The first Ctrl-C (or SIGTERM, SIGHUP) stops the run cleanly: program processes killed, temp
// dirs removed.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
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

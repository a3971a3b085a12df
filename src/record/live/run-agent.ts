// Runs the agent being recorded: in the workspace, with ANTHROPIC_BASE_URL and OPENAI_BASE_URL pointing at the
// proxy and its stdio attached to ours (the terminal), in our process group so that Ctrl-C reaches it as it would
// without us. When we are interrupted it is given a moment to exit on its own, then stopped with every process it
// started: SIGTERM, then SIGKILL.
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { execa } from 'execa';
import type { EndLine } from './capture-format.ts';
import { stopTree, type StopDelays } from './stop-process-tree.ts';

export type AgentRun = {
  command: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  // The proxy's base URL, e.g. http://127.0.0.1:41234.
  proxyUrl: string;
  // process.stdin/stdout/stderr in the CLI (the agent gets the terminal itself), any stream in tests.
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  signal?: AbortSignal;
  // How long an interrupted agent has to exit by itself, then after SIGTERM, before it is killed (tests shorten them).
  stopDelays?: StopDelays;
};

// How the agent's run ended, as the capture's end line records it.
export type AgentEnd = EndLine['agent'];

// An interrupted agent gets a second to exit on its own (it got the terminal's Ctrl-C too), then three after SIGTERM.
const STOP_DELAYS: StopDelays = { graceMs: 1000, termMs: 3000 };

// The environment the agent sees: ours, with both SDKs' base URLs at the proxy (OpenAI's conventionally ends in /v1).
export function agentEnv(env: NodeJS.ProcessEnv, proxyUrl: string): NodeJS.ProcessEnv {
  return { ...env, ANTHROPIC_BASE_URL: proxyUrl, OPENAI_BASE_URL: `${proxyUrl}/v1` };
}

// Runs the command to its end; never throws for the agent's own failure (a crash, a missing command).
export async function runAgent(run: AgentRun): Promise<AgentEnd> {
  const [file, ...args] = run.command;
  if (file === undefined) return { failed: 'no agent command: give it after `--`' };
  const subprocess = execa(file, args, {
    cwd: run.cwd,
    env: agentEnv(run.env, run.proxyUrl),
    extendEnv: false,
    stdin: attachInput(run.stdin),
    stdout: attachOutput(run.stdout, process.stdout),
    stderr: attachOutput(run.stderr, process.stderr),
    reject: false,
    // The agent's output is the terminal's, not ours to keep.
    buffer: false,
    // No exit hook (signal-exit): it would re-raise the Ctrl-C that the CLI handles once (bin/theinference.js),
    // killing us before the capture is recorded. The agent shares our process group: the terminal's Ctrl-C reaches it.
    cleanup: false,
  });
  let interrupted = false;
  let stopping: Promise<void> | undefined;
  const onAbort = (): void => {
    interrupted = true;
    stopping = stopTree(
      subprocess.pid,
      () => subprocess.exitCode !== null || subprocess.signalCode !== null,
      run.stopDelays ?? STOP_DELAYS,
    );
  };
  if (run.signal?.aborted) onAbort();
  else run.signal?.addEventListener('abort', onAbort, { once: true });
  const result = await subprocess;
  run.signal?.removeEventListener('abort', onAbort);
  await stopping;
  if (result.exitCode === undefined && result.signal === undefined) {
    return {
      failed: `the agent command could not start: ${result.originalMessage ?? result.shortMessage ?? 'unknown error'}`,
      interrupted,
    };
  }
  return {
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    ...(result.signal === undefined ? {} : { signal: result.signal }),
    interrupted,
  };
}

// Our own stdio is inherited (the agent gets the terminal itself, raw mode and all); any other stream is piped.
function attachInput(stream: Readable): 'inherit' | ['pipe', Readable] {
  return stream === process.stdin ? 'inherit' : ['pipe', stream];
}

// An output is piped through a stream of its own, so that the agent's end does not end ours (a report follows).
function attachOutput(stream: Writable, own: Writable): 'inherit' | ['pipe', Writable] {
  if (stream === own) return 'inherit';
  const relay = new PassThrough();
  relay.on('data', (chunk: Buffer) => stream.write(chunk));
  return ['pipe', relay];
}

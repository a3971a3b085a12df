// One live session, start to end: snapshot the workspace, start the proxy teeing into a capture in a temp dir, run
// the agent through it, and, however the agent ends (done, crashed, interrupted, never started), stop the proxy,
// flush every exchange and close the capture. What it returns is the capture to import; `remove()` deletes the
// temp dir, so nothing is left behind.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CAPTURE_FORMAT } from './capture-format.ts';
import { openCapture } from './capture-writer.ts';
import { runAgent, type AgentEnd } from './run-agent.ts';
import type { StopDelays } from './stop-process-tree.ts';
import { snapshotWorkspace, type WorkspaceSnapshot } from './snapshot-workspace.ts';
import { startProxy } from './start-proxy.ts';

export type LiveSessionOptions = {
  workspace: string;
  upstream: string;
  port?: number;
  command: string[];
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  // Aborted on Ctrl-C: the agent is stopped, the capture kept.
  signal?: AbortSignal;
  stopDelays?: StopDelays;
  // Where the proxy's own lines go (its address, an upstream that cannot be reached), prefixed `[theinference]`.
  log: (line: string) => void;
};

export type LiveSession = {
  // The capture file (src/record/live/capture-format.ts), complete.
  capture: string;
  snapshot: WorkspaceSnapshot;
  agent: AgentEnd;
  // How many HTTP exchanges went through the proxy.
  exchanges: number;
  // Deletes the temp dir holding the capture.
  remove: () => Promise<void>;
};

// Records one session. Throws only when the proxy cannot start (a port in use, a bad upstream), after cleaning up.
export async function recordLiveSession(o: LiveSessionOptions): Promise<LiveSession> {
  const workspace = resolve(o.workspace);
  const snapshot = await snapshotWorkspace(workspace);
  const dir = await mkdtemp(join(tmpdir(), 'theinference-live-'));
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  try {
    const spool = join(dir, 'spool');
    await mkdir(spool);
    // Named for when it started: the name a recorded case gets by default (recorded-live-2026-01-31-142501).
    const started = new Date();
    const capture = await openCapture(join(dir, `live-${stamp(started)}.jsonl`), spool);
    let agent: AgentEnd;
    try {
      await capture.writeLine({
        type: 'session',
        format: CAPTURE_FORMAT,
        version: 1,
        startedAt: started.toISOString(),
        upstream: o.upstream,
        workspace,
        command: o.command,
      });
      await capture.writeLine({ type: 'workspace', files: snapshot.files, omitted: snapshot.omitted });
      const proxy = await startProxy({
        upstream: o.upstream,
        ...(o.port === undefined ? {} : { port: o.port }),
        capture,
        onProblem: (problem) => o.log(`proxy: ${problem}`),
      });
      o.log(`proxy ${proxy.url} -> ${o.upstream}; running \`${o.command.join(' ')}\` in ${workspace}`);
      try {
        agent = await runAgent({
          command: o.command,
          cwd: workspace,
          env: o.env,
          proxyUrl: proxy.url,
          stdin: o.stdin,
          stdout: o.stdout,
          stderr: o.stderr,
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.stopDelays ? { stopDelays: o.stopDelays } : {}),
        });
      } finally {
        await proxy.close();
      }
      await capture.writeLine({ type: 'end', endedAt: new Date().toISOString(), agent });
    } finally {
      await capture.close();
    }
    return { capture: capture.file, snapshot, agent, exchanges: capture.exchanges(), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

// 2026-01-31-142501, in UTC.
function stamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', '-').replaceAll(':', '');
}

// How a live session ends when the agent does not finish well: it crashes, it is interrupted (and ignores SIGTERM),
// it never starts. Every time the capture is complete and flushed, and nothing is left behind: no process of the
// agent's tree, no listening socket, no temp dir.
import { connect } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureLine, ExchangeLine } from '../../../src/record/live/capture-format.ts';
import { recordLiveSession } from '../../../src/record/live/record-live-session.ts';
import { isAlive } from '../../../src/record/live/stop-process-tree.ts';
import { startFakeUpstream, sendJson, type FakeUpstream } from './fake-upstream.ts';
import { deferred } from './proxy-fixture.ts';

const AGENT = fileURLToPath(new URL('../../fixtures/live/fault-agent.mjs', import.meta.url));
const TOOL_USE = JSON.stringify({
  id: 'msg_01Fault',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  stop_reason: 'tool_use',
  stop_sequence: null,
  content: [{ type: 'tool_use', id: 'toolu_01FaultBash', name: 'Bash', input: { command: 'echo hi' } }],
  usage: { input_tokens: 10, output_tokens: 10 },
});
const DONE = JSON.stringify({
  id: 'msg_01Done',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  stop_reason: 'end_turn',
  stop_sequence: null,
  content: [{ type: 'text', text: 'Done.' }],
  usage: { input_tokens: 10, output_tokens: 10 },
});

let scratch: string;
let savedTmp: string | undefined;
let upstream: FakeUpstream;
let secondRequest = deferred();
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'theinference-live-faults-'));
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = join(scratch, 'tmp');
  await import('node:fs/promises').then((fs) => fs.mkdir(join(scratch, 'tmp')));
  upstream = await startFakeUpstream((req, res) => {
    const body = JSON.parse(req.body) as { messages: unknown[]; stream?: boolean };
    if (body.messages.length === 1) return sendJson(res, TOOL_USE);
    secondRequest.resolve();
    // A streamed second turn never ends: the agent waits on it until it is stopped.
    if (body.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ping\ndata: {"type":"ping"}\n\n');
      return;
    }
    sendJson(res, DONE);
  });
});
afterEach(() => {
  secondRequest = deferred();
});
afterAll(async () => {
  await upstream.close();
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  await rm(scratch, { recursive: true, force: true });
});

async function record(mode: string, o: { interruptAfterSecondRequest?: boolean; command?: string[] } = {}) {
  const logDir = await mkdtemp(join(scratch, 'log-'));
  const workspace = await mkdtemp(join(scratch, 'ws-'));
  const interrupt = new AbortController();
  if (o.interruptAfterSecondRequest) void secondRequest.promise.then(() => interrupt.abort());
  const log: string[] = [];
  const out = new PassThrough().resume();
  const session = await recordLiveSession({
    workspace,
    upstream: upstream.url,
    command: o.command ?? [process.execPath, AGENT, mode],
    env: { ...process.env, AGENT_LOG_DIR: logDir, ANTHROPIC_API_KEY: 'sk-ant-api03-FAULTKEY0123456789abcdefgh' },
    stdin: new PassThrough().end(),
    stdout: out,
    stderr: out,
    signal: interrupt.signal,
    stopDelays: { graceMs: 200, termMs: 500 },
    log: (l) => log.push(l),
  });
  const lines = (await readFile(session.capture, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as CaptureLine);
  const pids = (await readFile(join(logDir, 'pids'), 'utf8').catch(() => ''))
    .split('\n')
    .filter((p) => p !== '')
    .map(Number);
  const port = Number(/127\.0\.0\.1:(\d+)/.exec(log[0] ?? '')?.[1]);
  const seen = JSON.parse((await readFile(join(logDir, 'env'), 'utf8').catch(() => 'null')) as string) as {
    anthropic: string;
    openai: string;
    cwd: string;
  } | null;
  await session.remove();
  return { session, lines, pids, port, seen, workspace };
}

const exchanges = (lines: CaptureLine[]) => lines.filter((l): l is ExchangeLine => l.type === 'exchange');

async function nothingLeftBehind(pids: number[], port: number): Promise<void> {
  for (const pid of pids) expect(isAlive(pid), `process ${pid} is still running`).toBe(false);
  const refused = await new Promise<boolean>((done) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      done(false);
    });
    socket.on('error', () => done(true));
  });
  expect(refused, `the proxy still listens on ${port}`).toBe(true);
  expect(await readdir(join(scratch, 'tmp'))).toEqual([]);
}

describe('recordLiveSession when the agent goes wrong', () => {
  it('an agent that crashes: its exit code is recorded after every exchange it made', async () => {
    const { session, lines, pids, port, seen, workspace } = await record('crash');
    // What the agent was given: both SDKs' base URLs at the proxy, and the workspace as its directory.
    expect(seen).toEqual({
      anthropic: `http://127.0.0.1:${port}`,
      openai: `http://127.0.0.1:${port}/v1`,
      cwd: workspace,
    });
    expect(session.agent).toEqual({ exitCode: 1, interrupted: false });
    expect(exchanges(lines).map((e) => [e.response?.status, e.aborted])).toEqual([
      [200, undefined],
      [200, undefined],
    ]);
    expect(exchanges(lines)[1]?.request.body).toContain('"tool_use_id":"toolu_01FaultBash"');
    expect(lines.at(-1)).toMatchObject({ type: 'end', agent: { exitCode: 1 } });
    await nothingLeftBehind(pids, port);
  });

  it('an interrupted agent is stopped with its child, and the response it was waiting for is recorded as aborted', async () => {
    const { session, lines, pids, port } = await record('hang', { interruptAfterSecondRequest: true });
    expect(session.agent).toEqual({ signal: 'SIGTERM', interrupted: true });
    expect(pids).toHaveLength(2);
    expect(exchanges(lines).map((e) => e.aborted)).toEqual([
      undefined,
      expect.stringMatching(/^the (proxy stopped|client disconnected)/),
    ]);
    expect(lines.at(-1)).toMatchObject({ type: 'end', agent: { interrupted: true } });
    await nothingLeftBehind(pids, port);
  });

  it('an interrupted agent that ignores SIGTERM is killed', async () => {
    const { session, pids, port } = await record('stubborn', { interruptAfterSecondRequest: true });
    expect(session.agent).toEqual({ signal: 'SIGKILL', interrupted: true });
    await nothingLeftBehind(pids, port);
  });

  it('an agent command that does not exist: a clear reason, a capture with no exchange', async () => {
    const { session, lines, port } = await record('', { command: [join(scratch, 'no-such-agent')] });
    expect(session.agent.failed).toMatch(/^the agent command could not start: .*ENOENT/);
    expect(lines.map((l) => l.type)).toEqual(['session', 'workspace', 'end']);
    await nothingLeftBehind([], port);
  });
});

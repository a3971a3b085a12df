// A whole live session with the real @anthropic-ai/sdk client: the agent runs through the proxy against a scripted
// model, receives every body byte for byte as the upstream sent it, and the capture holds the workspace as it was
// before the agent ran, every exchange in order, and no key.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureLine, ExchangeLine, SessionLine, WorkspaceLine } from '../../../src/record/live/capture-format.ts';
import { importTranscript } from '../../../src/record/import-transcript.ts';
import { recordLiveSession, type LiveSession } from '../../../src/record/live/record-live-session.ts';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';
import {
  agentCommand,
  API_KEY,
  makeSdkRig,
  receivedBodies,
  SCRIPT_TOOLS,
  WORKSPACE_FILES,
  type SdkRig,
} from './sdk-session.ts';

let root: string;
let rig: SdkRig;
let upstream: FakeUpstream;
let session: LiveSession;
let lines: CaptureLine[];
let captureText: string;
const log: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-live-sdk-'));
  rig = await makeSdkRig(root);
  upstream = await startFakeUpstream(rig.model.handle);
  const { command, env } = agentCommand(rig);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.resume();
  stderr.resume();
  session = await recordLiveSession({
    workspace: rig.workspace,
    upstream: upstream.url,
    command,
    env,
    stdin: new PassThrough().end(),
    stdout,
    stderr,
    log: (l) => log.push(l),
  });
  captureText = await readFile(session.capture, 'utf8');
  lines = captureText
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as CaptureLine);
});

afterAll(async () => {
  await session?.remove();
  await upstream?.close();
  await rm(root, { recursive: true, force: true });
});

describe('recordLiveSession with the real Anthropic SDK', () => {
  it('runs the agent to its end through the proxy', () => {
    expect(session.agent).toEqual({ exitCode: 0, interrupted: false });
    expect(log[0]).toMatch(
      /^proxy http:\/\/127\.0\.0\.1:\d+ -> http:\/\/127\.0\.0\.1:\d+; running `.*agent\.ts Change the greeting to goodbye\.` in /,
    );
  });

  it('gives the client every body byte for byte as the upstream sent it, streamed and not', async () => {
    const bodies = await receivedBodies(rig.logDir);
    expect(bodies).toHaveLength(5);
    expect(bodies).toEqual(rig.model.sent);
    expect(bodies.filter((b) => b.startsWith('event: message_start'))).toHaveLength(3);
  });

  it('captures the workspace as it was before the agent ran', async () => {
    const workspace = lines.find((l): l is WorkspaceLine => l.type === 'workspace');
    expect(workspace?.files).toEqual({
      '.gitignore': WORKSPACE_FILES['.gitignore'],
      'greet.ts': WORKSPACE_FILES['greet.ts'],
      'src/util.ts': WORKSPACE_FILES['src/util.ts'],
    });
    expect(await readFile(join(rig.workspace, 'greet.ts'), 'utf8')).toBe('export const greeting = "goodbye";\n');
    const head = lines[0] as SessionLine;
    expect(head).toMatchObject({
      type: 'session',
      format: 'theinference-live-capture',
      version: 1,
      workspace: rig.workspace,
      upstream: upstream.url,
    });
  });

  it('captures every exchange in order, each response as the client received it', async () => {
    const exchanges = lines.filter((l): l is ExchangeLine => l.type === 'exchange');
    expect(
      exchanges.map((e) => [e.id, e.request.method, e.request.path, e.response?.status, e.error, e.aborted]),
    ).toEqual([1, 2, 3, 4, 5].map((id) => [id, 'POST', '/v1/messages', 200, undefined, undefined]));
    expect(exchanges.map((e) => e.response?.body)).toEqual(rig.model.sent);
    const used = exchanges.flatMap((e) =>
      [...(e.response?.body.matchAll(/"type":"tool_use","id":"[^"]+","name":"(\w+)"/g) ?? [])].map((m) => m[1]),
    );
    expect(used).toEqual(SCRIPT_TOOLS);
    expect(lines.at(-1)).toMatchObject({ type: 'end', agent: { exitCode: 0, interrupted: false } });
  });

  it('imports as the live format: every call in order with the result the agent saw, in the workspace', async () => {
    const imported = await importTranscript(session.capture);
    if (!('calls' in imported)) throw new Error(imported.message);
    expect(imported.format).toBe('live');
    expect(imported.cwd).toBe(rig.workspace);
    const seen = JSON.parse(await readFile(join(rig.logDir, 'results.json'), 'utf8')) as Array<{
      name: string;
      input: unknown;
      result: { content: string; is_error?: boolean };
    }>;
    expect(seen.map((s) => s.name)).toEqual(SCRIPT_TOOLS);
    expect(
      imported.calls.map((c) => ({
        name: c.name,
        input: c.input,
        content: c.result?.content,
        isError: c.result?.isError,
      })),
    ).toEqual(
      seen.map((s) => ({
        name: s.name,
        input: s.input,
        content: s.result.content,
        isError: s.result.is_error === true,
      })),
    );
  });

  it('forwards the API key to the upstream and keeps it out of the capture', () => {
    expect(captureText).not.toContain(API_KEY);
    const exchanges = lines.filter((l): l is ExchangeLine => l.type === 'exchange');
    // This SDK sends the key as a bearer token: the upstream gets it, the capture does not.
    expect(exchanges.map((e) => e.request.headers.authorization)).toEqual(Array(5).fill('[redacted]'));
    expect(upstream.requests.map((r) => r.headers.authorization)).toEqual(Array(5).fill(`Bearer ${API_KEY}`));
  });
});

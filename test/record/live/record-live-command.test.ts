// `theinference record --live`, end to end through the real binary: the official Anthropic SDK agent runs through
// the proxy against a scripted model and becomes a case that holds its calls in order, seeded with the workspace as
// it was before the agent ran, and graded green; Ctrl-C mid-session still records what was captured; every flag is
// checked before the agent starts. Nothing is left behind: no temp dir, no process, no listening socket.
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.ts';
import { isAlive } from '../../../src/record/live/stop-process-tree.ts';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import { REPO, useScratch } from '../../grade/course-fixture.ts';
import { gradeRecorded } from '../../support/grade-recorded.ts';
import { sendJson, startFakeUpstream, type FakeUpstream } from './fake-upstream.ts';
import {
  agentCommand,
  API_KEY,
  makeSdkRig,
  receivedBodies,
  SCRIPT_TOOLS,
  WORKSPACE_FILES,
  type SdkRig,
} from './sdk-session.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
const FAULT_AGENT = fileURLToPath(new URL('../../fixtures/live/fault-agent.mjs', import.meta.url));
const STAGE = 'register-tools';
// TMPDIR points into the scratch area, which is checked empty after each test: no temp dir is left behind.
const scratch = useScratch();

const courseDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(scratch.root, 'courses', 'course-'));
  await mkdir(join(dir, 'cases'), { recursive: true });
  await cp(join(REPO, 'cases', 'case.schema.json'), join(dir, 'cases', 'case.schema.json'));
  return dir;
};

const caseFiles = async (dir: string): Promise<Array<{ name: string; data: DispatchCaseData; text: string }>> => {
  const names = (await readdir(join(dir, 'cases', STAGE)).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.json'),
  );
  return Promise.all(
    names.map(async (n) => {
      const text = await readFile(join(dir, 'cases', STAGE, n), 'utf8');
      return { name: n.slice(0, -5), data: JSON.parse(text) as DispatchCaseData, text };
    }),
  );
};

describe('theinference record --live with the real Anthropic SDK', () => {
  let rig: SdkRig;
  let upstream: FakeUpstream;
  let dir: string;
  let result: { exitCode?: number; stdout: string; stderr: string };

  beforeAll(async () => {
    rig = await makeSdkRig(scratch.root);
    upstream = await startFakeUpstream(rig.model.handle);
    dir = await courseDir();
    const { command, env } = agentCommand(rig);
    const args = [
      'record',
      '--live',
      '--stage',
      STAGE,
      '--dir',
      dir,
      '--workspace',
      rig.workspace,
      '--upstream',
      upstream.url,
      '--keep-transcript',
      join(dir, 'session.jsonl'),
      '--',
      ...command,
    ];
    result = await execa('node', [BIN, ...args], {
      cwd: dir,
      env: { ...env, NO_COLOR: '1', TMPDIR: scratch.tmp },
      reject: false,
    });
  });
  afterAll(() => upstream?.close());

  it('runs the agent, then records its session and prints the report', () => {
    expect(result.exitCode, result.stderr).toBe(0);
    const notes = result.stderr.split('\n').filter((l) => l.startsWith('[theinference]'));
    expect(notes[0]).toMatch(
      /^\[theinference\] proxy http:\/\/127\.0\.0\.1:\d+ -> http:\/\/127\.0\.0\.1:\d+; running `.*agent\.ts Change the greeting to goodbye\.` in /,
    );
    expect(notes[1]).toBe('[theinference] the agent exited with code 0; 5 exchanges captured, recording them');
    expect(result.stdout).toMatch(
      /^added +cases\/register-tools\/recorded-session\.json, snapshots\/register-tools\/recorded-session\.json, recordings\/register-tools\/recorded-session\.json$/m,
    );
  });

  it('gives the SDK client every body byte for byte as the upstream sent it', async () => {
    expect(await receivedBodies(rig.logDir)).toEqual(rig.model.sent);
  });

  it('writes a case holding the calls in order, seeded with the workspace as it was before the agent ran', async () => {
    const [recorded, ...others] = await caseFiles(dir);
    expect(others).toEqual([]);
    expect(recorded?.data.calls.map((c) => c.tool)).toEqual(SCRIPT_TOOLS);
    expect(recorded?.data.calls[2]?.input).toEqual({
      path: '<sandbox>/greet.ts',
      old_str: 'hello',
      new_str: 'goodbye',
    });
    expect(recorded?.data.files?.['greet.ts']).toBe(WORKSPACE_FILES['greet.ts']);
    expect(Object.keys(recorded?.data.files ?? {})).not.toContain('notes.md');
    expect(Object.keys(recorded?.data.files ?? {})).not.toContain('secret.env');
    expect(recorded?.text).not.toContain(rig.workspace);
    expect(recorded?.text).not.toContain(API_KEY);
  });

  it('grades the case green against the reference', async () => {
    expect(await gradeRecorded(scratch, dir, STAGE)).toEqual(['recorded-session: pass']);
  });

  it('keeps the captured session, without the key and with its seed: reading it back gives the same case, unchanged', async () => {
    const kept = join(dir, 'session.jsonl');
    expect(await readFile(kept, 'utf8')).not.toContain(API_KEY);
    const again = await execa('node', [BIN, 'record', kept, '--stage', STAGE, '--dir', dir], {
      cwd: dir,
      env: { NO_COLOR: '1', TMPDIR: scratch.tmp },
      reject: false,
    });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^unchanged +cases\/register-tools\/recorded-session\.json/m);
  });
});

describe('theinference record --live, interrupted', () => {
  it('Ctrl-C stops the agent and its child, and what was captured is still recorded', async () => {
    const dir = await courseDir();
    const logDir = await mkdtemp(join(scratch.root, 'log-'));
    const workspace = await mkdtemp(join(scratch.root, 'ws-'));
    type CliOptions = { cwd: string; env: NodeJS.ProcessEnv; reject: false; forceKillAfterDelay: false };
    let cli: ResultPromise<CliOptions> | undefined;
    const upstream = await startFakeUpstream((req, res) => {
      const body = JSON.parse(req.body) as { messages: unknown[] };
      if (body.messages.length === 1) {
        const content = [
          { type: 'tool_use', id: 'toolu_01InterruptedEcho', name: 'Bash', input: { command: 'echo hi' } },
        ];
        return sendJson(
          res,
          JSON.stringify({
            id: 'msg_01I',
            type: 'message',
            role: 'assistant',
            model: 'm',
            content,
            stop_reason: 'tool_use',
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
      }
      // The second turn never ends; the author presses Ctrl-C.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ping\ndata: {"type":"ping"}\n\n');
      cli?.kill('SIGINT');
    });
    try {
      const options: CliOptions = {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1', TMPDIR: scratch.tmp, AGENT_LOG_DIR: logDir },
        reject: false,
        forceKillAfterDelay: false,
      };
      cli = execa(
        'node',
        [
          BIN,
          'record',
          '--live',
          '--stage',
          STAGE,
          '--dir',
          dir,
          '--workspace',
          workspace,
          '--upstream',
          upstream.url,
          '--name',
          'recorded-interrupted',
          '--',
          process.execPath,
          FAULT_AGENT,
          'hang',
        ],
        options,
      );
      const result = await cli;
      expect(result.exitCode, String(result.stderr)).toBe(0);
      expect(result.stderr).toMatch(
        /\[theinference\] the agent was interrupted \(stopped with SIGTERM\); 2 exchanges captured, recording them/,
      );
      const [recorded] = await caseFiles(dir);
      expect(recorded?.data.calls).toEqual([{ tool: 'Bash', input: { command: 'echo hi' } }]);
      const pids = (await readFile(join(logDir, 'pids'), 'utf8'))
        .split('\n')
        .filter((p) => p !== '')
        .map(Number);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(isAlive(pid), `process ${pid} is still running`).toBe(false);
    } finally {
      await upstream.close();
    }
  });
});

describe('theinference record --live, misused', () => {
  let upstream: FakeUpstream;
  beforeAll(async () => {
    upstream = await startFakeUpstream((_req, res) => sendJson(res, '{}'));
  });
  afterAll(() => upstream.close());

  async function live(args: string[], command = ['node', '-e', "require('fs').writeFileSync('agent-ran', '')"]) {
    const dir = await courseDir();
    await writeFile(join(dir, 'taken.jsonl'), 'kept from before\n');
    await mkdir(join(dir, 'cases', STAGE));
    await writeFile(join(dir, 'cases', STAGE, 'recorded-taken.json'), '{}\n');
    const stderr = new PassThrough();
    const errors: string[] = [];
    stderr.on('data', (c: Buffer) => errors.push(c.toString()));
    const out = new PassThrough().resume();
    const argv = [
      'record',
      '--live',
      '--stage',
      STAGE,
      '--dir',
      dir,
      '--upstream',
      upstream.url,
      ...args,
      '--',
      ...command,
    ];
    const code = await runCli({
      argv,
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdin: new PassThrough().end(),
      stdout: out,
      stderr,
    });
    const ran = (await readdir(dir)).includes('agent-ran');
    return { code, stderr: errors.join(''), ran, dir };
  }

  it.each([
    [
      ['--bash', 'sometimes'],
      /^error: option '--bash <mode>' argument 'sometimes' is invalid\. Allowed choices are reproducible, keep, drop\./,
    ],
    [['--max-calls', '0'], "error: --max-calls takes a whole number of at least 1, e.g. --max-calls 25; got '0'"],
    [['--redact', '('], /^error: --redact '\(' is not a valid regular expression/],
    [['--redact', ''], /^error: --redact '' matches empty text/],
    [
      ['--name', 'recorded-taken'],
      'error: --name recorded-taken: cases/register-tools/recorded-taken.json exists; choose another --name, or add --force to replace what the session records',
    ],
    [['--name', 'Not A Slug'], "error: --name must be a kebab-case slug such as recorded-my-session, got 'Not A Slug'"],
    [
      ['--port', '70000'],
      "error: --port takes a port number from 1 to 65535, or leave it out for a free one; got '70000'",
    ],
    [
      ['--upstream', 'ftp://example.com'],
      'error: --upstream ftp://example.com must be an http:// or https:// URL, e.g. https://api.anthropic.com',
    ],
    [
      ['--workspace', 'nowhere'],
      'error: --workspace nowhere: no such directory; give the directory the agent works in',
    ],
    [
      ['--files-from', '.'],
      'error: --files-from is not for --live: the workspace as it is before the agent starts is the seed (--workspace)',
    ],
    [
      ['--keep-transcript', 'taken.jsonl'],
      'error: --keep-transcript taken.jsonl exists: choose another file, or add --force to replace it',
    ],
  ])('%j: exits 2 before the agent starts', async (args, message) => {
    const { code, stderr, ran } = await live(args);
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(
      typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message,
    );
    expect(ran).toBe(false);
  });

  it('without an agent command: exits 2 and says how to give one', async () => {
    const { code, stderr } = await live([], []);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'error: give the agent command after --, e.g. theinference record --live --stage register-tools -- claude',
    );
  });

  it('an agent that never talks to the proxy: exits 2 and says what it must read', async () => {
    const { code, stderr, ran } = await live([]);
    expect(ran).toBe(true);
    expect(code).toBe(2);
    expect(stderr).toContain('[theinference] the agent exited with code 0; 0 exchanges captured\n');
    expect(stderr).toContain(
      'error: the agent sent no request through the proxy, so there is nothing to record: it must read ANTHROPIC_BASE_URL',
    );
  });

  it('an agent that fails before its first request: exits 2 saying so, and keeps no empty capture', async () => {
    const { code, stderr, dir } = await live(['--keep-transcript', 'session.jsonl'], ['node', '-e', 'process.exit(3)']);
    expect(code).toBe(2);
    expect(stderr).toContain('[theinference] the agent exited with code 3; 0 exchanges captured\n');
    expect(stderr).toContain(
      'error: the agent exited with code 3 before it sent any request through the proxy, so there is nothing to record (its own output above says why it stopped)',
    );
    expect(await readdir(dir)).not.toContain('session.jsonl');
  });

  it('an agent command that does not exist: exits 2 and says so', async () => {
    const { code, stderr } = await live([], ['no-such-agent-command-here']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/error: the agent command could not start: .*ENOENT.*; nothing was recorded/);
  });
});

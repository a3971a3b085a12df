// `theinference record --stage agent-loop`, by the real binary: real Claude Code sessions from ../shared/transcripts/
// become loop cases and snapshots (by the reference loop, in the sandbox), recording again changes nothing, and the
// recorded cases committed here are exactly what the command writes.
import { recorderOf } from '../../../src/cli/commands/mode-recorder.ts';
import { STAGES } from '../../../src/course/stages.ts';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeScratch, REPO } from '../../grade/course-fixture.ts';
import { startFakeUpstream } from '../../record/live/fake-upstream.ts';
import { agentCommand, makeSdkRig } from '../../record/live/sdk-session.ts';
import { captureSdkSession } from './record/sdk-capture.ts';
import { needsSharedTranscripts, shared } from '../../record/formats/transcript-files.ts';
import { apiMessage, sseEvent } from '../../support/api-message.ts';
import { gradeRecorded } from '../../support/grade-recorded.ts';
import { useBinary } from '../../support/binary.ts';

// The stages whose mode replays recorded tool calls (its recorder's `replaysTools`), as the refusal lists them.
const TOOL_STAGES = (
  await Promise.all(STAGES.map(async (s) => ((await recorderOf(s.mode))?.replaysTools === true ? [s.slug] : [])))
)
  .flat()
  .join(', ');

const { theinference, env: binaryEnv } = useBinary();
const SESSIONS = shared('claude-code/claude-reliability');
const HELLO = join(SESSIONS, 'hello-world-script', 'transcript.jsonl');
const PORT = join(SESSIONS, 'python-to-rust-port', 'transcript.jsonl');
const E2E_MS = 180_000;

describe('theinference record --stage agent-loop', () => {
  beforeEach(needsSharedTranscripts);
  it(
    'writes each loop that ran to its end as a case with its snapshot, and says what it skipped and why',
    async () => {
      const scratch = await makeScratch();
      try {
        const args = ['record', HELLO, '--stage', 'agent-loop', '--dir', scratch.root];
        const { exitCode, stdout } = await theinference(args);
        expect(exitCode).toBe(0);
        expect(stdout).toContain('  case      recorded-hello-world-script: 3 turns, 2 tool calls, 0 in parallel\n');
        expect(stdout).toContain(
          '  skipped   "Stop hook feedback:": the model called no tool in it: nothing of a loop to replay\n',
        );
        expect(stdout).toContain('  defaults  system, tools, max_tokens: not in the recording');
        expect(stdout).toMatch(
          /^added {9}cases\/agent-loop\/recorded-hello-world-script\.json, snapshots\/agent-loop\/recorded-hello-world-script\.json$/m,
        );
        const name = 'recorded-hello-world-script.json';
        const [written, committed] = await Promise.all([
          readFile(join(scratch.root, 'snapshots', 'agent-loop', name), 'utf8'),
          readFile(join(REPO, 'snapshots', 'agent-loop', name), 'utf8'),
        ]);
        expect(written).toBe(committed);
        const again = await theinference(args);
        expect(again.stdout).toMatch(/^unchanged +cases\/agent-loop\/recorded-hello-world-script\.json/m);
      } finally {
        await scratch.remove();
      }
    },
    E2E_MS,
  );

  it(
    'quotes a skipped prompt redacted and escaped: no home directory, user or terminal escape reaches the log (issue 27)',
    async () => {
      const scratch = await makeScratch();
      try {
        const session = join(REPO, 'test', 'fixtures', 'transcripts', 'claude-code-2.1', 'prompt-only.jsonl');
        const { exitCode, stdout } = await theinference([
          'record',
          session,
          '--stage',
          'agent-loop',
          '--dir',
          scratch.root,
        ]);
        expect(exitCode).toBe(2);
        expect(stdout).toContain(
          '  skipped   "Why does /home/user/work/api/notes.md say ␛[2Juser@devbox is down?": the model called no tool in it',
        );
        expect(stdout).not.toMatch(/alex|\u001b/);
      } finally {
        await scratch.remove();
      }
    },
    E2E_MS,
  );

  it(
    'finds the recorded cases of this repository unchanged: they are exactly what it writes',
    async () => {
      const { exitCode, stdout } = await theinference(['record', HELLO, PORT, '--stage', 'agent-loop', '--dry-run']);
      expect(exitCode).toBe(0);
      const statuses = stdout.match(/^(\S+) +cases\/agent-loop\/(recorded-\S+)\.json/gm);
      expect(statuses).toEqual([
        expect.stringMatching(/^unchanged +cases\/agent-loop\/recorded-hello-world-script\.json/),
        expect.stringMatching(/^unchanged +cases\/agent-loop\/recorded-python-to-rust-port-01\.json/),
        expect.stringMatching(/^unchanged +cases\/agent-loop\/recorded-python-to-rust-port-02\.json/),
      ]);
      expect(stdout).toContain('  case      recorded-python-to-rust-port-01: 34 turns, 35 tool calls, 2 in parallel\n');
    },
    E2E_MS,
  );
});

describe('theinference record <live capture> --stage agent-loop', () => {
  it(
    'takes a loop of a real capture as recorded (no defaults), and the case it writes grades the reference loop green',
    async () => {
      const scratch = await makeScratch();
      try {
        const { capture } = await captureSdkSession(scratch.root);
        const { exitCode, stdout } = await theinference([
          'record',
          capture,
          '--stage',
          'agent-loop',
          '--dir',
          scratch.root,
        ]);
        expect(exitCode).toBe(0);
        expect(stdout).toMatch(/\(live\)\n {2}loops {5}1 seen, 1 kept as cases\n/);
        expect(stdout).toContain('  case      recorded-capture: 5 turns, 6 tool calls, 2 in parallel\n');
        expect(stdout).not.toContain('defaults');
        const written = JSON.parse(
          await readFile(join(scratch.root, 'cases', 'agent-loop', 'recorded-capture.json'), 'utf8'),
        );
        expect(written.source).toMatchObject({ format: 'live', transcript: 'capture.jsonl' });
        expect(written.turns.filter((t: { stream?: string }) => t.stream !== undefined)).toHaveLength(3);
        const schema = join('cases', 'agent-loop.schema.json');
        await copyFile(join(REPO, schema), join(scratch.root, schema));
        expect(await gradeRecorded(scratch, scratch.root, 'agent-loop')).toEqual(['recorded-capture: pass']);
      } finally {
        await scratch.remove();
      }
    },
    E2E_MS,
  );

  it(
    'record --live --stage agent-loop runs the agent and makes its loop a case, as recorded',
    async () => {
      const scratch = await makeScratch();
      const rig = await makeSdkRig(scratch.root);
      const upstream = await startFakeUpstream(rig.model.handle);
      try {
        const { command, env } = agentCommand(rig);
        const live = ['--live', '--workspace', rig.workspace, '--upstream', upstream.url, '--name', 'recorded-sdk'];
        const args = ['record', '--stage', 'agent-loop', '--dir', scratch.root, ...live, '--', ...command];
        const { exitCode, stdout } = await execa('node', [join(REPO, 'bin', 'theinference.js'), ...args], {
          cwd: REPO,
          env: { ...env, ...binaryEnv() },
          reject: false,
        });
        expect(exitCode).toBe(0);
        expect(stdout).toContain('  case      recorded-sdk: 5 turns, 6 tool calls, 2 in parallel\n');
        expect(stdout).toMatch(
          /^added +cases\/agent-loop\/recorded-sdk\.json, snapshots\/agent-loop\/recorded-sdk\.json$/m,
        );
      } finally {
        await upstream.close();
        await scratch.remove();
      }
    },
    E2E_MS,
  );

  it(
    'reads an Anthropic API log of the same session (request bodies and responses) as the same loop case',
    async () => {
      const scratch = await makeScratch();
      try {
        const { capture } = await captureSdkSession(scratch.root);
        // The log an agent's own logging keeps: each request body, then its response (a Message, or the stream's
        // text); every other exchange as one `{ request, response }` line.
        const lines: string[] = [];
        const exchanges = (await readFile(capture, 'utf8'))
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l))
          .filter((e) => e.type === 'exchange' && e.request.path === '/v1/messages');
        exchanges.forEach((e, i) => {
          const body = JSON.parse(e.request.body);
          const text: string = e.response.body;
          const response = text.trimStart().startsWith('{') ? JSON.parse(text) : text;
          if (i % 2 === 0) lines.push(JSON.stringify(body), JSON.stringify(response));
          else lines.push(JSON.stringify({ request: body, response }));
        });
        const log = join(scratch.root, 'api-log.jsonl');
        await writeFile(log, `${lines.join('\n')}\n`);
        const record = (file: string, name: string) =>
          theinference(['record', file, '--stage', 'agent-loop', '--dir', scratch.root, '--name', name]);
        const [fromLog, fromCapture] = [await record(log, 'recorded-log'), await record(capture, 'recorded-capture')];
        expect([fromLog.exitCode, fromCapture.exitCode]).toEqual([0, 0]);
        expect(fromLog.stdout).toMatch(/\(anthropic\)\n {2}loops {5}1 seen, 1 kept as cases\n/);
        expect(fromLog.stdout).toContain('  case      recorded-log: 5 turns, 6 tool calls, 2 in parallel\n');
        const written = async (name: string) =>
          JSON.parse(await readFile(join(scratch.root, 'cases', 'agent-loop', `${name}.json`), 'utf8'));
        const [a, b] = [await written('recorded-log'), await written('recorded-capture')];
        expect(a.source).toMatchObject({ format: 'anthropic', transcript: 'api-log.jsonl' });
        expect([a.request, a.turns, a.outputs]).toEqual([b.request, b.turns, b.outputs]);
        const schema = join('cases', 'agent-loop.schema.json');
        await copyFile(join(REPO, schema), join(scratch.root, schema));
        expect(await gradeRecorded(scratch, scratch.root, 'agent-loop')).toEqual([
          'recorded-capture: pass',
          'recorded-log: pass',
        ]);
      } finally {
        await scratch.remove();
      }
    },
    E2E_MS,
  );

  it(
    'drops a recorded stream that holds a redacted string in pieces, which the redactor sees only as text',
    async () => {
      const scratch = await makeScratch();
      try {
        const base = { model: 'claude-sonnet-4-6', max_tokens: 1024, tools: [{ name: 'Read', input_schema: {} }] };
        const ask = { role: 'user', content: 'Who wrote a.txt?' };
        const use = { type: 'tool_use', id: 'toolu_01Xy', name: 'Read', input: { path: 'a.txt' } };
        const message = apiMessage;
        const event = sseEvent;
        const stream = [
          event('message_start', { message: message([], null) }),
          event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          // The address in two deltas: no one of them holds it whole.
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Mail alice@' } }),
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'acme.io about it.' } }),
          event('content_block_stop', { index: 0 }),
          event('message_delta', {
            delta: { stop_reason: 'end_turn', stop_sequence: null },
            usage: { output_tokens: 2 },
          }),
          event('message_stop', {}),
        ].join('');
        const result = { type: 'tool_result', tool_use_id: 'toolu_01Xy', content: 'by alice@acme.io' };
        const lines = [
          { request: { ...base, messages: [ask] }, response: message([use], 'tool_use') },
          {
            request: {
              ...base,
              messages: [ask, { role: 'assistant', content: [use] }, { role: 'user', content: [result] }],
            },
            response: stream,
          },
        ];
        const log = join(scratch.root, 'mail-log.jsonl');
        await writeFile(log, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
        const { exitCode, stdout } = await theinference([
          'record',
          log,
          '--stage',
          'agent-loop',
          '--dir',
          scratch.root,
        ]);
        expect(exitCode).toBe(0);
        expect(stdout).toContain(
          '  note      recorded-mail-log: the recorded stream of turn 2 held what was redacted in pieces over its events, so it was dropped',
        );
        const text = await readFile(join(scratch.root, 'cases', 'agent-loop', 'recorded-mail-log.json'), 'utf8');
        expect(text).not.toMatch(/alice@|acme\.io/);
        expect(JSON.parse(text).turns.map((t: { stream?: string }) => t.stream)).toEqual([undefined, undefined]);
      } finally {
        await scratch.remove();
      }
    },
    E2E_MS,
  );

  it.each([
    [
      ['--live', '--bash', 'keep'],
      `--bash keep: --stage agent-loop records loop cases, whose tool outputs are used as recorded (no command is replayed, so none is kept or dropped); --bash is for the stages of tool cases (${TOOL_STAGES}). Drop --bash.`,
    ],
    [
      ['--live', '--files-from', '.'],
      `--files-from .: --stage agent-loop records loop cases, whose tool outputs are used as recorded (execute answers with them, so no sandbox is seeded); --files-from is for the stages of tool cases (${TOOL_STAGES}). Drop --files-from.`,
    ],
    [
      [HELLO, '--bash', 'drop'],
      `--bash drop: --stage agent-loop records loop cases, whose tool outputs are used as recorded (no command is replayed, so none is kept or dropped); --bash is for the stages of tool cases (${TOOL_STAGES}). Drop --bash.`,
    ],
    [
      [HELLO, '--files-from', '.'],
      `--files-from .: --stage agent-loop records loop cases, whose tool outputs are used as recorded (execute answers with them, so no sandbox is seeded); --files-from is for the stages of tool cases (${TOOL_STAGES}). Drop --files-from.`,
    ],
  ])(
    '%j: refuses a flag of tool cases with exit 2, before any agent starts or anything is written',
    async (args, message) => {
      const scratch = await makeScratch();
      try {
        // With --live, the agent would leave agent-ran behind it.
        const agent = args[0] === '--live' ? ['--', 'sh', '-c', 'touch agent-ran'] : [];
        const { exitCode, stdout, stderr } = await theinference(
          ['record', ...args, '--stage', 'agent-loop', '--dir', scratch.root, ...agent],
          scratch.root,
        );
        expect([exitCode, stderr, stdout]).toEqual([2, `error: ${message}`, '']);
        expect((await readdir(scratch.root)).sort()).toEqual(['courses', 'tmp']);
      } finally {
        await scratch.remove();
      }
    },
  );
});

// The live capture read back (src/record/formats/live.ts, through importText): calls come from the responses the
// agent received, results from the requests that followed, and what the agent never received whole (a max_tokens
// cut, an aborted or failed exchange, a call from before the recording) is never a call to replay.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../src/record/import-transcript.ts';
import { recordTranscripts } from '../../../src/record/record-transcripts.ts';
import { SANDBOX } from '../../support/isolation.ts';
import { REPO } from '../../support/reference-course.ts';
import type { ExchangeLine, SessionLine } from '../../../src/record/live/capture-format.ts';
import type { ImportedTranscript } from '../../../src/record/types.ts';
import { messagesFixture } from './fake-upstream.ts';

const WORKSPACE = '/work/project';
const session: SessionLine = {
  type: 'session',
  format: 'theinference-live-capture',
  version: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  upstream: 'https://api.anthropic.com',
  workspace: WORKSPACE,
};

let id = 0;
function exchange(
  requestMessages: unknown[],
  response: string,
  extra: Partial<ExchangeLine> = {},
  status = 200,
): ExchangeLine {
  id += 1;
  const json = response.startsWith('{');
  return {
    type: 'exchange',
    id,
    startedAt: `2026-01-01T00:00:0${id}.000Z`,
    endedAt: `2026-01-01T00:00:0${id}.500Z`,
    request: {
      method: 'POST',
      path: '/v1/messages',
      headers: { 'x-api-key': '[redacted]' },
      body: JSON.stringify({ model: 'm', messages: requestMessages }),
      bytes: 1,
    },
    response: {
      status,
      headers: { 'content-type': json ? 'application/json' : 'text/event-stream' },
      body: response,
      bytes: response.length,
    },
    ...extra,
  };
}

function load(lines: object[]): ImportedTranscript {
  const imported = importText(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, 'capture.jsonl');
  if (!('calls' in imported)) throw new Error(imported.message);
  return imported;
}

const user = { role: 'user', content: 'go' };
const assistantOf = (response: string) => ({
  role: 'assistant',
  content: (JSON.parse(response) as { content: unknown[] }).content,
});
const results = (...pairs: Array<[string, string]>) => ({
  role: 'user',
  content: pairs.map(([toolUseId, content]) => ({ type: 'tool_result', tool_use_id: toolUseId, content })),
});

describe('the live importer', () => {
  it('reads parallel calls from a stream and their results from the next request, in the workspace', () => {
    const streamed = messagesFixture('parallel-tool-calls.sse');
    const glob = 'toolu_01GlobAAAAAAAAAAAAAAAAAA';
    const read = 'toolu_01ReadBBBBBBBBBBBBBBBBBB';
    const next = [
      user,
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: glob, name: 'Glob', input: { pattern: '**/*.ts' } },
          { type: 'tool_use', id: read, name: 'Read', input: { path: 'greet.ts' } },
        ],
      },
      results([read, '1: hi'], [glob, 'greet.ts']),
    ];
    const imported = load([session, exchange([user], streamed), exchange(next, messagesFixture('tool-use.json'))]);
    expect(imported.format).toBe('live');
    expect(imported.cwd).toBe(WORKSPACE);
    expect(imported.calls.map((c) => [c.name, c.input, c.result?.content])).toEqual([
      ['Glob', { pattern: '**/*.ts' }, 'greet.ts'],
      ['Read', { path: 'greet.ts' }, '1: hi'],
      ['Edit', { path: 'greet.ts', old_str: 'hello', new_str: 'goodbye' }, undefined],
    ]);
  });

  it('hands on the workspace as it was before the agent started, for the seeds', () => {
    const files = { 'greet.ts': 'export const greeting = "hello";\n', 'img.png': { base64: 'iVBORw==' } };
    const imported = load([
      session,
      { type: 'workspace', files, omitted: [] },
      exchange([user], messagesFixture('tool-use.json')),
    ]);
    expect(imported.workspace).toEqual(files);
    expect(load([session, exchange([user], messagesFixture('tool-use.json'))]).workspace).toBeUndefined();
  });

  it('reads an OpenAI Chat Completions exchange streamed through the proxy, with the result the next request carries', () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const stream = [
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'Read', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ' "a.txt"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    const openai = (messages: unknown[], response: string): ExchangeLine => ({
      ...exchange(messages, response),
      request: {
        method: 'POST',
        path: '/v1/chat/completions',
        headers: {},
        body: JSON.stringify({ model: 'gpt-4o', stream: true, messages }),
        bytes: 1,
      },
    });
    const asked = [{ role: 'user', content: 'read a.txt' }];
    const answered = [
      ...asked,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'Read', arguments: '{"path": "a.txt"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_abc', content: '1: A' },
    ];
    const imported = load([session, openai(asked, stream), openai(answered, 'data: [DONE]\n\n')]);
    // Line 2 is the streamed exchange: the call is read from the stream, before the next request repeats it.
    expect(imported.calls.map((c) => [c.id, c.name, c.input, c.result?.content, c.line])).toEqual([
      ['call_abc', 'Read', { path: 'a.txt' }, '1: A', 2],
    ]);
  });

  it('keeps a call cut by max_tokens malformed, even when the next request carries what the SDK made of it', () => {
    const cut = messagesFixture('max-tokens-cut.sse');
    const writeId = 'toolu_01WriteCCCCCCCCCCCCCCCCC';
    // The SDK's partial-JSON parser hands the agent a truncated input, and the agent sends it back.
    const next = [
      user,
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: writeId,
            name: 'Write',
            input: { path: 'notes.md', file_text: '# Notes\n\nThe greeting is' },
          },
        ],
      },
      results([writeId, 'File created successfully at: notes.md']),
    ];
    const imported = load([session, exchange([user], cut), exchange(next, messagesFixture('tool-use.json'))]);
    const write = imported.calls.find((c) => c.id === writeId);
    expect(write?.input).toBeUndefined();
    expect(write?.malformed).toMatch(/./);
  });

  it('and the recorder drops that call, saying why', async () => {
    const writeId = 'toolu_01WriteCCCCCCCCCCCCCCCCC';
    const editId = 'toolu_01EditDDDDDDDDDDDDDDDDDD';
    const next = [
      user,
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: writeId, name: 'Write', input: { path: 'notes.md', file_text: '# Notes' } }],
      },
      results([writeId, 'File created successfully at: notes.md']),
    ];
    const last = [
      ...next,
      assistantOf(messagesFixture('tool-use.json')),
      results([editId, 'The file greet.ts has been edited.']),
    ];
    const transcript = load([
      session,
      exchange([user], messagesFixture('max-tokens-cut.sse')),
      exchange(next, messagesFixture('tool-use.json')),
      exchange(last, '{"type":"message","role":"assistant","content":[]}'),
    ]);
    const outcome = await recordTranscripts([{ ...transcript, cwd: WORKSPACE }], {
      stage: 'register-tools',
      maxCalls: 25,
      bash: 'reproducible',
      redact: [],
      root: REPO,
      sandbox: SANDBOX,
      dir: REPO,
      dryRun: true,
      force: false,
      env: process.env,
    });
    expect(outcome.reports[0]?.seen).toBe(2);
    expect(outcome.reports[0]?.dropped['malformed input']).toBe(1);
  });

  it('takes no call from a response the agent did not receive whole: aborted, broken off, or an error status', () => {
    const streamed = messagesFixture('parallel-tool-calls.sse');
    const imported = load([
      session,
      exchange([user], streamed, { aborted: 'the client disconnected before the response ended' }),
      exchange([user], streamed.slice(0, streamed.length - 40), {
        error: "the upstream's response broke off: ECONNRESET",
      }),
      exchange([user], messagesFixture('overloaded.json'), {}, 529),
      exchange([user], messagesFixture('tool-use.json')),
    ]);
    expect(imported.calls.map((c) => c.name)).toEqual(['Edit']);
    expect(imported.skipped.map((s) => s.reason)).toEqual([
      expect.stringContaining('the client disconnected before the response ended'),
      expect.stringContaining('broke off'),
      expect.stringContaining('status 529'),
    ]);
  });

  it('takes no call from a request history that began before the recording (a resumed session)', () => {
    const old = {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_01BeforeTheRecording', name: 'Bash', input: { command: 'rm -rf build' } },
      ],
    };
    const imported = load([
      session,
      exchange([user, old, results(['toolu_01BeforeTheRecording', ''])], messagesFixture('tool-use.json')),
    ]);
    expect(imported.calls.map((c) => c.name)).toEqual(['Edit']);
    expect(imported.skipped.map((s) => s.reason)).toEqual([expect.stringContaining('toolu_01BeforeTheRecording')]);
  });
});

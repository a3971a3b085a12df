// OpenAI Chat Completions and Responses values: request bodies, bare arrays, responses and JSONL of them.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { importText, importTranscript } from '../../../src/record/import-transcript.ts';
import { fixture, imported } from './transcript-files.ts';

const chatMessages = [
  { role: 'system', content: 'You are a coding agent.' },
  { role: 'user', content: 'List the files, then read a.txt.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
      { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_2', content: 'error: bad arguments' },
  { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'a.txt\nb.txt' }] },
];

describe('OpenAI Chat Completions', () => {
  it('parses arguments strings, pairs role "tool" results by tool_call_id, keeps unparsable arguments as malformed', () => {
    const t = imported(importText(JSON.stringify({ model: 'gpt-5', messages: chatMessages }, null, 2), 'chat.json'));
    expect(t.format).toBe('openai-chat');
    expect(t.calls.map((c) => [c.id, c.name, c.input, c.result?.content])).toEqual([
      ['call_1', 'bash', { command: 'ls' }, 'a.txt\nb.txt'],
      ['call_2', 'read_file', undefined, 'error: bad arguments'],
    ]);
    expect(t.calls[1]?.malformed).toMatch(/^input is not valid JSON \(.*\); 15 characters: \{"path":"a.txt"$/);
  });

  it('reads a response (choices[].message) and JSONL of messages', () => {
    const response = {
      id: 'chatcmpl-9',
      object: 'chat.completion',
      choices: [{ index: 0, message: chatMessages[2], finish_reason: 'tool_calls' }],
    };
    const fromResponse = imported(importText(JSON.stringify(response), 'response.json'));
    expect(fromResponse.calls.map((c) => [c.id, c.messageId])).toEqual([
      ['call_1', 'chatcmpl-9'],
      ['call_2', 'chatcmpl-9'],
    ]);
    const jsonl = imported(importText(chatMessages.map((m) => JSON.stringify(m)).join('\n'), 'chat.jsonl'));
    expect(jsonl.calls.map((c) => [c.id, c.line, c.result?.line])).toEqual([
      ['call_1', 3, 5],
      ['call_2', 3, 4],
    ]);
  });
});

const items = [
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Create hello.txt' }] },
  {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_w',
    name: 'write_file',
    arguments: '{"path":"hello.txt","content":"hi\\n"}',
  },
  { type: 'function_call_output', call_id: 'call_w', output: 'Wrote 3 bytes' },
];

describe('OpenAI Responses', () => {
  it('reads function_call items by call_id from a request body, and their outputs', () => {
    const t = imported(importText(JSON.stringify({ model: 'gpt-5', input: items }), 'request.json'));
    expect(t.format).toBe('openai-responses');
    expect(t.calls).toEqual([
      expect.objectContaining({
        id: 'call_w',
        name: 'write_file',
        input: { path: 'hello.txt', content: 'hi\n' },
        result: { content: 'Wrote 3 bytes', isError: false, line: 1 },
      }),
    ]);
  });

  it('reads JSONL of items and a response object', () => {
    const jsonl = imported(importText(items.map((i) => JSON.stringify(i)).join('\n'), 'items.jsonl'));
    expect(jsonl.calls.map((c) => [c.line, c.result?.line])).toEqual([[2, 3]]);
    const response = imported(
      importText(JSON.stringify({ id: 'resp_1', object: 'response', output: [items[1]] }), 'response.json'),
    );
    expect(response.calls.map((c) => [c.id, c.messageId])).toEqual([['call_w', 'resp_1']]);
  });

  it('a real response with a built-in shell_call of several commands imports one bash call per command', async () => {
    const t = imported(await importTranscript(fixture('ai-sdk/openai-shell-tool.1.json')));
    expect(t.calls.map((c) => [c.id, c.name, c.input?.command])).toEqual([
      ['call_udkLUvR8lWvG8cDO2B6GNpvZ#1', 'bash', 'cd ~ && pwd'],
      ['call_udkLUvR8lWvG8cDO2B6GNpvZ#2', 'bash', 'cd ~/Desktop && pwd'],
      [
        'call_udkLUvR8lWvG8cDO2B6GNpvZ#3',
        'bash',
        "cd ~/Desktop && echo 'THIS WORKS!' > dec1.txt && ls -l dec1.txt && cat dec1.txt",
      ],
    ]);
  });

  it('local_shell_call and a one-command shell_call are bash calls, paired with their outputs', () => {
    const items = [
      {
        type: 'local_shell_call',
        call_id: 'c1',
        action: { type: 'exec', command: ['ls', '-a'], working_directory: '/w' },
      },
      { type: 'local_shell_call_output', id: 'c1', output: '{"output":"a\\n","metadata":{"exit_code":0}}' },
      { type: 'shell_call', call_id: 'c2', action: { commands: ['cat x'], timeout_ms: null } },
      {
        type: 'shell_call_output',
        call_id: 'c2',
        output: [{ stdout: '', stderr: 'cat: x: No such file\n', outcome: { type: 'exit', exit_code: 1 } }],
      },
    ];
    const t = imported(importText(JSON.stringify(items), 'items.json'));
    expect(t.calls.map((c) => [c.name, c.input, c.result])).toEqual([
      [
        'local_shell',
        { type: 'exec', command: ['ls', '-a'], working_directory: '/w' },
        { content: 'a\n', isError: false, details: { exit_code: 0 }, line: 1 },
      ],
      [
        'bash',
        { command: 'cat x' },
        { content: 'cat: x: No such file\n', isError: true, details: { exit_code: 1 }, line: 1 },
      ],
    ]);
  });
});

describe('OpenAI streams', () => {
  it('a real Responses stream: each function_call from its events, in the response it came in', async () => {
    const t = imported(await importTranscript(fixture('ai-sdk/openai-reasoning-encrypted-content.1.chunks.txt')));
    expect(t.format).toBe('openai-responses');
    expect(t.calls.map((c) => [c.name, c.input, c.messageId?.slice(0, 12)])).toEqual([
      ['calculator', { a: 12, b: 7, op: 'add' }, 'resp_01830d6'],
      ['calculator', { a: 19, b: 3, op: 'multiply' }, 'resp_01830d6'],
      ['calculator', { a: 57, b: 10, op: 'multiply' }, 'resp_01830d6'],
    ]);
    expect(new Set(t.calls.map((c) => c.messageId)).size).toBe(3);
  });

  it('a Responses stream cut mid-arguments keeps the cut call as malformed', async () => {
    const lines = (await readFile(fixture('ai-sdk/openai-reasoning-encrypted-content.1.chunks.txt'), 'utf8')).split(
      '\n',
    );
    const done = lines
      .map((l, i) => (l.includes('"response.function_call_arguments.done"') ? i : -1))
      .filter((i) => i >= 0);
    const cut = lines.slice(0, (done[1] ?? 0) - 5).join('\n');
    const t = imported(importText(cut, 'cut.chunks.txt'));
    expect(t.calls.map((c) => c.input ?? c.malformed)).toEqual([
      { a: 12, b: 7, op: 'add' },
      expect.stringMatching(/^streamed input is not valid JSON .*\(the stream ended before the call was done\)$/),
    ]);
  });

  it('Chat Completions chunks over raw SSE: parallel calls joined by index, a length cut malformed', () => {
    const chunk = (id: string, delta: unknown, finish: string | null = null): string =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const call = (index: number, fields: object): object => ({ tool_calls: [{ index, ...fields }] });
    const stream = [
      chunk('chatcmpl-1', { role: 'assistant', content: null }),
      chunk('chatcmpl-1', call(0, { id: 'call_a', type: 'function', function: { name: 'bash', arguments: '' } })),
      chunk(
        'chatcmpl-1',
        call(1, { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"pa' } }),
      ),
      chunk('chatcmpl-1', call(0, { function: { arguments: '{"command":' } })),
      chunk('chatcmpl-1', call(1, { function: { arguments: 'th":"a.txt"}' } })),
      chunk('chatcmpl-1', call(0, { function: { arguments: '"ls"}' } })),
      chunk('chatcmpl-1', {}, 'tool_calls'),
      chunk(
        'chatcmpl-2',
        call(0, {
          id: 'call_c',
          type: 'function',
          function: { name: 'write_file', arguments: '{"path":"b.txt","content":"aaa' },
        }),
      ),
      chunk('chatcmpl-2', {}, 'length'),
      'data: [DONE]\n\n',
    ].join('');
    const t = imported(importText(stream, 'chat.sse'));
    expect(t.format).toBe('openai-chat');
    expect(t.calls.map((c) => [c.id, c.input ?? c.malformed, c.line])).toEqual([
      ['call_a', { command: 'ls' }, 3],
      ['call_b', { path: 'a.txt' }, 5],
      [
        'call_c',
        expect.stringMatching(/^streamed input is not valid JSON .*\(the response stopped at the length limit\)$/),
        15,
      ],
    ]);
  });

  it('a real Chat Completions stream with no tool calls is read as such and says so', async () => {
    expect(await importTranscript(fixture('ai-sdk/azure-model-router.1.chunks.txt'))).toEqual({
      file: fixture('ai-sdk/azure-model-router.1.chunks.txt'),
      message: 'no tool calls (read as openai-chat): the agent made none, so there is nothing to record',
    });
  });
});

// Anthropic Messages API values: a request body, a bare messages array, a response, JSONL of requests.
import { describe, expect, it } from 'vitest';
import { messagesToCalls } from '../../../src/record/formats/anthropic.ts';
import { importText, importTranscript } from '../../../src/record/import-transcript.ts';
import { fixture, imported } from './transcript-files.ts';

const history = [
  { role: 'user', content: 'Show me a.txt and b.txt.' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading both.' },
      {
        type: 'tool_use',
        id: 'toolu_a',
        name: 'str_replace_based_edit_tool',
        input: { command: 'view', path: '/w/a.txt' },
      },
      {
        type: 'tool_use',
        id: 'toolu_b',
        name: 'str_replace_based_edit_tool',
        input: { command: 'view', path: '/w/b.txt' },
        caller: { type: 'direct' },
      },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: '1: B' }] },
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'File not found: /w/a.txt', is_error: true },
    ],
  },
];

describe('messagesToCalls', () => {
  it('pairs results by tool_use_id, whatever their order, and keeps is_error', () => {
    const { calls, skipped } = messagesToCalls(history);
    expect(skipped).toEqual([]);
    expect(calls.map((c) => [c.id, c.input?.path, c.result?.content, c.result?.isError])).toEqual([
      ['toolu_a', '/w/a.txt', 'File not found: /w/a.txt', true],
      ['toolu_b', '/w/b.txt', '1: B', false],
    ]);
  });

  it('reports a result whose call is not in the messages as a skip', () => {
    const { calls, skipped } = messagesToCalls([history[2]], { file: 'capture.jsonl', line: 7 });
    expect(calls).toEqual([]);
    expect(skipped.map((s) => [s.file, s.line, s.reason])).toEqual([
      ['capture.jsonl', 7, 'result for tool call toolu_b, which the transcript never shows'],
      ['capture.jsonl', 7, 'result for tool call toolu_a, which the transcript never shows'],
    ]);
  });

  it('keeps a tool_use whose input is not an object as a malformed call', () => {
    const { calls } = messagesToCalls([
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'bash', input: 'ls' }] },
    ]);
    expect(calls[0]).toMatchObject({ id: 't', malformed: 'input is not an object: "ls"' });
  });
});

describe('Anthropic transcripts', () => {
  it('reads a pretty-printed request body, a bare array and a response the same way', () => {
    const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: history }, null, 2);
    const fromBody = imported(importText(body, 'request.json'));
    const fromArray = imported(importText(JSON.stringify(history), 'messages.json'));
    expect(fromBody.format).toBe('anthropic');
    expect(fromArray.calls).toEqual(
      fromBody.calls.map((c) => ({ ...c, file: 'messages.json', line: 1, result: { ...c.result, line: 1 } })),
    );
  });

  it('reads a response Message (a real one, from @ai-sdk/anthropic)', async () => {
    const t = imported(await importTranscript(fixture('ai-sdk/anthropic-tool-no-args.json')));
    expect(t.calls).toEqual([
      expect.objectContaining({
        id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
        name: 'updateIssueList',
        input: {},
        messageId: 'msg_01GCBaV8gyWAYgMVggRqZbuQ',
      }),
    ]);
  });

  it('reads JSONL of successive request bodies, each call once, at the line it first appears', () => {
    const first = { messages: history.slice(0, 2) };
    const second = {
      messages: [
        ...history,
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_c', name: 'bash', input: { command: 'ls' } }] },
      ],
    };
    const t = imported(importText(`${JSON.stringify(first)}\n${JSON.stringify(second)}\n`, 'requests.jsonl'));
    expect(t.calls.map((c) => [c.id, c.line, c.result?.line])).toEqual([
      ['toolu_a', 1, 2],
      ['toolu_b', 1, 2],
      ['toolu_c', 2, undefined],
    ]);
  });

  it('a document that does not parse is a problem naming the line where the parser stopped', () => {
    const body = JSON.stringify({ messages: history }, null, 2).replace('"id": "toolu_b",', '"id": "toolu_b"');
    const lines = body.split('\n');
    const lostComma = lines.findIndex((l) => l.includes('"toolu_b"')) + 1;
    expect(lines[lostComma]).toContain('"name"');
    expect(importText(body, 'request.json')).toEqual({
      file: 'request.json',
      line: lostComma + 1,
      message: expect.stringMatching(/^not valid JSON/),
    });
  });
});

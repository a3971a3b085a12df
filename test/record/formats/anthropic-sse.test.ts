// Streamed Messages API responses: real captures from @ai-sdk/anthropic's fixtures, and a hand-made max_tokens cut.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseSseText } from '../../../src/record/formats/anthropic-sse.ts';
import { messagesToCalls } from '../../../src/record/formats/anthropic.ts';
import { importText, importTranscript } from '../../../src/record/import-transcript.ts';
import { fixture, imported } from './transcript-files.ts';

const read = (path: string): Promise<string> => readFile(fixture(path), 'utf8');

describe('parseSseText on real captures (one JSON event per line)', () => {
  it('joins input_json_delta pieces per block and parses them at content_block_stop', async () => {
    const { messages, skipped } = parseSseText(await read('ai-sdk/anthropic-json-tool.1.chunks.txt'));
    expect(skipped).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ id: 'msg_01K2JbSUMYhez5RHoK9ZCj9U', stop_reason: 'tool_use' });
    expect(messages[0]?.content).toEqual([
      expect.objectContaining({
        type: 'tool_use',
        id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        name: 'json',
        input: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
      }),
    ]);
  });

  it('reads a tool_use whose only delta is empty as an empty input', async () => {
    const { calls } = messagesToCalls(parseSseText(await read('ai-sdk/anthropic-tool-no-args.chunks.txt')).messages);
    expect(calls).toEqual([
      expect.objectContaining({ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {} }),
    ]);
  });

  it('reads back-to-back messages, including tool_use blocks that message_start already holds', async () => {
    const text = await read('ai-sdk/anthropic-programmatic-tool-calling.1.chunks.txt');
    const { messages } = parseSseText(text);
    expect(messages).toHaveLength(15);
    const { calls, skipped } = messagesToCalls(messages);
    expect(calls.map((c) => c.input?.player)).toEqual(
      Array.from({ length: 14 }, (_, i) => (i % 2 === 0 ? 'player1' : 'player2')),
    );
    expect(calls.every((c) => c.name === 'rollDie')).toBe(true);
    expect(skipped).toEqual([
      {
        file: 'messages',
        line: 1,
        reason: 'server_tool_use code_execution: a tool that runs at Anthropic, not in the agent',
      },
    ]);
  });

  it('as a transcript file: each call at the line of its block, server tools skipped and counted', async () => {
    const t = imported(await importTranscript(fixture('ai-sdk/anthropic-tool-search-regex.1.chunks.txt')));
    expect(t.format).toBe('anthropic');
    expect(t.calls).toEqual([
      expect.objectContaining({
        name: 'get_temp_data',
        input: { location: 'San Francisco, CA' },
        line: 26,
        messageId: 'msg_01A4vjL51mNRof8JMvA9CFph',
      }),
    ]);
    expect(t.skipped).toEqual([
      {
        file: fixture('ai-sdk/anthropic-tool-search-regex.1.chunks.txt'),
        line: 2,
        reason: 'server_tool_use tool_search_tool_regex: a tool that runs at Anthropic, not in the agent',
      },
    ]);
  });
});

describe('raw SSE framing and broken streams', () => {
  it('a block cut by max_tokens becomes a malformed call, never dropped; the complete one beside it is kept', async () => {
    const t = imported(await importTranscript(fixture('anthropic-constructed/max-tokens-cut.sse')));
    expect(t.calls).toHaveLength(2);
    expect(t.calls[0]).toMatchObject({
      name: 'str_replace_based_edit_tool',
      input: { command: 'view', path: '/repo/config.json' },
    });
    expect(t.calls[1]).not.toHaveProperty('input');
    expect(t.calls[1]?.malformed).toMatch(
      /^streamed input is not valid JSON \(.*\); 129 characters: \{"command": "create".* \(the response stopped at max_tokens\)$/,
    );
  });

  it('a stream that breaks off mid-block reports the block as unclosed', async () => {
    const full = await read('anthropic-constructed/max-tokens-cut.sse');
    const cut = full.slice(0, full.indexOf('event: content_block_stop\ndata: {"type":"content_block_stop","index":2}'));
    const { messages } = parseSseText(cut);
    const { calls } = messagesToCalls(messages);
    expect(calls.map((c) => c.malformed?.split(';')[0])).toEqual([
      undefined,
      'the stream ended before this block closed',
    ]);
  });

  it('an error event is counted and closes the open block as malformed', () => {
    const text = [
      'data: {"type":"message_start","message":{"id":"msg_1","content":[]}}',
      'data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"bash","input":{}}}',
      'data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"comm"}}',
      'event: error',
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      '',
    ].join('\n\n');
    const { messages, skipped } = parseSseText(text);
    expect(skipped).toEqual([
      { file: 'stream', line: 9, reason: 'the stream reported an error (overloaded_error: Overloaded)' },
    ]);
    expect(messagesToCalls(messages).calls[0]?.malformed).toMatch(
      /^the stream failed \(overloaded_error: Overloaded\) before this block closed; 6 characters/,
    );
  });

  it('a delta for a block that never started, and data that is not JSON, are skipped with their lines', () => {
    const result = importText(
      [
        'event: content_block_delta',
        'data: {"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{}"}}',
        '',
        'data: {not json',
        '',
        ': a comment',
        'data: [DONE]',
        '',
      ].join('\n'),
      'stream.sse',
    );
    expect(result).toEqual({
      file: 'stream.sse',
      line: 2,
      message: expect.stringMatching(
        /^no tool calls \(read as anthropic\); 2 lines skipped, the first at line 2: a delta for block 3, which never started$/,
      ),
    });
  });
});

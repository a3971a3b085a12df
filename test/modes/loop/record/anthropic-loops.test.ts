// An Anthropic API log read as loops: request bodies each followed by its response, or `{ request, response }`
// pairs, make the loop a live capture would (a streamed response keeps its bytes); a request without its response
// is left out; a log that is no log is refused with why.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAnthropicLoops } from '../../../../src/modes/loop/record/anthropic-loops.ts';
import { readLoops } from '../../../../src/modes/loop/record/read-loops.ts';
import { useScratch } from '../../../grade/course-fixture.ts';
import { apiMessage } from '../../../support/api-message.ts';

const scratch = useScratch();
const base = {
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  tools: [{ name: 'Read', input_schema: { type: 'object' } }],
};
const ask = { role: 'user', content: 'What does a.txt say?' };
const use = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.txt' } };
const message = apiMessage;
const first = { ...base, messages: [ask] };
const second = {
  ...base,
  messages: [
    ask,
    { role: 'assistant', content: [use] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Hello' }] },
  ],
};
// The second response as the stream the agent received.
const streamed = [
  ['message_start', { message: { ...message([], 'end_turn'), stop_reason: null } }],
  ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
  ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'It says ' } }],
  ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hello.' } }],
  ['content_block_stop', { index: 0 }],
  ['message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }],
  ['message_stop', {}],
]
  .map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`)
  .join('');

async function log(lines: unknown[]): Promise<string> {
  const file = join(scratch.root, `log-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
  return file;
}

describe('readAnthropicLoops', () => {
  it.each([
    [
      'request bodies each followed by its response',
      [first, message([use], 'tool_use'), second, JSON.stringify(streamed)],
    ],
    [
      '{ request, response } pairs',
      [
        { request: first, response: message([use], 'tool_use') },
        { request: second, response: streamed },
      ],
    ],
  ])('reads %s as one loop, as recorded, detected as an API log', async (_, lines) => {
    const session = await readLoops(await log(lines));
    expect(session.format).toBe('anthropic');
    expect(session.skipped).toEqual([]);
    const [loop] = session.loops;
    expect(loop?.request).toEqual(first);
    expect(loop?.defaults).toEqual([]);
    expect(loop?.outputs).toEqual({ toolu_1: { content: 'Hello' } });
    expect(loop?.turns.map((t) => t.message.content)).toEqual([[use], [{ type: 'text', text: 'It says Hello.' }]]);
    expect(loop?.turns[1]?.stream).toBe(streamed);
  });

  it('leaves out a request without its response', async () => {
    const session = await readAnthropicLoops(
      await log([{ request: first }, first, message([use], 'tool_use'), second]),
    );
    expect(session.loops).toEqual([]);
    expect(session.skipped).toEqual([
      { prompt: 'What does a.txt say?', why: 'it stops at a turn that calls a tool (the recording ended there)' },
    ]);
  });

  it.each([
    [['not json'], 'line 1 is not a JSON object: an API log has one per line'],
    [[first], 'no request with its response: an API log holds request bodies each followed by its response'],
  ])('refuses %j, saying why', async (lines, why) => {
    await expect(readAnthropicLoops(await log(lines))).rejects.toThrow(why);
  });
});

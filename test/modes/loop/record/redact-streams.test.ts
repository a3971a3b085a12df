// A redacted loop case keeps a recorded stream only when its redacted bytes still build the redacted turn.
import { describe, expect, it } from 'vitest';
import { keepFaithfulStreams } from '../../../../src/modes/loop/record/redact-streams.ts';
import type { LoopCaseData } from '../../../../src/modes/loop/case.ts';

// A text turn as the API streams it, its text in the given deltas.
function streamed(deltas: string[]): string {
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const message = { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null };
  return [
    event('message_start', {
      message: { ...message, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    ...deltas.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }),
    event('message_stop', {}),
  ].join('');
}

const loopCase = (streams: string[]): LoopCaseData => ({
  description: 'd',
  request: { model: 'm', max_tokens: 1, tools: [], messages: [{ role: 'user', content: 'hi' }] },
  turns: streams.map((stream) => ({
    message: { type: 'message', role: 'assistant', content: [], stop_reason: 'end_turn' },
    stream,
  })),
});
const redact = (s: string) => s.replaceAll('alice@acme.io', 'user@example.com');
const redactCase = (c: LoopCaseData) => ({ ...c, turns: c.turns.map((t) => ({ ...t, stream: redact(t.stream!) })) });

describe('keepFaithfulStreams', () => {
  it('keeps a stream that holds the redacted string whole', async () => {
    const recorded = loopCase([streamed(['mail alice@acme.io ', 'now'])]);
    const { data, dropped } = await keepFaithfulStreams(recorded, redactCase(recorded), redact);
    expect(dropped).toEqual([]);
    expect(data.turns[0]?.stream).toContain('mail user@example.com ');
  });

  it('drops a stream that holds it in pieces, the redactor having left it as it was', async () => {
    const recorded = loopCase([streamed(['ok']), streamed(['mail alice@', 'acme.io now'])]);
    const redacted = redactCase(recorded);
    expect(redacted.turns[1]?.stream).toBe(recorded.turns[1]?.stream);
    const { data, dropped } = await keepFaithfulStreams(recorded, redacted, redact);
    expect(dropped).toEqual([1]);
    expect(data.turns.map((t) => t.stream !== undefined)).toEqual([true, false]);
  });
});

// A scripted model behind the fake upstream: turn by turn it answers a Messages API request with the next Message of
// its script, as JSON or, when the request says `stream: true`, as the SSE events the API sends (tool inputs in
// several `input_json_delta` pieces). It keeps the exact bytes of each body it sent, for byte-for-byte comparisons.
import type { ServerResponse } from 'node:http';
import { sendJson, sendSse, type ReceivedRequest } from './fake-upstream.ts';

export type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
export type Turn = { content: Block[]; stopReason?: 'tool_use' | 'end_turn' | 'max_tokens' };

export type ScriptedModel = {
  // The fake upstream's handler.
  handle: (req: ReceivedRequest, res: ServerResponse) => Promise<void>;
  // Each response body as sent, in order.
  sent: string[];
};

// A model answering the n-th request with `script(request)[n]`; the script sees the request (the system prompt
// names the workspace, for absolute paths).
export function scriptedModel(script: (request: Record<string, unknown>) => Turn[]): ScriptedModel {
  const sent: string[] = [];
  let n = 0;
  return {
    sent,
    async handle(req, res) {
      const request = JSON.parse(req.body) as Record<string, unknown>;
      const turn = script(request)[n];
      const id = `msg_01Scripted${String(n++).padStart(14, '0')}`;
      if (turn === undefined) {
        const body = JSON.stringify({
          type: 'error',
          error: { type: 'invalid_request_error', message: 'the script has no more turns' },
        });
        sent.push(body);
        sendJson(res, body, 400);
        return;
      }
      const message = toMessage(id, turn);
      if (request.stream === true) {
        const events = toSse(message);
        sent.push(events.join(''));
        await sendSse(res, events);
      } else {
        const body = JSON.stringify(message);
        sent.push(body);
        sendJson(res, body, 200, { 'request-id': `req_${id}` });
      }
    },
  };
}

function toMessage(id: string, turn: Turn): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5-20250929',
    content: turn.content,
    stop_reason: turn.stopReason ?? (turn.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: 100, output_tokens: 20 },
  };
}

// The SSE events of a Message, as the API streams it.
export function toSse(message: Record<string, unknown>): string[] {
  const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const content = message.content as Block[];
  const events = [
    event('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } },
    }),
  ];
  events.push(event('ping', { type: 'ping' }));
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(
        event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      );
      events.push(
        event('content_block_delta', {
          type: 'content_block_delta',
          index,
          delta: { type: 'text_delta', text: block.text },
        }),
      );
    } else {
      events.push(
        event('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } }),
      );
      const json = JSON.stringify(block.input);
      const third = Math.ceil(json.length / 3);
      for (const part of ['', json.slice(0, third), json.slice(third, 2 * third), json.slice(2 * third)]) {
        events.push(
          event('content_block_delta', {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: part },
          }),
        );
      }
    }
    events.push(event('content_block_stop', { type: 'content_block_stop', index }));
  });
  events.push(
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: 20 },
    }),
  );
  events.push(event('message_stop', { type: 'message_stop' }));
  return events;
}

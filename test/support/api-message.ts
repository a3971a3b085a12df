// Messages API values for hand-made recordings in tests: an assistant Message, and a stream's server-sent events.

// An assistant Message holding `content`, stopped for `stop` (null in a stream's message_start).
export function apiMessage(content: object[], stop: string | null) {
  return {
    id: 'msg_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

// One server-sent event as the API frames it.
export function sseEvent(type: string, data: object): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

// A streamed Messages API response, rebuilt into the Messages a non-streamed call would have returned. Reads raw
// SSE (`event:`/`data:` lines, blank-line separated) and the one-event-per-line JSON that SDK fixtures store. A
// tool_use block's input is the concatenation of its `input_json_delta.partial_json` pieces, parsed at its
// `content_block_stop`; a block whose input never parses (a `max_tokens` cut, a stream that broke off) keeps a
// `malformed` reason instead of an input, so it is reported, never dropped.
import type { Skip } from '../types.ts';
import { isObject, type JsonObject, objectAt, parseToolInput, preview, stringAt } from './json-values.ts';
import { linesOfText } from './read-lines.ts';
import { SseFramer } from './sse-framer.ts';

// The event types of a Messages stream; a JSON line of one of these is a stream event.
export const ANTHROPIC_EVENT_TYPES = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
]);

type OpenBlock = { block: JsonObject; parts: string[]; deltas: number };

// Why a block still open when its stream ends has no input.
export const STREAM_ENDED = 'the stream ended before this block closed';

// Turns stream events into messages. `blockLines` tells the line each content block started on.
export class MessageAssembler {
  readonly messages: JsonObject[] = [];
  readonly blockLines = new WeakMap<object, number>();
  private current: { message: JsonObject; blocks: JsonObject[]; open: Map<number, OpenBlock> } | undefined;

  constructor(
    private readonly file: string,
    private readonly skipped: Skip[],
  ) {}

  event(event: JsonObject, line: number): void {
    const type = stringAt(event, 'type');
    if (type === 'message_start') {
      this.close('the stream started a new message before this block closed');
      const start = objectAt(event, 'message') ?? {};
      const blocks = (Array.isArray(start.content) ? start.content : []).filter(isObject).map((b) => ({ ...b }));
      for (const block of blocks) this.blockLines.set(block, line);
      this.current = { message: { ...start, role: 'assistant' }, blocks, open: new Map() };
    } else if (type === 'content_block_start') {
      const index = typeof event.index === 'number' ? event.index : -1;
      const block = { ...(objectAt(event, 'content_block') ?? { type: 'unknown' }) };
      this.blockLines.set(block, line);
      const current = this.ensureMessage();
      current.blocks.push(block);
      current.open.set(index, { block, parts: [], deltas: 0 });
    } else if (type === 'content_block_delta') {
      this.delta(event, line);
    } else if (type === 'content_block_stop') {
      const index = typeof event.index === 'number' ? event.index : -1;
      const open = this.current?.open.get(index);
      if (open === undefined) this.skip(line, `content_block_stop for block ${index}, which never started`);
      else {
        this.current?.open.delete(index);
        finishBlock(open, undefined);
      }
    } else if (type === 'message_delta') {
      const stop = stringAt(objectAt(event, 'delta') ?? {}, 'stop_reason');
      if (stop !== undefined) this.ensureMessage().message.stop_reason = stop;
    } else if (type === 'message_stop') {
      this.close('the message stopped before this block closed');
    } else if (type === 'error') {
      const error = objectAt(event, 'error') ?? {};
      const what = `${stringAt(error, 'type') ?? 'error'}: ${stringAt(error, 'message') ?? ''}`;
      this.skip(line, `the stream reported an error (${what})`);
      this.close(`the stream failed (${what}) before this block closed`);
    } else if (type !== 'ping') {
      this.skip(line, `an event of unknown type ${String(event.type)}`);
    }
  }

  private delta(event: JsonObject, line: number): void {
    const index = typeof event.index === 'number' ? event.index : -1;
    const open = this.current?.open.get(index);
    const delta = objectAt(event, 'delta') ?? {};
    if (open === undefined) {
      this.skip(line, `a delta for block ${index}, which never started`);
      return;
    }
    if (delta.type === 'input_json_delta') {
      open.parts.push(stringAt(delta, 'partial_json') ?? '');
      open.deltas += 1;
    } else if (delta.type === 'text_delta')
      open.block.text = `${stringAt(open.block, 'text') ?? ''}${stringAt(delta, 'text') ?? ''}`;
    else if (delta.type === 'thinking_delta')
      open.block.thinking = `${stringAt(open.block, 'thinking') ?? ''}${stringAt(delta, 'thinking') ?? ''}`;
  }

  private ensureMessage(): NonNullable<MessageAssembler['current']> {
    this.current ??= { message: { role: 'assistant' }, blocks: [], open: new Map() };
    return this.current;
  }

  // Ends the current message; blocks still open never got their content_block_stop.
  close(why: string): void {
    const current = this.current;
    if (current === undefined) return;
    const stop = stringAt(current.message, 'stop_reason');
    for (const open of current.open.values()) finishBlock(open, why);
    for (const block of current.blocks) {
      if (stop === 'max_tokens' && typeof block.malformed === 'string')
        block.malformed += ' (the response stopped at max_tokens)';
    }
    this.messages.push({ ...current.message, content: current.blocks });
    this.current = undefined;
  }

  private skip(line: number, reason: string): void {
    this.skipped.push({ file: this.file, line, reason });
  }
}

// A tool_use block's input from its deltas (or the input it started with, when none came).
function finishBlock(open: OpenBlock, unclosed: string | undefined): void {
  const { block } = open;
  if (block.type !== 'tool_use' && block.type !== 'server_tool_use' && block.type !== 'mcp_tool_use') return;
  const text = open.parts.join('');
  if (unclosed !== undefined) {
    delete block.input;
    block.malformed = `${unclosed}; ${text.length} characters of input received: ${preview(text)}`;
    return;
  }
  if (open.deltas === 0) return;
  const parsed = parseToolInput(text);
  if ('input' in parsed) block.input = parsed.input;
  else {
    delete block.input;
    block.malformed = `streamed ${parsed.malformed}`;
  }
}

// The Messages in a streamed response's text (usually one; SDK captures can hold several back to back), each as a
// non-streamed response would hold it, tool_use blocks with `input` or `malformed`; and what could not be used.
export function parseSseText(text: string, file = 'stream'): { messages: JsonObject[]; skipped: Skip[] } {
  const skipped: Skip[] = [];
  const assembler = new MessageAssembler(file, skipped);
  const framer = new SseFramer(file, skipped, (event, line) => assembler.event(event, line));
  for (const line of linesOfText(text)) framer.line(line);
  framer.dispatch();
  assembler.close(STREAM_ENDED);
  return { messages: assembler.messages, skipped };
}

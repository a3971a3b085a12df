// Hints for the loop mode: the mistake behind where a loop first went another way than the script, said in the
// student's terms (test/fixtures/wrong-loop/ is the catalogue each must name). Pure.
import type { LoopCaseFile } from '../../../course/types.ts';
import { jsonEqual } from '../compare-results.ts';
import type { Feature, LoopHint } from './loop-features.ts';
import { isEntry, returnedOf, stopReason, threwOf } from './loop-results.ts';
import { toolResultHint } from './tool-result-hints.ts';

// Where the loop first differs: request `index` (0-based) differs, is one the script does not have (`extra`) or was
// never sent (`missing`); or the end (`end`). `expected`, `received`: what differs there (the requests' differing
// fields, or the ends). `end`: how the loop ended.
export type LoopHintContext = {
  data: LoopCaseFile;
  at: 'request' | 'extra' | 'missing' | 'end';
  index: number;
  expected: unknown;
  received: unknown;
  end: unknown;
};

type Json = Record<string, unknown>;
type Recogniser = (ctx: LoopHintContext) => LoopHint | undefined;

// The contract, where a student's course directory has it.
const LOOP_DOC = 'node_modules/theinference/docs/stages/agent-loop.md';

// What the stub `theinference init --stage agent-loop` writes throws (course-template/src/agent-loop.ts).
const STUB = /runLoop is not written yet/;

const blocks = (message: unknown): Json[] =>
  isEntry(message) && Array.isArray(message.content) ? message.content.filter(isEntry) : [];
const role = (message: unknown) => (isEntry(message) ? message.role : undefined);
const hint = (text: string, cause: string, shows?: Feature, general?: string): LoopHint => ({
  text,
  cause,
  ...(shows === undefined ? {} : { shows }),
  ...(general === undefined ? {} : { general }),
});

function stillTheStub(ctx: LoopHintContext): LoopHint | undefined {
  if (!STUB.test(threwOf(ctx.end) ?? '')) return undefined;
  return hint(
    `src/agent-loop.ts is still the stub \`theinference init\` wrote: write runLoop (the course page "Run the loop"; ${LOOP_DOC})`,
    'the stub',
  );
}

// A field runLoop's request has, missing from a later request: `tools` above all.
function fieldDropped(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'request' || !isEntry(ctx.expected) || !isEntry(ctx.received)) return undefined;
  const received = ctx.received;
  const missing = Object.keys(ctx.expected).filter((k) => k !== 'messages' && !Object.hasOwn(received, k));
  if (missing.length === 0) return undefined;
  const fields = missing.map((k) => `\`${k}\``).join(' and ');
  const when = ctx.index === 0 ? 'the first request' : `request ${ctx.index + 1}`;
  const rule = `send every field of the request with every call, the conversation so far as its messages: client.messages.create({ ...request, messages })`;
  return hint(
    `${when} has no ${fields}: ${rule}`,
    `${missing.join(', ')} not sent again`,
    ctx.index === 0 ? 'first-request' : 'later-request',
    ctx.index === 0 ? undefined : `the requests after the first have no ${fields}: ${rule}`,
  );
}

// The two conversations at the difference: a request's messages, or the returned ones.
function conversations(ctx: LoopHintContext): [unknown[], unknown[]] | undefined {
  if (ctx.at === 'request' && isEntry(ctx.expected) && isEntry(ctx.received)) {
    const { messages: e } = ctx.expected;
    const { messages: r } = ctx.received;
    return Array.isArray(e) && Array.isArray(r) ? [e, r] : undefined;
  }
  const e = ctx.at === 'end' ? returnedOf(ctx.expected) : undefined;
  const r = ctx.at === 'end' ? returnedOf(ctx.received) : undefined;
  return e !== undefined && r !== undefined ? [e, r] : undefined;
}

// The first message that differs, its index, both sides, and the turn (from 1) an assistant message there is.
function firstDifferingMessage(ctx: LoopHintContext) {
  const both = conversations(ctx);
  if (both === undefined) return undefined;
  const [e, r] = both;
  const i = e.findIndex((m, k) => !jsonEqual(m, r[k]));
  if (i === -1) return { e, r, i: e.length, turn: 0 };
  const start = ctx.data.request.messages.length;
  return { e, r, i, turn: Math.floor((i - start) / 2) + 1 };
}

function resultsSplit(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const e = d?.e[d.i];
  const results = blocks(e).filter((b) => b.type === 'tool_result');
  if (d === undefined || role(e) !== 'user' || results.length < 2) return undefined;
  const split = results.every((b, j) => role(d.r[d.i + j]) === 'user' && jsonEqual(blocks(d.r[d.i + j]), [b]));
  if (!split) return undefined;
  return hint(
    `the results of turn ${d.turn}'s ${results.length} tool calls went in ${results.length} user messages: answer a turn with ONE user message holding a tool_result for each of its tool_use blocks, in order`,
    'tool results in separate user messages',
    'parallel-turn',
    "the results of a turn's tool calls went in a user message each: answer a turn with ONE user message holding a tool_result for each of its tool_use blocks, in order",
  );
}

function assistantMissing(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || role(d.r[d.i]) === 'assistant') return undefined;
  return hint(
    `the model's turn ${d.turn} is not in the conversation: after each response, append { role: 'assistant', content: response.content }, before the tool results`,
    'assistant turn not appended',
    'first-turn',
    "the model's turns are not in the conversation: after each response, append { role: 'assistant', content: response.content }, before the tool results",
  );
}

function assistantTextOnly(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const e = d?.e[d.i];
  const r = d?.r[d.i];
  if (d === undefined || role(e) !== 'assistant' || role(r) !== 'assistant') return undefined;
  const onlyText = !isEntry(r) || typeof r.content === 'string' || blocks(r).every((b) => b.type === 'text');
  if (!onlyText || blocks(e).every((b) => b.type === 'text')) return undefined;
  return hint(
    `only the text of the model's turn ${d.turn} was appended: append its content as received, every block (tool_use, thinking) included: { role: 'assistant', content: response.content }`,
    'assistant turn appended as its text',
    'first-turn',
    "only the text of the model's turns was appended: append each turn's content as received, every block (tool_use, thinking) included: { role: 'assistant', content: response.content }",
  );
}

function thinkingChanged(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const isThinking = (b: Json) => b.type === 'thinking' || b.type === 'redacted_thinking';
  const e = blocks(d?.e[d.i]).filter(isThinking);
  const r = blocks(d?.r[d.i]).filter(isThinking);
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || e.length === 0 || jsonEqual(e, r)) return undefined;
  if (r.length < e.length) {
    return hint(
      `the thinking block of the model's turn ${d.turn} was dropped: send back every block as it came, thinking blocks and their signatures included`,
      'thinking blocks dropped',
      'thinking-turn',
      "the model's thinking blocks were dropped: send back every block as it came, thinking blocks and their signatures included",
    );
  }
  return hint(
    `a thinking block of the model's turn ${d.turn} was changed: send it back exactly as it came (its thinking and its signature untouched), or the API refuses the request`,
    'thinking blocks edited',
    'thinking-turn',
    "the model's thinking blocks were changed: send each back exactly as it came (its thinking and its signature untouched), or the API refuses the request",
  );
}

// Ran the tools, then returned instead of calling the model again.
function stoppedAfterTools(ctx: LoopHintContext): LoopHint | undefined {
  const last = returnedOf(ctx.end)?.at(-1);
  if (ctx.at !== 'missing' || ctx.index === 0 || !blocks(last).some((b) => b.type === 'tool_result')) return undefined;
  return hint(
    `the loop ran the tools of turn ${ctx.index} and returned: send their results and call the model again, until a turn's stop_reason is not "tool_use"`,
    'stopped after the first tool call',
    'tool-turn',
    'the loop ran the tools of a turn and returned: send their results and call the model again, until a turn\'s stop_reason is not "tool_use"',
  );
}

// Returned on a turn that has text, though it asked for tools.
function stoppedOnText(ctx: LoopHintContext): LoopHint | undefined {
  const turn = ctx.data.turns[ctx.index - 1]?.message;
  const hasText = blocks(turn).some((b) => b.type === 'text');
  if (ctx.at !== 'missing' || turn?.stop_reason !== 'tool_use' || !hasText || threwOf(ctx.end) !== undefined) {
    return undefined;
  }
  return hint(
    `turn ${ctx.index} has text and stop_reason "tool_use", and the loop stopped there: decide by stop_reason, not by what the turn holds; only "tool_use" goes on`,
    'stopped on text',
    'text-and-tool-turn',
    'a turn with text and stop_reason "tool_use" ended the loop: decide by stop_reason, not by what the turn holds; only "tool_use" goes on',
  );
}

// Went on after a turn that ends the loop.
function keptGoing(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'extra') return undefined;
  const turn = ctx.data.turns[ctx.index - 1]?.message;
  const reason = stopReason(ctx.data, ctx.index);
  if (blocks(turn).some((b) => b.type === 'tool_use')) {
    return hint(
      `turn ${ctx.index} holds a tool_use block but ended with stop_reason ${reason}, and the loop went on: decide by stop_reason, not by the blocks; only "tool_use" goes on`,
      'went on by the blocks, not stop_reason',
      'tool-block-ending-turn',
      'a turn that holds a tool_use block but ended with another stop_reason than "tool_use" did not end the loop: decide by stop_reason, not by the blocks; only "tool_use" goes on',
    );
  }
  return hint(
    `turn ${ctx.index} ended with stop_reason ${reason}, and the loop called the model again: any stop_reason but "tool_use" ends the loop, which returns the conversation`,
    'went on after the last turn',
    'end',
    'the loop called the model again after a turn whose stop_reason ends it: any stop_reason but "tool_use" ends the loop, which returns the conversation',
  );
}

// An execute that threw, let out of the loop.
function throwEscaped(ctx: LoopHintContext): LoopHint | undefined {
  const threw = threwOf(ctx.end);
  const thrown = Object.values(ctx.data.outputs ?? {}).flatMap((o) => ('throws' in o ? [o.throws] : []));
  if (threw === undefined || !thrown.some((m) => threw.includes(m))) return undefined;
  return hint(
    "execute threw, and the throw left runLoop: catch it and send { type: 'tool_result', tool_use_id: block.id, content: error.message, is_error: true }, so one failing tool never ends the loop",
    'a throw from execute not caught',
    'throwing-output',
  );
}

// Returned a conversation short of its first or last messages.
function conversationCut(ctx: LoopHintContext): LoopHint | undefined {
  const e = ctx.at === 'end' ? returnedOf(ctx.expected) : undefined;
  const r = ctx.at === 'end' ? returnedOf(ctx.received) : undefined;
  if (e === undefined || r === undefined || r.length >= e.length) return undefined;
  if (jsonEqual(r, e.slice(0, r.length))) {
    return hint(
      "the conversation runLoop returned lacks the model's last turn: append it, as every turn, before returning",
      'last turn not in the returned conversation',
      'end',
    );
  }
  if (jsonEqual(r, e.slice(e.length - r.length))) {
    return hint(
      "the conversation runLoop returned does not start with the request's messages: return the whole conversation, request.messages first",
      "request's messages not in the returned conversation",
      'end',
    );
  }
  return undefined;
}

// The tool results of the first differing message.
function toolResults(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  if (d === undefined || role(d.e[d.i]) !== 'user') return undefined;
  return toolResultHint(ctx.data, d.turn, d.e[d.i], d.r[d.i]);
}

// Most specific first.
const RECOGNISERS: Recogniser[] = [
  stillTheStub,
  fieldDropped,
  conversationCut,
  resultsSplit,
  assistantMissing,
  assistantTextOnly,
  thinkingChanged,
  toolResults,
  stoppedAfterTools,
  stoppedOnText,
  keptGoing,
  throwEscaped,
];

// Names the mistake behind the first difference, or undefined when none is recognised.
export function loopHintFor(ctx: LoopHintContext): LoopHint | undefined {
  for (const recognise of RECOGNISERS) {
    const found = recognise(ctx);
    if (found !== undefined) return found;
  }
  return undefined;
}

// Hints for the messages a loop sends: the conversation not sent at all (the request's messages again), the
// assistant turn (missing, without content, only its text, a string, the whole response, after its results, put
// together from stream events without their deltas, its thinking changed, its blocks' fields dropped), the results
// of one turn split over several messages, a role the API does not have. Pure.
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import type { LoopHint } from './loop-features.ts';
import {
  blocks,
  firstDifferingMessage,
  hint,
  type Json,
  type LoopHintContext,
  type Recogniser,
  role,
} from './loop-hint-context.ts';
import { isEntry, returnedOf } from './loop-results.ts';

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

// A turn of several blocks that went in as several assistant messages, a block each (a text as a string or a
// block; tool results between them): every block is there, in order, but not as one message. Said only when the
// blocks are all found, so that "only its text" is never said of a turn whose tool_use went in after it.
function assistantSplit(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const e = d?.e[d.i];
  if (d === undefined || role(e) !== 'assistant' || role(d.r[d.i]) !== 'assistant') return undefined;
  const wanted = blocks(e);
  if (wanted.length < 2) return undefined;
  const asBlocks = (m: unknown): Json[] =>
    isEntry(m) && typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : blocks(m);
  const got: Json[] = [];
  let messages = 0;
  for (const m of d.r.slice(d.i)) {
    if (got.length >= wanted.length) break;
    if (role(m) !== 'assistant') continue;
    messages += 1;
    got.push(...asBlocks(m));
  }
  const same = (w: Json, g: Json | undefined) =>
    g !== undefined &&
    w.type === g.type &&
    (w.type === 'tool_use' ? w.id === g.id : w.type !== 'text' || w.text === g.text);
  if (messages < 2 || got.length !== wanted.length || !wanted.every((w, k) => same(w, got[k]))) return undefined;
  return hint(
    `the model's turn ${d.turn} went into the conversation as ${messages} assistant messages, a block each: append the turn as ONE message, { role: 'assistant', content: response.content }, then ONE user message with the results of its tool calls`,
    'assistant turn split into messages',
    'first-turn',
    "the model's turns went into the conversation as an assistant message per block: append each turn as ONE message, { role: 'assistant', content: response.content }, then ONE user message with the results of its tool calls",
  );
}

// A turn sent back with some of its blocks left out, the others as they came (an empty or blank text block
// filtered away): every block goes back, whatever it holds.
function assistantBlocksDropped(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const e = d?.e[d.i];
  const r = d?.r[d.i];
  if (d === undefined || role(e) !== 'assistant' || role(r) !== 'assistant') return undefined;
  const [want, got] = [blocks(e), blocks(r)];
  if (got.length === 0 || got.length >= want.length) return undefined;
  const left: Json[] = [];
  let k = 0;
  for (const w of want) {
    if (k < got.length && jsonEqual(w, got[k])) k += 1;
    else left.push(w);
  }
  if (k !== got.length) return undefined;
  const named = left
    .map((b) =>
      b.type === 'text' && typeof b.text === 'string'
        ? `its text block ${JSON.stringify(b.text).slice(0, 40)}`
        : `its ${String(b.type)} block`,
    )
    .join(', ');
  return hint(
    `the model's turn ${d.turn} went back without ${named}: send every block as it came, however little it holds: { role: 'assistant', content: response.content }`,
    'blocks left out of a turn',
    'first-turn',
  );
}

// A turn of text only appended as its text, a string: the contract appends content as received, blocks.
function assistantAsString(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const e = d?.e[d.i];
  const r = d?.r[d.i];
  if (d === undefined || role(e) !== 'assistant' || role(r) !== 'assistant' || !isEntry(r)) return undefined;
  if (typeof r.content !== 'string' || !isEntry(e) || !Array.isArray(e.content)) return undefined;
  if (!blocks(e).every((b) => b.type === 'text')) return undefined;
  return hint(
    `the model's turn ${d.turn} went into the conversation as a string where response.content was an array of blocks: append { role: 'assistant', content: response.content }, the blocks as received, even when they are only text`,
    'assistant turn appended as a string',
    'end',
    "the model's turns of text only went into the conversation as a string where response.content was an array of blocks: append { role: 'assistant', content: response.content }, the blocks as received, even when they are only text",
  );
}

function thinkingChanged(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const isThinking = (b: Json) => b.type === 'thinking' || b.type === 'redacted_thinking';
  const e = blocks(d?.e[d.i]).filter(isThinking);
  const r = blocks(d?.r[d.i]).filter(isThinking);
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || e.length === 0 || jsonEqual(e, r)) return undefined;
  if (r.length < e.length) {
    // Named by its type: a loop that keeps `thinking` blocks may drop `redacted_thinking` ones.
    const dropped = e.find((b) => !r.some((k) => jsonEqual(k, b)));
    const which = dropped?.type === 'redacted_thinking' ? 'redacted_thinking' : 'thinking';
    return hint(
      `the ${which} block of the model's turn ${d.turn} was dropped: send back every block as it came, ${which === 'thinking' ? 'thinking blocks and their signatures' : 'redacted_thinking blocks (their data untouched)'} included`,
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

// A message with a role the Messages API does not have: tool results as OpenAI's `role: 'tool'` messages.
function unknownRole(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const odd = d?.r.slice(d.i).find((m) => role(m) !== 'user' && role(m) !== 'assistant');
  if (d === undefined || odd === undefined) return undefined;
  return hint(
    `the conversation has a message with role ${JSON.stringify(role(odd) ?? null)}: the Messages API has only "user" and "assistant" messages, and a turn's tool results go in ONE user message as tool_result blocks: { role: 'user', content: [{ type: 'tool_result', tool_use_id: block.id, content: output.content }] }`,
    'a message role the API does not have',
    'tool-turn',
  );
}

// A later request that sends the request's messages as they were: `create(request)`, not the conversation.
function conversationNotSent(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const first = ctx.data.request.messages;
  if (ctx.at !== 'request' || ctx.index === 0 || d === undefined || !jsonEqual(d.r, first)) return undefined;
  return hint(
    `request ${ctx.index + 1} sends the request's messages as they were, without the conversation since: send the messages you append to, client.messages.create({ ...request, messages })`,
    'conversation not sent',
    'later-request',
    "the requests after the first send the request's messages as they were, without the conversation since: send the messages you append to, client.messages.create({ ...request, messages })",
  );
}

// An assistant turn without content: a Stream used as a Message (`create({ …, stream: true })`), whose content
// and stop_reason are undefined.
function turnWithoutContent(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const bare = (m: unknown) => role(m) === 'assistant' && isEntry(m) && !('content' in m);
  // Where the loop differs, or in what it returned when it stopped early (stop_reason was undefined too).
  const atDifference = d !== undefined && role(d.e[d.i]) === 'assistant' && bare(d.r[d.i]);
  const returned = returnedOf(ctx.end) ?? [];
  const k = returned.findIndex(bare);
  if (!atDifference && (ctx.at !== 'missing' || k === -1)) return undefined;
  const turn = atDifference ? d.turn : Math.floor((k - ctx.data.request.messages.length) / 2) + 1;
  return hint(
    `the model's turn ${turn} went in without content: response.content was undefined. With stream: true, create gives a Stream, not a Message: take the Message from client.messages.stream({ ...request, messages }).finalMessage(), or leave stream out`,
    'assistant turn without content',
    'first-turn',
    "the model's turns went in without content: response.content was undefined. With stream: true, create gives a Stream, not a Message: take the Message from client.messages.stream({ ...request, messages }).finalMessage(), or leave stream out",
  );
}

// A turn put together from stream events without their deltas: tool inputs `{}`, texts and thinking empty.
function deltasDropped(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || role(d.r[d.i]) !== 'assistant') return undefined;
  const want = blocks(d.e[d.i]);
  const got = blocks(d.r[d.i]);
  if (want.length !== got.length || want.some((b, j) => b.type !== got[j]!.type)) return undefined;
  // Said only of what a stream's content_block_start gives, each field there and empty (`signature: ''`, `input:
  // {}`): a loop that rebuilds its blocks by hand, streaming or not, leaves the field out (blockFieldsDropped).
  const empty = (v: unknown) => v === '' || (isEntry(v) && Object.keys(v).length === 0);
  const lost = new Set(
    want.flatMap((b, j) => {
      const g = got[j]!;
      if (b.type === 'tool_use' && empty(g.input) && !empty(b.input)) return ['input_json_delta'];
      if (b.type === 'text' && empty(g.text) && !empty(b.text)) return ['text_delta'];
      if (b.type === 'thinking' && empty(g.signature) && !empty(b.signature)) return ['signature_delta'];
      return [];
    }),
  );
  if (lost.size === 0) return undefined;
  const events = [...lost].map((e) => `\`${e}\``).join(' and ');
  const fix =
    'let the SDK put the message together: const response = await client.messages.stream({ ...request, messages }).finalMessage()';
  return hint(
    `the model's turn ${d.turn} went in without what its ${events} events carried: a stream sends each block's content in deltas after content_block_start; ${fix}`,
    'stream deltas not added',
    'first-turn',
    `the model's turns went in without what their ${events} events carried: a stream sends each block's content in deltas after content_block_start; ${fix}`,
  );
}

// Blocks rebuilt with some of their fields: a text block as { type, text }, its citations gone. Only a case whose
// blocks carry such a field shows it, which no probe script has.
function blockFieldsDropped(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || role(d.r[d.i]) !== 'assistant') return undefined;
  const want = blocks(d.e[d.i]);
  const got = blocks(d.r[d.i]);
  if (want.length !== got.length || want.some((b, j) => b.type !== got[j]!.type)) return undefined;
  const kept = (b: Json, g: Json) => Object.keys(g).every((k) => k in b && jsonEqual(g[k], b[k]));
  if (!want.every((b, j) => kept(b, got[j]!))) return undefined;
  const dropped = new Set(want.flatMap((b, j) => Object.keys(b).filter((k) => !(k in got[j]!))));
  if (dropped.size === 0) return undefined;
  const keys = [...dropped].map((k) => `\`${k}\``).join(', ');
  return hint(
    `the model's turn ${d.turn} went in with its blocks rebuilt, without their ${keys}: append the blocks as received, every field of each: { role: 'assistant', content: response.content }`,
    'block fields dropped',
  );
}

// The whole Message (its id, model, stop_reason and usage) appended as the assistant turn.
function wholeResponse(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const r = d?.r[d.i];
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || role(r) !== 'assistant' || !isEntry(r)) return undefined;
  const extra = Object.keys(r).filter((k) => k !== 'role' && k !== 'content');
  if (extra.length === 0 || !jsonEqual(r.content, (d.e[d.i] as Json).content)) return undefined;
  const keys = extra.map((k) => `\`${k}\``).join(', ');
  return hint(
    `the model's turn ${d.turn} went in as the whole response, with its ${keys}: append only { role: 'assistant', content: response.content }`,
    'whole response appended',
    'first-turn',
    `the model's turns went in as the whole response, with its ${keys}: append only { role: 'assistant', content: response.content }`,
  );
}

// The assistant turn appended after the tool results that answer it.
function assistantAfterResults(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  if (d === undefined || role(d.e[d.i]) !== 'assistant' || role(d.r[d.i]) !== 'user') return undefined;
  if (!jsonEqual(d.r[d.i + 1], d.e[d.i]) || !jsonEqual(d.r[d.i], d.e[d.i + 1])) return undefined;
  return hint(
    `the model's turn ${d.turn} went in after its tool results: append { role: 'assistant', content: response.content } first, then the user message with the results`,
    'assistant turn after its results',
    'tool-turn',
    "the model's turns went in after their tool results: append { role: 'assistant', content: response.content } first, then the user message with the results",
  );
}

// Most specific first.
// A turn's results sent as one text, the JSON of the tool_result blocks (`content: JSON.stringify(results)`).
function resultsAsJsonText(ctx: LoopHintContext): LoopHint | undefined {
  const d = firstDifferingMessage(ctx);
  const e = d?.e[d.i];
  const r = d?.r[d.i];
  if (d === undefined || role(e) !== 'user' || role(r) !== 'user' || !isEntry(e) || !isEntry(r)) return undefined;
  if (!Array.isArray(e.content) || typeof r.content !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(r.content);
  } catch {
    return undefined;
  }
  if (!jsonEqual(parsed, e.content)) return undefined;
  const text =
    "a turn's tool results went in as one text, the JSON of its tool_result blocks: send the blocks themselves, { role: 'user', content: results }, not JSON.stringify(results)";
  return hint(text, 'results as JSON text', 'tool-turn', text);
}

export const MESSAGE_RECOGNISERS: Recogniser[] = [
  conversationNotSent,
  resultsAsJsonText,
  unknownRole,
  turnWithoutContent,
  resultsSplit,
  assistantAfterResults,
  assistantMissing,
  wholeResponse,
  assistantSplit,
  assistantTextOnly,
  assistantAsString,
  deltasDropped,
  // Before thinkingChanged: a thinking block rebuilt without its signature lost a field; its thinking is whole.
  blockFieldsDropped,
  thinkingChanged,
  // Last: the blocks above say more of what was lost (a thinking block, a turn's tool_use, a stream's deltas).
  assistantBlocksDropped,
];

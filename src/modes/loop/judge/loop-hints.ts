// Hints for the loop mode: the mistake behind where a loop first went another way than the script, said in the
// student's terms (test/fixtures/wrong-loop/ is the catalogue each must name). Pure.
import { count, jsonEqual, short } from '../../../grade/judge/compare-results.ts';
import type { LoopHint } from './loop-features.ts';
import {
  blocks,
  firstDifferingMessage,
  hint,
  type LoopHintContext,
  type Recogniser,
  role,
} from './loop-hint-context.ts';
import { isEntry, requestChangedOf, returnedOf, stopReason, threwOf, withoutChange } from './loop-results.ts';
import { blockFieldsAdded } from './block-fields-added.ts';
import { CONVERSATION_RECOGNISERS, WINDOW_RECOGNISERS } from './conversation-hints.ts';
import { MESSAGE_RECOGNISERS } from './message-hints.ts';
import { STOPPED_AFTER_TOOLS } from './stopped-on-errors.ts';
import { toolResultHint } from './tool-result-hints.ts';
import { unaskedCallHint } from './unasked-call-hint.ts';
import { apiErrorHint } from './api-error-hint.ts';
import { type LoopWords, loopWords } from './loop-words.ts';

export type { LoopHintContext } from './loop-hint-context.ts';

// A context whose words may be left out: the loop mode's first stage's, then.
type Said = Omit<LoopHintContext, 'words'> & { words?: LoopWords };

// What the stub `theinference init --stage <slug>` writes throws (course-template/src/agent-loop.ts, for the first
// loop stage): `<entry> is not written yet …`. The hint names the stage's page, where a course directory has it.
function stillTheStub(ctx: LoopHintContext): LoopHint | undefined {
  const { entry, file, title, page } = ctx.words;
  if (!(threwOf(ctx.end) ?? '').includes(`${entry} is not written yet`)) return undefined;
  return hint(
    `${file} is still the stub \`theinference init\` wrote: write ${entry} (the course page "${title}"; ${page})`,
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

// A field of runLoop's request sent with another value: a model or max_tokens of the loop's own.
function fieldChanged(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'request' || !isEntry(ctx.expected) || !isEntry(ctx.received)) return undefined;
  const { expected, received } = ctx;
  const changed = Object.keys(expected).filter((k) => k !== 'messages' && Object.hasOwn(received, k));
  if (changed.length === 0) return undefined;
  const values = changed
    .map((k) => fieldsLost(k, expected[k], received[k]) ?? `\`${k}\` ${short(received[k])}, not ${short(expected[k])}`)
    .join('; ');
  const rule = `send the request's fields as ${ctx.words.entry} was given them, the conversation so far as its messages: client.messages.create({ ...request, messages })`;
  const when = ctx.index === 0 ? 'the first request' : `request ${ctx.index + 1}`;
  return hint(
    `${when} has ${values}: ${rule}`,
    `${changed.join(', ')} changed`,
    ctx.index === 0 ? 'first-request' : 'later-request',
    `${ctx.index === 0 ? 'the first request' : 'the requests after the first'} change ${changed.map((k) => `\`${k}\``).join(' and ')}: ${rule}`,
  );
}

// A field runLoop's request does not have, sent all the same: a default of the loop's own (`system: request.system
// ?? ''` where the request has no system prompt). The case's request proves it: the key is not in it.
function fieldAdded(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'request' || !isEntry(ctx.expected) || !isEntry(ctx.received)) return undefined;
  const { expected, received } = ctx;
  const given = ctx.data.request as Record<string, unknown>;
  const added = Object.keys(received).filter((k) => k !== 'messages' && !(k in expected) && !Object.hasOwn(given, k));
  if (added.length === 0) return undefined;
  const values = added.map((k) => `\`${k}\` ${short(received[k])}`).join(' and ');
  const rule = `send the request's fields as ${ctx.words.entry} was given them, none added, the conversation so far as its messages: client.messages.create({ ...request, messages })`;
  const when = ctx.index === 0 ? 'the first request' : `request ${ctx.index + 1}`;
  return hint(
    `${when} has ${values}, which the request ${ctx.words.entry} was given does not have: ${rule}`,
    `${added.join(', ')} added`,
    ctx.index === 0 ? 'first-request' : 'later-request',
    `the requests add ${added.map((k) => `\`${k}\``).join(' and ')}, which the request ${ctx.words.entry} was given does not have: ${rule}`,
  );
}

// A list of objects sent with some of their fields left out (tools as { name, description, input_schema }, their
// cache_control gone): which fields of which items, as the value alone would cut off before them.
function fieldsLost(key: string, expected: unknown, received: unknown): string | undefined {
  if (!Array.isArray(expected) || !Array.isArray(received) || expected.length !== received.length) return undefined;
  const lost: string[] = [];
  for (const [j, e] of expected.entries()) {
    const r: unknown = received[j];
    if (!isEntry(e) || !isEntry(r) || Object.keys(r).some((k) => !(k in e) || !jsonEqual(r[k], e[k]))) return undefined;
    const name = typeof e.name === 'string' ? ` (${JSON.stringify(e.name)})` : '';
    lost.push(
      ...Object.keys(e)
        .filter((k) => !(k in r))
        .map((k) => `\`${k}\` of item ${j + 1}${name}`),
    );
  }
  return lost.length === 0 ? undefined : `\`${key}\` without the ${lost.join(', ')}`;
}

// An end that is not the conversation: the last response, its content, or nothing.
function returnedOther(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'end' || !isEntry(ctx.received) || !('returned' in ctx.received)) return undefined;
  const returned = ctx.received.returned;
  if (Array.isArray(returned) && returned.every((m) => role(m) === 'user' || role(m) === 'assistant')) return undefined;
  const what = isEntry(returned) && returned.type === 'message' ? 'the last response' : short(returned);
  return hint(
    `${ctx.words.entry} returned ${what}, not the conversation: return the messages, request.messages first, then every turn and its results`,
    'returned something other than the conversation',
    'end',
    `${ctx.words.entry} returned something other than the conversation: return the messages, request.messages first, then every turn and its results`,
  );
}

// Ran the tools, then returned instead of calling the model again.
function stoppedAfterTools(ctx: LoopHintContext): LoopHint | undefined {
  const last = returnedOf(ctx.end)?.at(-1);
  if (ctx.at !== 'missing' || ctx.index === 0 || !blocks(last).some((b) => b.type === 'tool_result')) return undefined;
  // Gone on a while, then stopped though the model still asked for tools: a cap on the turns.
  if (ctx.index > 1) {
    return hint(
      `the loop ran the tools of turn ${ctx.index} and returned, after ${ctx.index} requests of ${ctx.data.turns.length}: go on while stop_reason is "tool_use", however many turns that takes (a cap on turns cuts a long session short)`,
      'stopped while the model asked for tools',
    );
  }
  // The results are in the conversation it returned: what it left out is the request that sends them.
  return hint(
    `the loop ran the tools of turn ${ctx.index}, appended their results and returned: call the model again with them, and go on until a turn's stop_reason is not "tool_use"`,
    STOPPED_AFTER_TOOLS,
    'tool-turn',
    'the loop ran the tools of a turn, appended their results and returned: call the model again with them, and go on until a turn\'s stop_reason is not "tool_use"',
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

// An execute that threw, let out of the loop: not caught, or caught by a try/catch around a promise not awaited.
function throwEscaped(ctx: LoopHintContext): LoopHint | undefined {
  const threw = threwOf(ctx.end);
  const thrown = Object.values(ctx.data.outputs ?? {}).flatMap((o) => ('throws' in o ? [o.throws] : []));
  if (threw === undefined || !thrown.some((m) => threw.includes(m))) return caughtAroundTheLoop(ctx);
  return hint(
    `execute threw (its promise rejected), and the rejection left ${ctx.words.entry}: catch it, with a try/catch around \`await execute(block.name, block.input)\` (a try/catch catches a rejection only of a promise it awaits) or a .catch on the promise, and send { type: 'tool_result', tool_use_id: block.id, content: error.message, is_error: true }, so one failing tool never ends the loop`,
    'a throw from execute not caught',
    'throwing-output',
  );
}

// Gone on a while, then threw an error of its own (not execute's) though the model still asked for tools: a cap
// on the turns that throws instead of returning (`if (turns > 30) throw new Error(…)`).
function cappedByThrow(ctx: LoopHintContext): LoopHint | undefined {
  const threw = threwOf(ctx.end);
  const thrown = Object.values(ctx.data.outputs ?? {}).flatMap((o) => ('throws' in o ? [o.throws] : []));
  const turn = ctx.data.turns[ctx.index - 1]?.message;
  if (ctx.at !== 'missing' || ctx.index < 2 || threw === undefined || turn?.stop_reason !== 'tool_use')
    return undefined;
  if (thrown.some((m) => threw.includes(m))) return undefined;
  return hint(
    `${ctx.words.entry} threw (${JSON.stringify(threw.slice(0, 80))}) after ${ctx.index} requests of ${ctx.data.turns.length}, though turn ${ctx.index} asked for tools: go on while stop_reason is "tool_use", however many turns that takes (a cap on turns cuts a long session short)`,
    'stopped while the model asked for tools',
  );
}

// A catch around the whole loop: execute threw at turn k, and runLoop returned there, the turn without results.
function caughtAroundTheLoop(ctx: LoopHintContext): LoopHint | undefined {
  const turn = ctx.data.turns[ctx.index - 1]?.message;
  const uses = blocks(turn).filter((b) => b.type === 'tool_use');
  const throws = uses.some((b) => {
    const output = ctx.data.outputs?.[String(b.id)];
    return output !== undefined && 'throws' in output;
  });
  const last = returnedOf(ctx.end)?.at(-1);
  if (ctx.at !== 'missing' || !throws || role(last) !== 'assistant') return undefined;
  return hint(
    `execute threw at turn ${ctx.index}, and ${ctx.words.entry} returned there, the turn's tools unanswered: catch a throw around each execute call, not around the loop, and send { type: 'tool_result', tool_use_id: block.id, content: error.message, is_error: true }, so one failing tool never ends the loop`,
    'a throw from execute not caught',
    'throwing-output',
  );
}

// Returned a conversation short of its first or last messages.
function conversationCut(ctx: LoopHintContext): LoopHint | undefined {
  const e = ctx.at === 'end' ? returnedOf(ctx.expected) : undefined;
  const r = ctx.at === 'end' ? returnedOf(ctx.received) : undefined;
  if (e === undefined || r === undefined || r.length === e.length) return undefined;
  // More than the conversation: what the loop added after the model's last turn (results of a turn it ran the
  // tools of before it looked at stop_reason).
  if (r.length > e.length) {
    if (!jsonEqual(r.slice(0, e.length), e)) return undefined;
    const extra = r.length - e.length;
    return hint(
      `the conversation ${ctx.words.entry} returned has ${extra === 1 ? 'a message' : `${extra} messages`} after the model's last turn: look at stop_reason right after appending the model's turn, and return there when it is not "tool_use", before running any tool`,
      'messages after the last turn',
      'end',
    );
  }
  if (jsonEqual(r, e.slice(0, r.length))) {
    return hint(
      `the conversation ${ctx.words.entry} returned lacks the model's last turn: append it, as every turn, before returning`,
      'last turn not in the returned conversation',
      'end',
    );
  }
  if (jsonEqual(r, e.slice(e.length - r.length))) {
    return hint(
      `the conversation ${ctx.words.entry} returned does not start with the request's messages: return the whole conversation, request.messages first`,
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
  return toolResultHint(ctx.data, d.turn, d.e[d.i], d.r[d.i], d.r.slice(0, d.i));
}

// The same request sent twice, the response to the first never appended: what the loop sent and returned shows it.
function requestRepeated(ctx: LoopHintContext): LoopHint | undefined {
  const k = ctx.index;
  const sent = ctx.sent ?? [];
  if ((ctx.at !== 'request' && ctx.at !== 'extra') || k === 0 || !jsonEqual(sent[k], sent[k - 1])) return undefined;
  const turn = ctx.data.turns[k - 1]?.message;
  const returned = returnedOf(ctx.end);
  if (turn === undefined || returned === undefined) return undefined;
  if (returned.some((m) => role(m) === 'assistant' && jsonEqual((m as { content?: unknown }).content, turn.content))) {
    return undefined;
  }
  return hint(
    `request ${k + 1} is request ${k} again, and the response to request ${k} (turn ${k}) is not in the conversation ${ctx.words.entry} returned: the loop called the model a second time with the same request and dropped the first response. Call client.messages.create once per turn, and append its response before anything else`,
    'the same request sent twice',
    'first-turn',
    'the loop sent a request twice and dropped the response to the first: call client.messages.create once per turn, and append its response before anything else',
  );
}

// The request runLoop was given, changed by the time it ended: its messages pushed onto (the conversation built in
// the caller's own array), or a field set.
function requestChanged(ctx: LoopHintContext): LoopHint | undefined {
  const changed = ctx.at === 'end' ? requestChangedOf(ctx.received) : undefined;
  if (changed === undefined || !jsonEqual(withoutChange(ctx.received), ctx.expected)) return undefined;
  const copy =
    "build the conversation in an array of the loop's own, const messages = [...request.messages], and leave the request as it was given (the caller's conversation is not the loop's to change)";
  const given = ctx.data.request.messages;
  const after = changed.messages;
  const appended =
    Object.keys(changed).length === 1 &&
    Array.isArray(after) &&
    after.length > given.length &&
    jsonEqual(after.slice(0, given.length), given);
  // What the grader sees is the request's messages at the end, not which array holds them: pushed onto the array
  // it was given and set to an array of the loop's own read the same, so the hint names both.
  if (appended) {
    return hint(
      `${ctx.words.entry} added to request.messages, in the request it was given (pushed onto that array, or set it to an array of its own: request.messages = …, Object.assign(request, { messages })): it had ${count(given.length, 'message')} when ${ctx.words.entry} was called and ${after.length} when it ended; ${copy}`,
      'request changed',
      'end',
      `${ctx.words.entry} added to request.messages, in the request it was given (pushed onto it, or set it to an array of its own); ${copy}`,
    );
  }
  const fields = Object.keys(changed)
    .map((k) => `request.${k}`)
    .join(' and ');
  return hint(`${ctx.words.entry} changed ${fields}, in the request it was given; ${copy}`, 'request changed', 'end');
}

// Most specific first.
const RECOGNISERS: Recogniser[] = [
  stillTheStub,
  apiErrorHint,
  unaskedCallHint,
  requestChanged,
  requestRepeated,
  fieldDropped,
  fieldChanged,
  fieldAdded,
  returnedOther,
  conversationCut,
  ...CONVERSATION_RECOGNISERS,
  ...MESSAGE_RECOGNISERS,
  ...WINDOW_RECOGNISERS,
  toolResults,
  blockFieldsAdded,
  stoppedAfterTools,
  stoppedOnText,
  keptGoing,
  throwEscaped,
  cappedByThrow,
];

// Names the mistake behind the first difference, or undefined when none is recognised.
export function loopHintFor(said: Said): LoopHint | undefined {
  const ctx: LoopHintContext = { ...said, words: said.words ?? loopWords(undefined) };
  for (const recognise of RECOGNISERS) {
    const found = recognise(ctx);
    if (found !== undefined) return found;
  }
  return undefined;
}

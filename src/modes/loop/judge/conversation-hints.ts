// Hints for a request compared with the conversation at that point: what the loop sent before, and what the
// conversation holds. A message the loop sent right and sends changed later (its results array pushed onto after
// it went: one array shared across turns), and a history cut to its last messages. Each claim is what the requests
// themselves show: the message as request k sent it and as request k + 1 did. Pure.
import { count, jsonEqual } from '../../../grade/judge/compare-results.ts';
import type { LoopHint } from './loop-features.ts';
import { blocks, hint, type LoopHintContext, type Recogniser, role } from './loop-hint-context.ts';
import { isEntry, requestOf } from './loop-results.ts';

// The messages of a request, as the loop sent it.
const messagesOf = (entry: unknown): unknown[] | undefined => {
  const messages = requestOf(entry)?.messages;
  return Array.isArray(messages) ? messages : undefined;
};

// Request k + 1's messages, those of the script, and those request k sent.
function sentAndExpected(ctx: LoopHintContext): [unknown[], unknown[], unknown[]] | undefined {
  if (ctx.at !== 'request' || ctx.index === 0 || !isEntry(ctx.expected) || !isEntry(ctx.received)) return undefined;
  const { messages: e } = ctx.expected;
  const { messages: r } = ctx.received;
  const before = messagesOf(ctx.sent?.[ctx.index - 1]);
  if (!Array.isArray(e) || !Array.isArray(r) || before === undefined) return undefined;
  return [r, e, before];
}

// A message request k sent as the script has it, changed in request k + 1.
function sentMessageChanged(ctx: LoopHintContext): LoopHint | undefined {
  const both = sentAndExpected(ctx);
  if (both === undefined) return undefined;
  const [r, e, before] = both;
  if (r.length < before.length) return undefined;
  const j = before.findIndex((m, k) => !jsonEqual(m, r[k]));
  if (j === -1 || !jsonEqual(before[j], e[j])) return undefined;
  // Changed, not moved: the message it sends there is none of the conversation's, or it is the one message that
  // differs (refilled in place with what a later message holds, as one array shared by both does).
  const inPlace = r.length === e.length && r.every((m, k) => k === j || jsonEqual(m, e[k]));
  if (!inPlace && e.some((m) => jsonEqual(m, r[j]))) return undefined;
  const where = `message ${j + 1} (${String(role(before[j]))})`;
  const [n, k] = [ctx.index, ctx.index + 1];
  // Its results are now those of the last user message too: one results array pushed onto every turn.
  const last = r.at(-1);
  const results = (m: unknown) => blocks(m).filter((b) => b.type === 'tool_result');
  const shared =
    role(before[j]) === 'user' &&
    r.length - 1 > j &&
    results(r[j]).length > results(before[j]).length &&
    jsonEqual(blocks(r[j]), blocks(last));
  // The same results as the last user message, no more of them: one array emptied and filled again each turn.
  const refilled =
    role(before[j]) === 'user' && r.length - 1 > j && results(r[j]).length > 0 && jsonEqual(blocks(r[j]), blocks(last));
  if (refilled && !shared) {
    return hint(
      `${where} held the tool_results of its own turn when request ${n} sent it, and in request ${k} it holds those of the last user message: both messages hold one results array, emptied and filled again each turn (results.length = 0). Make a new array for each turn's results (const results = [] inside the loop)`,
      'results array emptied and reused across turns',
      'second-tool-turn',
      "an earlier user message of results holds the latest turn's results once they are sent: one results array, emptied and filled again each turn, is in every user message. Make a new array for each turn's results (const results = [] inside the loop)",
    );
  }
  if (shared) {
    const had = results(before[j]).length;
    return hint(
      `${where} held ${count(had, 'tool_result')} when request ${n} sent it, and in request ${k} it holds ${results(r[j]).length}, the same as the last user message: the results of every turn went into one array. Make a new array for each turn's results (const results = [] inside the loop)`,
      'results array shared across turns',
      'second-tool-turn',
      "a turn's user message of results grew after it was sent, the results of later turns pushed onto it: the results of every turn went into one array. Make a new array for each turn's results (const results = [] inside the loop)",
    );
  }
  return hint(
    `${where} was sent in request ${n} as the script has it, and request ${k} sends it changed: the loop changed a message after sending it. The conversation only grows: append each new message, and never change one already sent`,
    'a sent message changed',
    'later-request',
    'a message the loop had sent was changed in a later request: the conversation only grows; append each new message, and never change one already sent',
  );
}

// The first request sends a message of the conversation runLoop was given changed in place (an old tool result
// cleared to save room): the same habit as a sent message changed later, and said under its cause.
function givenMessageChanged(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'request' || ctx.index !== 0 || !isEntry(ctx.expected) || !isEntry(ctx.received)) return undefined;
  const { messages: e } = ctx.expected;
  const { messages: r } = ctx.received;
  if (!Array.isArray(e) || !Array.isArray(r) || r.length !== e.length) return undefined;
  const changed = e.flatMap((m, k) => (jsonEqual(m, r[k]) ? [] : [k]));
  const given = ctx.data.request.messages.length;
  if (changed.length === 0 || changed.some((k) => k >= given || role(r[k]) !== role(e[k]))) return undefined;
  const named = changed.slice(0, 3).map((k) => `${k + 1}`);
  const which =
    changed.length === 1
      ? `message ${named[0]} (${String(role(e[changed[0]!]))})`
      : `messages ${named.join(', ')}${changed.length > 3 ? ` and ${changed.length - 3} more` : ''}`;
  return hint(
    `${which} of the conversation runLoop was given went out changed in request 1: send the messages as given. The conversation only grows: append each new message, and never change one already there`,
    'a sent message changed',
    'first-request',
    'a message the loop had sent was changed in a later request: the conversation only grows; append each new message, and never change one already sent',
  );
}

// Request k + 1 sends only the conversation's last messages (the first request too, when runLoop is given a long
// conversation).
function historyTrimmed(ctx: LoopHintContext): LoopHint | undefined {
  if (ctx.at !== 'request' || !isEntry(ctx.expected) || !isEntry(ctx.received)) return undefined;
  const { messages: e } = ctx.expected;
  const { messages: r } = ctx.received;
  if (!Array.isArray(e) || !Array.isArray(r)) return undefined;
  const kept = keptOf(e, r);
  if (r.length === 0 || r.length >= e.length || kept === undefined || kept.at(-1) !== e.length - 1) return undefined;
  // A window: the newest messages kept, with one run of older ones left out (the first message may stay).
  const left = Array.from({ length: e.length }, (_, k) => k).filter((k) => !kept.includes(k));
  if (left.some((k, j) => j > 0 && k !== left[j - 1]! + 1)) return undefined;
  const which = jsonEqual(r, e.slice(e.length - r.length))
    ? `the last ${r.length} of the conversation's ${e.length} messages`
    : `${r.length} of the conversation's ${e.length} messages, leaving out ${listed(e.length, kept)}`;
  return hint(
    `request ${ctx.index + 1} sends ${which}: the model sees only what it is sent, so the task and what the tools found are lost. Send the whole conversation with every request, client.messages.create({ ...request, messages })`,
    'history trimmed',
    'first-request',
    "the requests send only the conversation's last messages: the model sees only what it is sent, so the task and what the tools found are lost. Send the whole conversation with every request, client.messages.create({ ...request, messages })",
  );
}

// The positions of e that r keeps, in order (r a part of e, nothing changed or added), or undefined.
function keptOf(e: unknown[], r: unknown[]): number[] | undefined {
  const kept: number[] = [];
  let k = 0;
  for (const m of r) {
    while (k < e.length && !jsonEqual(e[k], m)) k += 1;
    if (k === e.length) return undefined;
    kept.push(k);
    k += 1;
  }
  return kept;
}

// "messages 2–4", "message 2 and messages 5–6": the positions (from 1) of `n` not kept.
function listed(n: number, kept: number[]): string {
  const out = Array.from({ length: n }, (_, k) => k).filter((k) => !kept.includes(k));
  const runs: [number, number][] = [];
  for (const k of out) {
    const last = runs.at(-1);
    if (last !== undefined && last[1] === k - 1) last[1] = k;
    else runs.push([k, k]);
  }
  return runs.map(([a, b]) => (a === b ? `message ${a + 1}` : `messages ${a + 1}–${b + 1}`)).join(' and ');
}

// A message changed after it was sent comes before the hints for the messages; a history cut after them (a turn
// left out is the more specific hint).
export const CONVERSATION_RECOGNISERS: Recogniser[] = [sentMessageChanged, givenMessageChanged];
export const WINDOW_RECOGNISERS: Recogniser[] = [historyTrimmed];

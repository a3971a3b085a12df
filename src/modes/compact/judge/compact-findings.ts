// What a compact-context failure is, in the stage's terms: where the loop first went another way than the snapshot
// (src/modes/loop/judge/compare-loop.ts finds the place), said as the layer of compaction it broke, from what the
// results show. Each finding is a claim the two requests or ends prove (a result sent whole that the contract
// replaces, a summary asked for a round early, no transcript file); where none fits, the loop's own message stands.
// Pure.
import {
  ACKNOWLEDGEMENT,
  CHARS_PER_TOKEN,
  COMPACT_RESULT,
  COMPACT_TOOL,
  COMPRESSED_MARKER,
  KEEP_RECENT_RESULTS,
  NO_FINAL_BREAK,
  PLACEHOLDER_OVER_CHARS,
  SUMMARY_INPUT_CHARS,
  SUMMARY_INSTRUCTION,
  SUMMARY_MAX_TOKENS,
  TRANSCRIPT_DIR,
  transcriptName,
} from '../../../compact-contract.ts';
import { count, describeDifference, jsonEqual, short, wasOrWere } from '../../../grade/judge/compare-results.ts';
import type { CompactCaseData } from '../case.ts';
import {
  isEntry,
  type LoopRun,
  requestChangedOf,
  requestOf,
  returnedOf,
  threwOf,
  withoutChange,
} from '../../loop/judge/loop-results.ts';
import { resultSlots, type ResultSlot } from './result-slots.ts';

// A finding: the message that replaces the loop's, the hint, and the mistake's name (failures with the same one
// are one problem in a report).
export type CompactFinding = { message: string; hint: string; cause: string };

type Entry = Record<string, unknown>;
type At = { at: 'request' | 'extra' | 'missing' | 'end'; index: number };

export const COMPACT_DOC = 'node_modules/theinference/docs/stages/compact-context.md';
const STUB = /runCompactLoop is not written yet/;

export function compactFinding(data: CompactCaseData, want: LoopRun, got: LoopRun, at: At): CompactFinding | undefined {
  if (STUB.test(threwOf(got.end) ?? ''))
    return finding(
      'runCompactLoop threw before its first request: src/compact-loop.ts is still the stub',
      `src/compact-loop.ts is still the stub \`theinference init\` wrote: write runCompactLoop (the course page "Compact the context"; ${COMPACT_DOC})`,
      'the stub',
    );
  const threw = threwOf(got.end);
  if (threw !== undefined && threwOf(want.end) === undefined && threw.includes(TRANSCRIPT_DIR))
    return finding(
      `runCompactLoop threw writing its transcript: ${short(threw, 200)}`,
      `a compaction writes ${TRANSCRIPT_DIR}/transcript-<n>.jsonl under the working directory, process.cwd() (not beside your source file), and makes the directory when there is none: mkdirSync(join(process.cwd(), '${TRANSCRIPT_DIR}'), { recursive: true })`,
      'transcript not written',
    );
  if (at.at === 'end') return givenChanged(data, want.end, got.end) ?? endFinding(data, want.end, got.end);
  const e = requestOf(want.requests[at.index]);
  const r = requestOf(got.requests[at.index]);
  if (r !== undefined && 'compact_threshold' in r) return thresholdSent(at.index);
  const passed = r === undefined ? undefined : compactPassedOn(r);
  if (passed !== undefined) return passed;
  if (at.at === 'extra' && r !== undefined && isSummaryLike(r))
    return finding(
      `request ${at.index + 1} asked for a summary after the script's last turn ended the loop`,
      'a turn whose stop_reason is not "tool_use" ends the loop: it returns the conversation, with no compaction after it',
      'summary after the end',
    );
  if (e === undefined || r === undefined) return undefined;
  return requestFinding(
    data,
    at.index,
    e,
    r,
    held(data, want, at.index),
    held(data, got, at.index),
    recentReplaced(want, got),
    summaryTexts(data, want, at.index),
  );
}

// The first request (from 1) where the loop sent one of the most recent results as a placeholder the contract keeps
// whole: what tells a loop that keeps the oldest results from one that keeps too many, where the first difference
// alone cannot.
function recentReplaced(want: LoopRun, got: LoopRun): number | undefined {
  const k = got.requests.findIndex((q, i) => {
    const e = requestOf(want.requests[i])?.messages;
    const r = requestOf(q)?.messages;
    if (!Array.isArray(e) || !Array.isArray(r) || e.length !== r.length) return false;
    const [ws, gs] = [resultSlots(e), resultSlots(r)];
    return (
      ws.length === gs.length &&
      ws.some((w, j) => w.rank <= KEEP_RECENT_RESULTS && !w.placeholder && gs[j]!.placeholder)
    );
  });
  return k < 0 ? undefined : k + 1;
}

// The conversation a run held when request k asked for a summary: the transcript that compaction wrote (its
// conversation whole, where the summary request may hold it cut). Undefined when request k asks for none.
function held(data: CompactCaseData, run: LoopRun, k: number): unknown[] | undefined {
  const request = requestOf(run.requests[k]);
  if (request === undefined || !isSummaryLike(request)) return undefined;
  const nth = run.requests.slice(0, k + 1).filter((q) => {
    const entry = requestOf(q);
    return entry !== undefined && isSummaryLike(entry);
  }).length;
  const files = isEntry(run.end) && isEntry(run.end.transcripts) ? run.end.transcripts : undefined;
  const lines = files?.[writtenName(data, nth)];
  return Array.isArray(lines) ? lines : undefined;
}

// The file the case's nth compaction writes: the nth transcript-<n>.jsonl not among those there before the run.
function writtenName(data: CompactCaseData, nth: number): string {
  const before = new Set(Object.keys(data.transcripts_before ?? {}));
  let free = 0;
  for (let n = 1; ; n += 1) {
    if (before.has(transcriptName(n))) continue;
    free += 1;
    if (free === nth) return transcriptName(n);
  }
}

// A request carrying the scripted execute's answer to a `compact` call: the loop passed the call to execute.
function compactPassedOn(request: Entry): CompactFinding | undefined {
  const refusal = `theinference's scripted execute: execute("${COMPACT_TOOL}"`;
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const passed = messages.some(
    (m) =>
      isEntry(m) &&
      Array.isArray(m.content) &&
      m.content.some(
        (b) => isEntry(b) && b.type === 'tool_result' && typeof b.content === 'string' && b.content.startsWith(refusal),
      ),
  );
  if (!passed) return undefined;
  return finding(
    `the \`${COMPACT_TOOL}\` call went to execute: its result in your loop's request is the scripted execute's refusal`,
    `when the model calls \`${COMPACT_TOOL}\`, its result is the fixed text, { type: 'tool_result', tool_use_id: block.id, content: '${COMPACT_RESULT}' }, never a call of execute: the tool is the loop's own, and the loop compacts after the round, before its next request (${COMPACT_DOC})`,
    'compact passed to execute',
  );
}

function finding(message: string, hint: string, cause: string): CompactFinding {
  return { message, hint, cause };
}

function thresholdSent(k: number): CompactFinding {
  return finding(
    `request ${k + 1} sent \`compact_threshold\` to the Messages API`,
    "compact_threshold is the loop's setting, not an API parameter (the real API refuses a request that has it): take it out, `const { compact_threshold, ...fields } = request`, and send `{ ...fields, messages }`",
    'threshold sent',
  );
}

// The summary request as the contract makes it: one user message, the instruction first.
function isSummary(request: Entry): boolean {
  const messages = request.messages;
  return (
    Array.isArray(messages) &&
    messages.length === 1 &&
    isEntry(messages[0]) &&
    typeof messages[0].content === 'string' &&
    messages[0].content.startsWith(SUMMARY_INSTRUCTION)
  );
}

// A request of the student's that asks for a summary, however it words it: one user message, no tools.
function isSummaryLike(request: Entry): boolean {
  const messages = request.messages;
  return isSummary(request) || (Array.isArray(messages) && messages.length === 1 && !('tools' in request));
}

const estimate = (messages: unknown): number => JSON.stringify(messages ?? []).length / CHARS_PER_TOKEN;

function requestFinding(
  data: CompactCaseData,
  k: number,
  e: Entry,
  r: Entry,
  wantHeld: unknown[] | undefined,
  gotHeld: unknown[] | undefined,
  recentAt: number | undefined,
  texts: string[] | undefined,
): CompactFinding | undefined {
  const threshold = data.request.compact_threshold;
  const n = k + 1;
  if (isSummary(e) && !isSummaryLike(r)) {
    const sent = Array.isArray(r.messages) ? r.messages : undefined;
    const micro = microFinding(n, summarised(e), sent) ?? microFinding(n, wantHeld, sent);
    if (micro !== undefined) return micro;
    const asked = k > 0 && calledCompact(data, k);
    if (asked)
      return finding(
        `request ${n} should ask for a summary: turn ${k} called the \`${COMPACT_TOOL}\` tool, and request ${n} went on without compacting`,
        `when the model calls \`${COMPACT_TOOL}\`, its result is the fixed text and the loop compacts after the round, before its next request: transcript, summary request, then the two messages (${COMPACT_DOC})`,
        'compact tool ignored',
      );
    const size = estimate(r.messages);
    if (size <= threshold && wantHeld !== undefined)
      return finding(
        `request ${n} should ask for a summary: the conversation the loop holds here is ${estimate(wantHeld)} tokens by the estimate, past compact_threshold ${threshold}, and the one your loop sent is ${size}, ${describeDifference(wantHeld, r.messages)}`,
        `the estimate is JSON.stringify(messages).length / ${CHARS_PER_TOKEN} of the conversation as it is about to be sent, after micro-compaction; the conversation your loop sent is not that one, so its size is not either`,
        'conversation before compaction',
      );
    return finding(
      `request ${n} should ask for a summary: the conversation it sent is ${size} tokens by the estimate (its JSON's ${size * CHARS_PER_TOKEN} characters / ${CHARS_PER_TOKEN}), past compact_threshold ${threshold}`,
      `before every request, after micro-compaction, a conversation whose estimate (JSON.stringify(messages).length / ${CHARS_PER_TOKEN}, not rounded) is greater than request.compact_threshold is compacted first`,
      'compaction missed',
    );
  }
  if (!isSummary(e) && isSummaryLike(r)) {
    const expected = Array.isArray(e.messages) ? e.messages : undefined;
    const micro = microFinding(n, expected, summarised(r)) ?? microFinding(n, expected, gotHeld);
    if (micro !== undefined) return micro;
    const size = estimate(e.messages);
    const equal = size === threshold;
    return finding(
      `request ${n} asked for a summary where none is due: the conversation is ${size} tokens by the estimate, ${equal ? 'equal to' : 'not past'} compact_threshold ${threshold}${k > 0 && !calledCompact(data, k) ? ', and no `compact` call came before it' : ''}`,
      equal
        ? 'only a size greater than the threshold compacts: compare with `>`, not `>=`'
        : `the estimate is JSON.stringify(messages).length / ${CHARS_PER_TOKEN} of the conversation as it is about to be sent (after micro-compaction), compared with \`>\`; compaction comes only past the threshold or after a \`${COMPACT_TOOL}\` call`,
      equal ? 'threshold compared with >=' : 'compaction too early',
    );
  }
  if (isSummary(e)) return compactedFirst(data, k, r, summaryFinding(n, e, r, wantHeld, gotHeld));
  return conversationFinding(n, e, r, recentAt, texts);
}

// A summary request after a `compact` call, holding whole a result the round's micro-compaction replaces: the loop
// compacted as the round ended, before micro-compacting it (every other request of it may be right). Told apart from
// a loop that keeps four results whole by a fifth most recent, long, sent whole too.
function compactedFirst(
  data: CompactCaseData,
  k: number,
  r: Entry,
  found: CompactFinding | undefined,
): CompactFinding | undefined {
  if (found?.cause !== 'older result kept whole' || k === 0 || !calledCompact(data, k)) return found;
  const whole = (s: ResultSlot) => s.text && !s.placeholder && s.length > PLACEHOLDER_OVER_CHARS;
  if (!resultSlots(summarised(r) ?? []).some((s) => s.rank > KEEP_RECENT_RESULTS + 1 && whole(s))) return found;
  return finding(
    found.message,
    `request ${k + 1} is the summary request that follows the \`${COMPACT_TOOL}\` call of turn ${k}: after the round, micro-compact the conversation first (every tool_result but the ${KEEP_RECENT_RESULTS} most recent, longer than ${PLACEHOLDER_OVER_CHARS} characters, becomes its placeholder), then write the transcript and ask for the summary, as an automatic compaction does`,
    'compacted before micro-compaction',
  );
}

function calledCompact(data: CompactCaseData, k: number): boolean {
  const turn = data.turns[k - 1];
  return turn?.message.content.some((b) => b.type === 'tool_use' && b.name === COMPACT_TOOL) === true;
}

// Both requests ask for a summary: which part of the received one is not the contract's.
function summaryFinding(
  n: number,
  e: Entry,
  r: Entry,
  wantHeld: unknown[] | undefined,
  gotHeld: unknown[] | undefined,
): CompactFinding | undefined {
  const shape = `{ model: request.model, max_tokens: ${SUMMARY_MAX_TOKENS}, messages: [{ role: 'user', content: instruction + '\\n\\n' + JSON.stringify(messages).slice(0, ${SUMMARY_INPUT_CHARS}) }] }`;
  const extra = Object.keys(r).filter((key) => !(key in e));
  if (extra.length > 0)
    return finding(
      `the summary request (request ${n}) carries ${extra.map((x) => `\`${x}\``).join(' and ')}`,
      `the summary request is one of its own, with no system prompt and no tools: ${shape}`,
      'summary request fields',
    );
  if (r.max_tokens !== e.max_tokens)
    return finding(
      `the summary request (request ${n}) has max_tokens ${short(r.max_tokens)}, not ${SUMMARY_MAX_TOKENS}`,
      `a summary is short: ${shape}`,
      'summary max_tokens',
    );
  const want = textOf(e);
  const got = textOf(r);
  if (want === undefined || got === undefined || want === got) return undefined;
  const head = `${SUMMARY_INSTRUCTION}\n\n`;
  if (!got.startsWith(head))
    return finding(
      `the summary request (request ${n}) does not begin with the instruction and a blank line: it begins ${short(got.slice(0, 60))}`,
      `its one message is the instruction "${SUMMARY_INSTRUCTION}", a blank line, then the conversation as JSON: ${shape}`,
      'summary instruction',
    );
  const [w, g] = [want.slice(head.length), got.slice(head.length)];
  if (g.length > SUMMARY_INPUT_CHARS)
    return finding(
      `the summary request (request ${n}) holds ${g.length} characters of the conversation's JSON, more than ${SUMMARY_INPUT_CHARS}`,
      `the conversation's JSON is cut to its first ${SUMMARY_INPUT_CHARS} characters: JSON.stringify(messages).slice(0, ${SUMMARY_INPUT_CHARS})`,
      'summary not cut',
    );
  if (g.length !== w.length && (w.startsWith(g) || g.startsWith(w)))
    return finding(
      `the summary request (request ${n}) holds ${g.length} characters of the conversation's JSON, not ${w.length}`,
      `the conversation's JSON is cut to its first ${SUMMARY_INPUT_CHARS} characters, all of it when it is shorter: JSON.stringify(messages).slice(0, ${SUMMARY_INPUT_CHARS})`,
      'summary cut wrong',
    );
  // Cut from its end: the last characters of the conversation's JSON, as the loop's transcript holds it.
  const whole = gotHeld === undefined ? undefined : JSON.stringify(gotHeld);
  if (whole !== undefined && whole.length > SUMMARY_INPUT_CHARS && g === whole.slice(-SUMMARY_INPUT_CHARS))
    return finding(
      `the summary request (request ${n}) holds the last ${SUMMARY_INPUT_CHARS} characters of the conversation's JSON, not the first`,
      `the conversation's JSON is cut to its first ${SUMMARY_INPUT_CHARS} characters: JSON.stringify(messages).slice(0, ${SUMMARY_INPUT_CHARS}), not slice(-${SUMMARY_INPUT_CHARS})`,
      'summary cut wrong',
    );
  const unanswered = unansweredCompact(summarised(r));
  if (unanswered !== undefined)
    return finding(
      `the summary request (request ${n}) carries the \`${COMPACT_TOOL}\` call ${unanswered} without its tool_result`,
      `a \`${COMPACT_TOOL}\` call gets its result like every call of the round, { type: 'tool_result', tool_use_id: block.id, content: '${COMPACT_RESULT}' }, in the round's one message of results; then the loop compacts (${COMPACT_DOC})`,
      'compact result missing',
    );
  const micro =
    microFinding(n, summarised(e), summarised(r)) ?? microFinding(n, wantHeld, gotHeld) ?? cutWording(n, w, g);
  if (micro !== undefined) return micro;
  return finding(
    `the conversation in the summary request (request ${n}) is not the one the loop holds: ${conversationText(w, g)}`,
    "the summary request carries the conversation as it stands when the loop compacts, micro-compacted, as JSON.stringify(messages): the round's results included, nothing else added",
    'summary conversation',
  );
}

// The id of a `compact` tool_use that the message after it answers with no tool_result, in a conversation. A turn
// with no message after it is another mistake (the round's results not appended before compacting).
function unansweredCompact(conversation: unknown[] | undefined): string | undefined {
  for (const [k, message] of (conversation ?? []).entries()) {
    if (!isEntry(message) || message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const next = conversation![k + 1];
    if (next === undefined) continue;
    const answered = new Set(
      isEntry(next) && Array.isArray(next.content)
        ? next.content.flatMap((b) => (isEntry(b) && b.type === 'tool_result' ? [b.tool_use_id] : []))
        : [],
    );
    const call = message.content.find(
      (b) => isEntry(b) && b.type === 'tool_use' && b.name === COMPACT_TOOL && !answered.has(b.id),
    );
    if (isEntry(call)) return String(call.id);
  }
  return undefined;
}

function textOf(request: Entry): string | undefined {
  const m = Array.isArray(request.messages) ? request.messages[0] : undefined;
  return isEntry(m) && typeof m.content === 'string' ? m.content : undefined;
}

function conversationText(w: string, g: string): string {
  try {
    return describeDifference(JSON.parse(w), JSON.parse(g));
  } catch {
    const at = [...w].findIndex((c, i) => c !== g[i]);
    return `the JSON differs from character ${at + 1}`;
  }
}

// Two ordinary requests whose messages differ: after a compaction, or at a tool_result micro-compaction keeps or
// replaces.
function conversationFinding(
  n: number,
  e: Entry,
  r: Entry,
  recentAt: number | undefined,
  texts: string[] | undefined,
): CompactFinding | undefined {
  const want = Array.isArray(e.messages) ? e.messages : [];
  const got = Array.isArray(r.messages) ? r.messages : [];
  const first = want[0];
  if (isEntry(first) && typeof first.content === 'string' && first.content.startsWith(`${COMPRESSED_MARKER}\n\n`)) {
    const after = afterCompaction(n, want, got, texts);
    if (after !== undefined) return after;
  }
  return microFinding(n, want, got, recentAt);
}

function afterCompaction(
  n: number,
  want: unknown[],
  got: unknown[],
  texts: string[] | undefined,
): CompactFinding | undefined {
  const shape = `[{ role: 'user', content: '${COMPRESSED_MARKER}\\n\\n' + summary }, { role: 'assistant', content: '${ACKNOWLEDGEMENT}' }]`;
  if (jsonEqual(want.slice(0, 2), got.slice(0, 2))) return undefined;
  if (got.length > want.length)
    return finding(
      `request ${n} comes after a compaction, yet its conversation has ${count(got.length, 'message')} where ${wasOrWere(want.length)} expected: the old conversation was kept`,
      `a compaction replaces the whole conversation with two messages, ${shape}, and the loop goes on from them`,
      'conversation not replaced',
    );
  const [wu, gu] = [want[0], got[0]];
  if (jsonEqual(wu, gu))
    return finding(
      `request ${n} comes after a compaction, and its second message is not the acknowledgement: ${describeDifference(want[1], got[1])}`,
      `the assistant acknowledges the summary, word for word: ${shape}`,
      'acknowledgement',
    );
  const separator = texts === undefined ? undefined : joinedWith(texts, gu);
  if (separator !== undefined)
    return finding(
      `request ${n} comes after a compaction, and its first message joins the summary's ${texts!.length} text blocks with ${short(separator)} between them, where the contract puts nothing between them`,
      `the summary is the text of the summary's text blocks, joined with nothing between them (texts.join(''), not texts.join(${short(separator).replace(/^"|"$/g, "'")})); the first message is '${COMPRESSED_MARKER}', a blank line, then that summary: ${shape}`,
      'summary joined',
    );
  return finding(
    `request ${n} comes after a compaction, and its first message is not the summary's: ${describeDifference(wu, gu)}`,
    `the first message is the user's: '${COMPRESSED_MARKER}', a blank line, then the summary (the text of the summary's text blocks, joined with nothing between them: texts.join('')): ${shape}`,
    'compressed message',
  );
}

// The text blocks of the summary the compaction before request at.index + 1 asked for: the answer to the last
// summary request before it (each turn answers the request of its index). Undefined when there is none.
function summaryTexts(data: CompactCaseData, want: LoopRun, index: number): string[] | undefined {
  for (let k = index - 1; k >= 0; k -= 1) {
    const request = requestOf(want.requests[k]);
    if (request === undefined || !isSummary(request)) continue;
    const content = data.turns[k]?.message.content;
    return content?.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));
  }
  return undefined;
}

// The separator a first message after compaction joins the summary's text blocks with, when it is one of those a
// loop might write and not the contract's (nothing).
function joinedWith(texts: string[], message: unknown): string | undefined {
  if (texts.length < 2 || !isEntry(message) || typeof message.content !== 'string') return undefined;
  const head = `${COMPRESSED_MARKER}\n\n`;
  return ['\n', '\n\n', ' ', ', '].find((sep) => message.content === head + texts.join(sep));
}

// The request the loop was given, changed in place by the end with its messages as many as before: a block of the
// given conversation changed (a placeholder assigned into it), said as which message, which block and how.
function givenChanged(data: CompactCaseData, want: unknown, got: unknown): CompactFinding | undefined {
  const changed = requestChangedOf(got);
  if (changed === undefined || requestChangedOf(want) !== undefined || !jsonEqual(want, withoutChange(got)))
    return undefined;
  const given = data.request.messages;
  const after = changed.messages;
  if (Object.keys(changed).length !== 1 || !Array.isArray(after) || after.length !== given.length) return undefined;
  const m = given.findIndex((message, i) => !jsonEqual(message, after[i]));
  const [before, now] = [given[m], after[m]];
  if (before === undefined || !isEntry(now) || !Array.isArray(before.content) || !Array.isArray(now.content))
    return undefined;
  const b = before.content.findIndex((block, i) => !jsonEqual(block, (now.content as unknown[])[i]));
  const [was, is] = [before.content[b], now.content[b]];
  if (!isEntry(was) || !isEntry(is)) return undefined;
  const what = was.type === 'tool_result' ? `the tool_result of ${String(was.tool_use_id)}` : `a ${String(was.type)}`;
  const placeholder = typeof is.content === 'string' && /^\[Previous: used [^\]]*\]$/.test(is.content);
  const how = placeholder
    ? `its content, ${typeof was.content === 'string' ? `${was.content.length} characters` : short(was.content, 40)}, replaced by the placeholder ${short(is.content)}`
    : `its content ${short(was.content, 40)} became ${short(is.content, 40)}`;
  return finding(
    `runCompactLoop changed the conversation it was given, in place: message ${m + 1} of request.messages (${String(before.role)}), block ${b + 1} (${what}): ${how} (request.messages still has its ${given.length} messages)`,
    `${placeholder ? 'micro-compaction assigned the placeholder into a block of' : 'the loop assigned into a block of'} request.messages (block.content = …), the caller's conversation, which is not the loop's to change: build new blocks and messages instead, const messages = [...request.messages], and replace a result with a new block in a new message, messages[i] = { ...message, content: message.content.map((b) => (b === block ? { ...b, content: placeholder } : b)) }`,
    'given conversation changed',
  );
}

const ordinal = (r: number): string =>
  r === 1 ? 'most recent' : `${r}${r === 2 ? 'nd' : r === 3 ? 'rd' : 'th'} most recent`;

// The first tool_result micro-compaction treats otherwise than the contract, and the mistake the whole set of them
// shows: a recent result replaced, a short one replaced, older ones kept whole, another placeholder's words.
function placeholderFinding(
  n: number,
  want: ResultSlot[],
  got: ResultSlot[],
  recentAt?: number,
): CompactFinding | undefined {
  if (want.length !== got.length) return undefined;
  const rule = `before every request, every tool_result but the ${KEEP_RECENT_RESULTS} most recent whose content is longer than ${PLACEHOLDER_OVER_CHARS} characters becomes "[Previous: used <tool>]", the name from its tool_use`;
  const which = (w: ResultSlot) => `the tool_result of ${w.id} (${w.tool}, the ${ordinal(w.rank)} of ${want.length})`;
  // The same results by id, in another order (the compact call's put last, say): compared by position, each would
  // read as another's content.
  const [wantIds, gotIds] = [want.map((w) => w.id), got.map((g) => g.id)];
  const moved = wantIds.findIndex((id, i) => id !== gotIds[i]);
  if (moved >= 0 && jsonEqual([...wantIds].sort(), [...gotIds].sort()))
    return finding(
      `request ${n}: its tool_results are out of their tool_use blocks' order: ${gotIds[moved]} where ${wantIds[moved]} (${want[moved]!.tool}) was expected`,
      `answer a round's tool_use blocks in the order they came, each result at its block's place, the \`${COMPACT_TOOL}\` call's among them (${COMPACT_DOC})`,
      'tool results out of order',
    );
  const lost = want.find((w, i) => w.placeholder && w.content === got[i]!.content && w.isError !== got[i]!.isError);
  if (lost !== undefined)
    return finding(
      `request ${n}: ${which(lost)} became ${short(lost.content)}${lost.isError ? ' without its is_error: true' : ' with an is_error: true of its own'}`,
      'a placeholder replaces the content only: the block keeps its type, its tool_use_id and its is_error ({ ...block, content: placeholder })',
      'placeholder without is_error',
    );
  const differs = want.map((w, i) => ({ w, g: got[i]! })).filter(({ w, g }) => w.content !== g.content);
  const first = differs[0];
  if (first === undefined) return undefined;
  const replaced = differs.filter(({ w, g }) => !w.placeholder && g.placeholder);
  const blocks = replaced.find(({ w }) => !w.text);
  if (blocks !== undefined)
    return finding(
      `request ${n}: ${which(blocks.w)} became ${short(blocks.g.content)}, yet its content is a list of blocks, not a string`,
      `only a tool_result whose content is a string is replaced (and only past ${PLACEHOLDER_OVER_CHARS} characters); one whose content is a list of blocks stays as it is (test typeof content === 'string' first): ${rule}`,
      'blocks result replaced',
    );
  const recent = replaced.find(({ w }) => w.rank <= KEEP_RECENT_RESULTS);
  if (recent !== undefined)
    return finding(
      `request ${n}: ${which(recent.w)} became ${short(recent.g.content)}, yet it is one of the ${KEEP_RECENT_RESULTS} most recent`,
      `the ${KEEP_RECENT_RESULTS} most recent tool_results (the last ones in the conversation) stay whole; the older ones are replaced: ${rule}`,
      'recent result replaced',
    );
  const short_ = replaced[0];
  if (short_ !== undefined)
    return finding(
      `request ${n}: ${which(short_.w)} became ${short(short_.g.content)}, yet its content is only ${short_.w.length} characters`,
      `only a content longer than ${PLACEHOLDER_OVER_CHARS} characters is replaced; a shorter one stays as it is: ${rule}`,
      'short result replaced',
    );
  const kept = differs.filter(({ w, g }) => w.placeholder && !g.placeholder);
  const whole = kept[0];
  if (whole !== undefined && recentAt !== undefined && recentAt > n)
    return finding(
      `request ${n}: ${which(whole.w)}, ${whole.g.length} characters, is sent whole; it should be ${short(whole.w.content)}, and request ${recentAt} sends one of the ${KEEP_RECENT_RESULTS} most recent as a placeholder`,
      `the ${KEEP_RECENT_RESULTS} most recent tool_results (the last ones in the conversation) stay whole; the older ones are replaced: ${rule}`,
      'recent result replaced',
    );
  if (whole !== undefined)
    return finding(
      `request ${n}: ${which(whole.w)}, ${whole.g.length} characters, is sent whole; it should be ${short(whole.w.content)}`,
      `your loop kept more than the ${KEEP_RECENT_RESULTS} most recent tool_results whole: ${rule}`,
      'older result kept whole',
    );
  // A result that is no placeholder in either: the compact tool's own text, or an output passed on otherwise.
  if (!first.w.placeholder && !first.g.placeholder)
    return first.w.tool === COMPACT_TOOL
      ? finding(
          `request ${n}: ${which(first.w)} is ${short(first.g.content)}, not ${short(first.w.content)}`,
          `a \`${COMPACT_TOOL}\` call's result is the fixed text '${COMPACT_RESULT}', word for word: { type: 'tool_result', tool_use_id: block.id, content: '${COMPACT_RESULT}' } (${COMPACT_DOC})`,
          'compact result',
        )
      : undefined;
  return finding(
    `request ${n}: ${which(first.w)} is ${short(first.g.content)}, not ${short(first.w.content)}`,
    `the placeholder is "[Previous: used <tool>]" with the tool's name from the tool_use the result answers: ${short(first.w.content)}`,
    'placeholder wording',
  );
}

// The conversation a summary request carries, when it is whole (not cut) JSON.
function summarised(request: Entry): unknown[] | undefined {
  const text = textOf(request);
  const at = text?.indexOf('\n\n') ?? -1;
  if (text === undefined || at < 0) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(at + 2));
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// Micro-compaction's mistake, when the two conversations (of a request or a summary request) show one.
function microFinding(
  n: number,
  want: unknown[] | undefined,
  got: unknown[] | undefined,
  recentAt?: number,
): CompactFinding | undefined {
  if (want === undefined || got === undefined || want.length !== got.length) return undefined;
  return placeholderFinding(n, resultSlots(want), resultSlots(got), recentAt);
}

// The end: the transcript files, then (when they agree) whatever the loop's message says of the conversation.
function endFinding(data: CompactCaseData, want: unknown, got: unknown): CompactFinding | undefined {
  if (!isEntry(want) || !isEntry(got) || returnedOf(got) === undefined) return undefined;
  if (jsonEqual(want.transcripts, got.transcripts)) return returnedFinding(returnedOf(want), returnedOf(got));
  // The files the case put there before the run, left as they were, are none of the loop's.
  const before = Object.keys(data.transcripts_before ?? {});
  const kept = (name: string): boolean =>
    before.includes(name) &&
    isEntry(want.transcripts) &&
    isEntry(got.transcripts) &&
    jsonEqual(want.transcripts[name], got.transcripts[name]);
  const own = (files: unknown): Entry | undefined => {
    const left = isEntry(files) ? Object.entries(files).filter(([name]) => !kept(name)) : [];
    return left.length === 0 ? undefined : Object.fromEntries(left);
  };
  const [w, g] = [own(want.transcripts), own(got.transcripts)];
  const where = `${TRANSCRIPT_DIR}/transcript-<n>.jsonl in the working directory, n from 1 (the first number whose file does not exist yet), one line of JSON per message of the conversation as it stands when the loop compacts`;
  if (w !== undefined && g === undefined)
    return finding(
      `the loop compacted but wrote no transcript file: ${Object.keys(w).join(', ')} was expected under ${TRANSCRIPT_DIR}/`,
      `each compaction first writes the conversation to ${where}`,
      'transcript not written',
    );
  if (w === undefined && g !== undefined)
    return finding(
      `the loop wrote ${Object.keys(g).join(', ')} under ${TRANSCRIPT_DIR}/, yet no compaction is due in this case`,
      `only a compaction writes a transcript: ${where}`,
      'transcript without compaction',
    );
  const [wn, gn] = [Object.keys(w!), Object.keys(g!)];
  if (!jsonEqual(wn, gn))
    return finding(
      `the transcript files are ${gn.join(', ')}, not ${wn.join(', ')}${wereThere(data)}`,
      `each compaction writes ${where}`,
      'transcript name',
    );
  const name = wn.find((k) => !jsonEqual(w![k], g![k]))!;
  const [wl, gl] = [w![name], g![name]];
  const lines = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  if (Array.isArray(gl) && gl.at(-1) === NO_FINAL_BREAK && jsonEqual(wl, gl.slice(0, -1)))
    return finding(
      `${TRANSCRIPT_DIR}/${name} holds the ${lines(wl)} lines expected, but its last line has no line break after it`,
      `every line of a transcript ends with a line break, the last one too: JSON.stringify(message) + '\\n' for each message, joined with nothing (join('\\n') leaves the last line without one)`,
      'transcript content',
    );
  return finding(
    `${TRANSCRIPT_DIR}/${name} holds ${count(lines(gl), 'line')} where ${wasOrWere(lines(wl))} expected: ${describeDifference(wl, gl)}`,
    `a transcript is the conversation as it stands when the loop compacts (micro-compacted, the round's results included), one JSON.stringify(message) per line: ${where}`,
    'transcript content',
  );
}

// What the working directory held before the loop ran, when the case put transcripts there.
function wereThere(data: CompactCaseData): string {
  const names = Object.keys(data.transcripts_before ?? {});
  return names.length === 0
    ? ''
    : ` (${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} there before the loop ran)`;
}

// The returned conversation holds whole the results its requests sent as placeholders.
function returnedFinding(want: unknown[] | undefined, got: unknown[] | undefined): CompactFinding | undefined {
  if (want === undefined || got === undefined || want.length !== got.length) return undefined;
  const w = resultSlots(want);
  const g = resultSlots(got);
  if (w.length !== g.length) return undefined;
  const kept = w.map((slot, i) => ({ w: slot, g: g[i]! })).filter(({ w, g }) => w.content !== g.content);
  if (kept.length === 0 || !kept.every(({ w, g }) => w.placeholder && !g.placeholder)) return undefined;
  return finding(
    `the conversation runCompactLoop returned has ${count(kept.length, 'tool_result')} whole that its requests sent as placeholders (${kept[0]!.w.id} first)`,
    'micro-compaction changes the conversation itself, not a copy sent: the loop goes on from, and returns, the conversation with its placeholders',
    'micro-compaction on a copy',
  );
}

// In a summary request cut short (its JSON no longer parses), a placeholder whose words differ where both have one.
function cutWording(n: number, w: string, g: string): CompactFinding | undefined {
  const at = [...w].findIndex((c, i) => c !== g[i]);
  const prefix = '[Previous: used ';
  const start = w.lastIndexOf(prefix, at);
  if (start < 0 || start + prefix.length > at || g.lastIndexOf(prefix, at) !== start) return undefined;
  const end = w.indexOf(']', start);
  // Past the placeholder's words (its block's is_error, say), the words are not what differs.
  if (end < 0 || at > end) return undefined;
  return finding(
    `the summary request (request ${n}) holds a placeholder ${short(g.slice(start, g.indexOf(']', start) + 1))} where the conversation has ${short(w.slice(start, end + 1))}`,
    `the placeholder is "[Previous: used <tool>]" with the tool's name from the tool_use the result answers: ${short(w.slice(start, end + 1))}`,
    'placeholder wording',
  );
}

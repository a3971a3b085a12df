// Hints for a user message of tool results that differs from the script's: results sent as Promises or without
// their type, a result missing, paired with the wrong id, out of order, carrying the wrong content (the whole
// ToolOutput, its JSON, blocks, nothing, another call's output: same-tool-results.ts), the ToolOutput spread into
// it, or is_error wrong. Pure.
import type { LoopCaseData } from '../case.ts';
import type { Feature, LoopHint } from './loop-features.ts';
import { count, jsonEqual } from '../../../grade/judge/compare-results.ts';
import { isEntry } from './loop-results.ts';
import { callText } from '../unasked-calls.ts';
import { sameToolHint } from './same-tool-results.ts';
import { skippedCallHint } from './skipped-call.ts';

type Json = Record<string, unknown>;

// What program.ts's scripted execute answers a call that is not the one the model asked for next: a later block's
// call made too early, or a call no block asks for.
const CALLED_EARLY = /^theinference's scripted execute: execute\(.*\) is tool_use \S+'s call, made before/s;
const SCRIPTED_REFUSAL = /^theinference's scripted execute: (execute\(.*?\)) (?:is not the call|was called, but no)/s;

const results = (message: unknown): Json[] =>
  isEntry(message) && Array.isArray(message.content)
    ? message.content.filter(isEntry).filter((b) => b.type === 'tool_result')
    : [];
const hint = (text: string, cause: string, shows: Feature, general?: string): LoopHint => ({
  text,
  cause,
  shows,
  ...(general === undefined ? {} : { general }),
});

// The hint for the tool results of turn `turn`: the script's message `e` against the loop's `r`.
// `earlier`: the messages the loop sent before `r`, in the same request.
export function toolResultHint(
  data: LoopCaseData,
  turn: number,
  e: unknown,
  r: unknown,
  earlier: unknown[] = [],
): LoopHint | undefined {
  const want = results(e);
  const got = results(r);
  if (want.length === 0) return undefined;
  const untyped = promiseHint(turn, r) ?? typeHint(turn, r);
  if (untyped !== undefined) return untyped;
  // A message that holds no results at all where the results were due is not a short answer: what differs says it.
  if (got.length === 0 && !(isEntry(r) && Array.isArray(r.content))) return undefined;
  if (got.length < want.length) {
    return hint(
      `turn ${turn} asked for ${count(want.length, 'tool call')}, and its user message answers ${got.length}: send one tool_result for every tool_use block of the turn`,
      'a tool_result missing',
      // Some of the turn's calls answered and not all: only a turn of several calls shows it.
      got.length > 0 ? 'parallel-turn' : 'tool-turn',
      "a turn's user message answers fewer tool calls than the turn asked for: send one tool_result for every tool_use block of the turn",
    );
  }
  const shared = sameToolHint(data, turn, want, got);
  for (const [j, w] of want.entries()) {
    const g = got[j]!;
    // One output for every call of a tool (the ids all right): where it first shows, before what the content alone
    // would say.
    if (shared !== undefined && g.content !== w.content) return shared;
    const found =
      idHint(turn, want, got, j) ??
      skippedCallHint(g, earlier.flatMap(results)) ??
      reusedHint(data, w, g, earlier.flatMap(results)) ??
      contentHint(data, w, g) ??
      spreadHint(data, w, g) ??
      isErrorHint(data, w, g);
    if (found !== undefined) return found;
  }
  return undefined;
}

function idHint(turn: number, want: Json[], got: Json[], j: number): LoopHint | undefined {
  const w = want[j]!;
  const g = got[j]!;
  if (g.tool_use_id === w.tool_use_id) return undefined;
  const ids = (list: Json[]) => list.map((b) => String(b.tool_use_id)).sort();
  if (JSON.stringify(ids(want)) === JSON.stringify(ids(got.slice(0, want.length)))) {
    return hint(
      `the tool results of turn ${turn} are out of order: answer its tool_use blocks in the order they came`,
      'tool results out of order',
      'parallel-turn',
      "a turn's tool results are out of order: answer its tool_use blocks in the order they came",
    );
  }
  return hint(
    `tool_result ${j + 1} of turn ${turn} has tool_use_id ${JSON.stringify(g.tool_use_id)}, but the tool_use it answers has id ${JSON.stringify(w.tool_use_id)}: set tool_use_id to the id of the block it answers (block.id)`,
    'tool_result paired with the wrong id',
    'tool-turn',
    "a tool_result's tool_use_id is not the id of the tool_use it answers: set tool_use_id to the id of the block it answers (block.id)",
  );
}

// Results that are `{}`: Promises (`content.map(async …)` not awaited), which JSON writes as empty objects.
function promiseHint(turn: number, r: unknown): LoopHint | undefined {
  const fix =
    'await each result before sending it: const results = await Promise.all(uses.map(async (block) => …)), or a for…of loop with await';
  // The whole content one Promise: `content: Promise.all(…)`, not awaited.
  if (isEntry(r) && isEntry(r.content) && Object.keys(r.content).length === 0) {
    return hint(
      `the user message answering turn ${turn} has content {} where an array of tool_result blocks is due: a Promise (JSON writes a Promise as {}), as content: Promise.all(…) without await gives; ${fix}`,
      'results sent as promises',
      'tool-turn',
      `a user message of results has content {} where an array of tool_result blocks is due: a Promise (JSON writes a Promise as {}); ${fix}`,
    );
  }
  const content = isEntry(r) && Array.isArray(r.content) ? r.content : [];
  if (content.length === 0 || !content.every((b) => isEntry(b) && Object.keys(b).length === 0)) return undefined;
  return hint(
    `the results of turn ${turn} went in as {}: each is a Promise, not a tool_result (JSON writes a Promise as {}); ${fix}`,
    'results sent as promises',
    'tool-turn',
    `a turn's results went in as {}: each is a Promise, not a tool_result (JSON writes a Promise as {}); ${fix}`,
  );
}

// A block that answers a tool_use (it has a tool_use_id) without `type: 'tool_result'`.
function typeHint(turn: number, r: unknown): LoopHint | undefined {
  const content = isEntry(r) && Array.isArray(r.content) ? r.content.filter(isEntry) : [];
  const odd = content.find((b) => 'tool_use_id' in b && b.type !== 'tool_result');
  if (odd === undefined) return undefined;
  const has = odd.type === undefined ? 'no type' : `type ${JSON.stringify(odd.type)}`;
  const shape = "{ type: 'tool_result', tool_use_id: block.id, content: output.content }";
  return hint(
    `a result of turn ${turn} has ${has}: each result is ${shape}`,
    'tool_result without its type',
    'tool-turn',
    `a tool result has ${has}: each result is ${shape}`,
  );
}

function contentHint(data: LoopCaseData, w: Json, g: Json): LoopHint | undefined {
  const own = data.outputs?.[String(w.tool_use_id)];
  const thrown = Object.entries(data.outputs ?? {}).find(
    ([id, o]) => id !== w.tool_use_id && 'throws' in o && o.throws === g.content,
  );
  if (thrown !== undefined && (own === undefined || !('throws' in own))) {
    return hint(
      `tool_use ${thrown[0]}'s execute threw, and the tool_result of ${String(w.tool_use_id)}, a call beside it whose execute did not throw, carries that error too: catch each execute call apart (a try/catch around each call), so one throw answers only its own tool_use`,
      'a throw given to the calls beside it',
      'throwing-output',
      "one execute's throw went into the tool_results of the calls beside it in the same turn: catch each execute call apart (a try/catch around each call), so one throw answers only its own tool_use",
    );
  }
  if (!('content' in g) && typeof w.content === 'string') {
    return hint(
      "a tool_result has no content: await execute's output before reading it, const output = await execute(block.name, block.input), then content: output.content",
      'tool_result without content',
      'tool-turn',
    );
  }
  if (Array.isArray(g.content) && typeof w.content === 'string') {
    return hint(
      "a tool_result's content went in as an array of blocks: send the output's text as it is, content: output.content",
      'content as blocks',
      'tool-turn',
    );
  }
  if (isEntry(g.content) && 'content' in g.content) {
    return hint(
      "the whole ToolOutput went in as the tool_result's content: send its text, content: output.content (and is_error: true only when output.is_error is)",
      'ToolOutput as content',
      'tool-turn',
    );
  }
  const text = typeof g.content === 'string' ? g.content : undefined;
  if (text !== undefined && text !== w.content && parsesToOutput(text)) {
    return hint(
      "the ToolOutput's JSON went in as the tool_result's content: send its text, content: output.content, not JSON.stringify(output)",
      'ToolOutput JSON as content',
      'tool-turn',
    );
  }
  if (CALLED_EARLY.test(text ?? '')) {
    return hint(
      "execute was called for a later tool_use before an earlier one: run a turn's tool_use blocks one after another, in the order they came (a tool may read what the one before it wrote)",
      'tools run out of order',
      'parallel-turn',
    );
  }
  const output = data.outputs?.[String(w.tool_use_id)];
  const refused = SCRIPTED_REFUSAL.exec(text ?? '');
  // The call refused is the very call of this tool_use, and its output throws: the loop called execute once, it
  // threw, and the loop called it again (a retry) instead of sending the throw as the result.
  if (refused !== null && output !== undefined && 'throws' in output && refused[1] === blockCall(data, w)) {
    return hint(
      `execute threw for tool_use ${String(w.tool_use_id)}, and your loop called it again as ${refused[1]}: a throw is that call's answer. Call execute once for each block, and send the error's message as its tool_result, with is_error: true`,
      'execute called again after a throw',
      'throwing-output',
      "your loop calls execute again when it throws: a throw is that call's answer. Call execute once for each block, and send the error's message as its tool_result, with is_error: true",
    );
  }
  const block = blockOf(data, w);
  if (refused !== null && block !== undefined && String(block.name) !== String(block.name).trim()) {
    const trimmed = callText({ tool: String(block.name).trim(), input: block.input });
    if (refused[1] === trimmed)
      return hint(
        `execute was called as ${refused[1]}, the name trimmed, where tool_use ${String(w.tool_use_id)} is named ${JSON.stringify(block.name)}: pass the name as it came, execute(block.name, block.input); the dispatcher decides what a name it does not know gets`,
        'tool name trimmed',
        'tool-turn',
        'your loop trims the tool name before it calls execute: pass the name as it came, execute(block.name, block.input); the dispatcher decides what a name it does not know gets',
      );
  }
  if (refused !== null) {
    return hint(
      `execute was called as ${refused[1]}: call it with the tool_use block's name and input, execute(block.name, block.input), once for each block`,
      'execute called with the wrong arguments',
      'tool-turn',
      "execute was not called with the tool_use block's name and input: call it as execute(block.name, block.input), once for each block",
    );
  }
  if (output !== undefined && 'throws' in output && text !== undefined && text !== output.throws) {
    return hint(
      `execute threw an Error whose message is ${JSON.stringify(output.throws)}: its tool_result's content is that message (error.message) alone, with is_error: true`,
      'a throw worded otherwise',
      'throwing-output',
      "a throw from execute went in as a tool_result whose content is not the error's message: send content: error.message alone, with is_error: true",
    );
  }
  return text === undefined || typeof w.content !== 'string' ? undefined : changedTextHint(w.content, text, w);
}

// A result answered with the output an earlier identical call got (a cache by name and input): its content is an
// earlier tool_result's, whose tool_use had the same name and input, and not this call's own output.
function reusedHint(data: LoopCaseData, w: Json, g: Json, before: Json[]): LoopHint | undefined {
  const call = blockCall(data, w);
  if (call === undefined || typeof g.content !== 'string' || g.content === w.content) return undefined;
  const same = before.find(
    (r) => r.tool_use_id !== w.tool_use_id && r.content === g.content && blockCall(data, r) === call,
  );
  if (same === undefined) return undefined;
  const fix =
    'call execute for every tool_use block, even one the model made before: the same call can answer otherwise the second time (a file changed in between)';
  return hint(
    `tool_use ${String(w.tool_use_id)}'s result is the output of an earlier identical call, ${call} (tool_use ${String(same.tool_use_id)}), not its own: ${fix}`,
    'an earlier output reused',
    'tool-turn',
    `your loop reuses the output of an earlier identical call instead of calling execute again: ${fix}`,
  );
}

// The call of the tool_use that `result` answers (a case's ids are its own), as the scripted execute words it.
function blockCall(data: LoopCaseData, result: Json): string | undefined {
  const block = blockOf(data, result);
  return block === undefined ? undefined : callText({ tool: String(block.name), input: block.input });
}

// The tool_use block that `result` answers.
function blockOf(data: LoopCaseData, result: Json): Json | undefined {
  return data.turns.flatMap((t) => t.message.content).find((b) => b.type === 'tool_use' && b.id === result.tool_use_id);
}

// The output's text changed on its way into the tool_result: as a JSON string, an empty one replaced, text put in
// front or after, trimmed, cut short. Each is what the two texts show, the output's as execute gave it.
function changedTextHint(want: string, got: string, w: Json): LoopHint | undefined {
  const send = "send the output's text as execute gave it, content: output.content";
  if (got === want) return undefined;
  if (got === JSON.stringify(want)) {
    return hint(
      `a tool_result's content is JSON.stringify(output.content): the output's text in quotes, its line breaks written as \\n. The model reads it as it comes: ${send}`,
      'content JSON-stringified',
      'tool-turn',
      `your loop turns execute's output into a string with JSON.stringify (quotes around it, its line breaks written as \\n): ${send}`,
    );
  }
  if (want === '') {
    return hint(
      `execute's output was empty (""), and its tool_result says ${JSON.stringify(got.slice(0, 60))}: ${send}, even when it is empty`,
      'empty output replaced',
      'empty-output',
      `your loop replaces an empty output with text of its own: ${send}, even when it is empty`,
    );
  }
  const error = w.is_error === true;
  const which = error ? "an error's output" : "the output's text";
  const ofErrors = error ? ' (is_error: true already tells the model it failed)' : '';
  if (got.endsWith(want) || got.startsWith(want)) {
    const [added, where] = got.endsWith(want)
      ? [got.slice(0, -want.length), 'in front of']
      : [got.slice(want.length), 'after'];
    return hint(
      `a tool_result's content is ${which} with ${JSON.stringify(added.slice(0, 60))} ${where} it: ${send}${ofErrors}`,
      error ? "text added to an error's output" : 'text added to the output',
      error ? 'error-output' : 'tool-turn',
      `your loop puts ${JSON.stringify(added.slice(0, 60))} ${where} ${which}: ${send}${ofErrors}`,
    );
  }
  if (got === want.trim() || got === want.trimEnd() || got === want.trimStart()) {
    return hint(
      `a tool_result's content is the output's text trimmed (its spaces or line breaks at an end taken off): ${send}`,
      'output trimmed',
      'tool-turn',
    );
  }
  if (got.length < want.length && want.startsWith(got)) {
    return hint(
      `a tool_result's content is the first ${got.length} characters of the output's ${want.length}: ${send}, all of it`,
      'output cut short',
      'tool-turn',
      `your loop cuts execute's output short: ${send}, all of it`,
    );
  }
  return cutWithNote(want, got, send);
}

// The output's start, then a few words of the loop's own in place of the rest ("… (truncated)"). The common start
// may run on past the cut by a character the note begins with too (its line break).
function cutWithNote(want: string, got: string, send: string): LoopHint | undefined {
  let kept = 0;
  while (kept < got.length && got[kept] === want[kept]) kept += 1;
  const note = got.slice(kept);
  if (kept === 0 || got.length >= want.length || note.length > 200) return undefined;
  return hint(
    `a tool_result's content is the first ${kept} characters of the output's ${want.length}, then ${JSON.stringify(note.slice(0, 60))}: ${send}, all of it`,
    'output cut short',
    'tool-turn',
    `your loop cuts execute's output short: ${send}, all of it`,
  );
}

// Fields of the ToolOutput beside the result's own: `{ type, tool_use_id, ...output }`. Only when each is a field
// of execute's output for this tool_use, with its value: a field of the loop's own (cache_control) is not spread.
function spreadHint(data: LoopCaseData, w: Json, g: Json): LoopHint | undefined {
  const extra = Object.keys(g).filter((k) => !['type', 'tool_use_id', 'content', 'is_error'].includes(k));
  const output: Json = data.outputs?.[String(w.tool_use_id)] ?? {};
  if (extra.length === 0 || !extra.every((k) => k !== 'delay_ms' && k in output && jsonEqual(output[k], g[k]))) {
    return undefined;
  }
  return hint(
    `a tool_result carries ${extra.map((k) => `\`${k}\``).join(', ')}, a field of the ToolOutput: build it from the output's content, { type: 'tool_result', tool_use_id: block.id, content: output.content } with is_error: true only when output.is_error is, not by spreading the output`,
    'ToolOutput spread into the result',
    'tool-turn',
  );
}

// The causes of is_error left off an error result: every one's, and a throw's only.
export const IS_ERROR_DROPPED = 'is_error dropped';
export const IS_ERROR_DROPPED_FOR_A_THROW = 'is_error dropped for a throw';

function isErrorHint(data: LoopCaseData, w: Json, g: Json): LoopHint | undefined {
  const output = data.outputs?.[String(w.tool_use_id)];
  if (w.is_error === true && g.is_error !== true && output !== undefined && 'throws' in output) {
    return hint(
      "execute threw for this tool, and its tool_result has no is_error: true: the result of a throw is { type: 'tool_result', tool_use_id: block.id, content: error.message, is_error: true }",
      IS_ERROR_DROPPED_FOR_A_THROW,
      'throwing-output',
    );
  }
  if (w.is_error === true && g.is_error !== true) {
    return hint(
      'the output of this tool has is_error: true, and its tool_result does not: set is_error: true on the tool_result when output.is_error is true',
      IS_ERROR_DROPPED,
      'error-output',
      'a tool output has is_error: true, and its tool_result does not: set is_error: true on the tool_result when output.is_error is true',
    );
  }
  if (w.is_error === undefined && g.is_error === true && output !== undefined && 'is_error' in output) {
    // Set from something else than output.is_error (false here): its content read as an error (starts with "Error").
    const held = `is_error: ${JSON.stringify(output.is_error)}`;
    return hint(
      `this tool's output has ${held}, and its tool_result has is_error: true: is_error comes from output.is_error alone, never from what the content says; add is_error: true only when output.is_error is true, and no is_error key otherwise`,
      'is_error always set',
      'tool-turn',
      'a tool output without is_error: true got a tool_result with is_error: true: is_error comes from output.is_error alone, never from what the content says',
    );
  }
  if (w.is_error === undefined && g.is_error !== undefined && output !== undefined && 'is_error' in output) {
    // The output said is_error: false, and the loop passed it on (is_error: output.is_error).
    return hint(
      `this tool's output has is_error: ${JSON.stringify(output.is_error)}, and its tool_result has is_error: ${JSON.stringify(g.is_error)}: a tool_result carries is_error only when it is true (is_error: output.is_error copies a false); add is_error: true only when output.is_error is true, and no is_error key otherwise`,
      'is_error always set',
      'tool-turn',
      'a tool output with is_error: false got a tool_result with an is_error key: add is_error: true only when output.is_error is true, and no is_error key otherwise',
    );
  }
  if (w.is_error === undefined && g.is_error !== undefined) {
    return hint(
      `this tool's output has no is_error, and its tool_result has is_error: ${JSON.stringify(g.is_error)}: add is_error: true only when output.is_error is true, and no is_error key otherwise`,
      'is_error always set',
      'tool-turn',
      'a tool output with no is_error got a tool_result with an is_error key: add is_error: true only when output.is_error is true, and no is_error key otherwise',
    );
  }
  return undefined;
}

function parsesToOutput(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return isEntry(value) && typeof value.content === 'string';
  } catch {
    return false;
  }
}

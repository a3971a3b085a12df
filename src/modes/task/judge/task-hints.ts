// Hints for the task mode: the mistake of this stage behind where a task loop first went another way, read off what
// it sent (the requests whole, whose each is: request-owners.ts) and how it ended, said in the student's terms
// (test/fixtures/wrong-task/ is the catalogue each must name). A difference no recogniser proves a cause for gets no
// hint: the message says what differs. Pure.
import type { Hint } from '../../../grade/judge/hints.ts';
import { jsonEqual, short } from '../../../grade/judge/compare-results.ts';
import {
  isEntry,
  type LoopRun,
  requestChangedOf,
  requestOf,
  threwOf,
  unaskedCallsOf,
} from '../../loop/judge/loop-results.ts';
import { NO_SUMMARY, SUBAGENT_MAX_ROUNDS, SUBAGENT_SYSTEM, TASK_TOOL, TEXT_JOIN, type TaskCaseData } from '../case.ts';
import type { Owner } from './request-owners.ts';
import { taskApiErrorHint } from './api-error-hint.ts';

// Where the loop first differs (as the loop mode's context says it), whose each request is, and both runs whole.
export type TaskHintContext = {
  data: TaskCaseData;
  owners: Owner[];
  want: LoopRun;
  got: LoopRun;
  at: 'request' | 'extra' | 'missing' | 'end';
  index: number;
  expected: unknown;
  received: unknown;
};

type Json = Record<string, unknown>;
type Recogniser = (ctx: TaskHintContext) => Hint | undefined;

const DOC = 'node_modules/theinference/docs/stages/delegate-task.md';
const STUB = /runTaskLoop is not written yet/;
const REFUSED_TASK = /^theinference's scripted execute: execute\("task"/;
const REFUSED_UNRUN = /a call the case gives no output for: the contract never runs it$/;

const hint = (text: string, cause: string): Hint => ({ text, cause });
const blocks = (message: unknown): Json[] =>
  isEntry(message) && Array.isArray(message.content) ? message.content.filter(isEntry) : [];
const messagesOf = (request: unknown): unknown[] => {
  const m = requestOf(request)?.messages;
  return Array.isArray(m) ? m : [];
};
const toolNames = (request: unknown): unknown[] => {
  const tools = requestOf(request)?.tools;
  return Array.isArray(tools) ? tools.map((t) => (isEntry(t) ? t.name : undefined)) : [];
};
// Every tool_result the loop sent, in every request, and in the conversation it returned.
function resultsSent(run: LoopRun): Json[] {
  const returned = isEntry(run.end) && Array.isArray(run.end.returned) ? run.end.returned : [];
  return [...run.requests.flatMap(messagesOf), ...returned].flatMap(blocks).filter((b) => b.type === 'tool_result');
}
const text = (content: unknown): string | undefined => (typeof content === 'string' ? content : undefined);
const contentOf = (message: unknown): unknown => (isEntry(message) ? message.content : undefined);

function stillTheStub(ctx: TaskHintContext): Hint | undefined {
  if (!STUB.test(threwOf(ctx.got.end) ?? '')) return undefined;
  return hint(
    `src/task-loop.ts is still the stub \`theinference init\` wrote: write runTaskLoop (the course page "Delegate to a subagent"; ${DOC})`,
    'the stub',
  );
}

// execute was given the task call: the scripted execute refuses it, and its refusal shows in a result or the end.
function taskToExecute(ctx: TaskHintContext): Hint | undefined {
  const refused =
    resultsSent(ctx.got).some((b) => REFUSED_TASK.test(text(b.content) ?? '')) ||
    (unaskedCallsOf(ctx.got.end) ?? []).some((c) => c.tool === TASK_TOOL);
  if (!refused) return undefined;
  return hint(
    `the task call went to execute: \`${TASK_TOOL}\` is the loop's own tool. For a tool_use named "${TASK_TOOL}", run a child loop and send its final text as the tool_result; every other tool goes through execute`,
    'task passed to execute',
  );
}

// A child's request, where the parent's next one should have come (or the other way round): which of them.
function childRequest(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'request') return undefined;
  const owner = ctx.owners[ctx.index];
  const sent = ctx.got.requests[ctx.index];
  const expected = ctx.want.requests[ctx.index];
  if (owner?.who !== 'child') return undefined;
  const got = messagesOf(sent);
  const prompt = owner.prompt;
  const parentFirst = ctx.data.request.messages[0];
  const early = parentWhereChild(ctx, owner, sent);
  if (early !== undefined) return early;
  if (got.length > 1 && parentFirst !== undefined && got.some((m) => jsonEqual(m, parentFirst))) {
    return hint(
      `the child's first request carries the parent's conversation (${got.length} messages): a child starts fresh, its messages [{ role: 'user', content: input.prompt }] and nothing of the parent's`,
      "child given the parent's conversation",
    );
  }
  if (toolNames(sent).includes(TASK_TOOL) && !toolNames(expected).includes(TASK_TOOL)) {
    return hint(
      `the child's request offers the \`${TASK_TOOL}\` tool: a child never spawns children, so its tools are the parent's without it, request.tools.filter((t) => t.name !== '${TASK_TOOL}')`,
      'task left in the child tools',
    );
  }
  const fields = (['model', 'max_tokens'] as const).filter(
    (k) =>
      !jsonEqual(requestOf(sent)?.[k], ctx.data.request[k]) && jsonEqual(requestOf(expected)?.[k], ctx.data.request[k]),
  );
  if (fields.length > 0) {
    const values = fields.map((k) => `\`${k}\` ${short(requestOf(sent)?.[k])}, not ${short(ctx.data.request[k])}`);
    return hint(
      `the child's request has ${values.join(' and ')}: a child sends the parent's model and max_tokens (request.model, request.max_tokens)`,
      'child model or max_tokens',
    );
  }
  const system = requestOf(sent)?.system;
  if (!jsonEqual(system, SUBAGENT_SYSTEM)) {
    const what =
      system === undefined
        ? 'has no system prompt'
        : jsonEqual(system, ctx.data.request.system)
          ? "has the parent's system prompt"
          : `has the system prompt ${short(system)}`;
    return hint(
      `the child's request ${what}: every request of a child sends the subagent's own, the page's SUBAGENT_SYSTEM: "${SUBAGENT_SYSTEM}"`,
      'child system prompt',
    );
  }
  const first = got[0];
  const content = isEntry(first) ? first.content : undefined;
  if (owner.round === 1 && got.length === 1 && typeof prompt === 'string' && !jsonEqual(content, prompt)) {
    const why = Array.isArray(content)
      ? 'as blocks: send it as the string it is'
      : typeof content === 'string' && content.includes(prompt)
        ? 'with more than the prompt (the description?): the prompt alone'
        : 'not as the model gave it';
    return hint(
      `the child's first message holds the prompt ${why}, { role: 'user', content: input.prompt }`,
      'child first message',
    );
  }
  const earlierChild = ctx.owners.find(
    (o) =>
      o.who === 'child' &&
      o.task !== owner.task &&
      o.round === 1 &&
      ctx.owners.indexOf(o) < ctx.index &&
      isEntry(first) &&
      jsonEqual(first.content, o.prompt),
  );
  if (owner.round === 1 && got.length > 1 && earlierChild !== undefined && jsonEqual(contentOf(got.at(-1)), prompt)) {
    return hint(
      `the child's first request carries an earlier child's conversation (task ${earlierChild.who === 'child' ? earlierChild.task : ''}) before its own prompt: each task call's child starts fresh, a new array [{ role: 'user', content: input.prompt }]`,
      'child conversation shared between task calls',
    );
  }
  const otherChild = ctx.owners.find(
    (o) => o.who === 'child' && o.task !== owner.task && isEntry(first) && jsonEqual(first.content, o.prompt),
  );
  if (otherChild !== undefined) {
    return hint(
      `this request is another task call's child (task ${otherChild.who === 'child' ? otherChild.task : ''}): run a turn's task calls one after another, in the blocks' order, each child to its end before the next starts`,
      'children out of order',
    );
  }
  const parentTools = toolNames(sent).includes(TASK_TOOL) && jsonEqual(got[0], parentFirst);
  if (parentTools) {
    return hint(
      `the parent called the model again where a child should have: a task call runs a child loop (a fresh conversation, the prompt alone) before the parent's next request`,
      'no child ran',
    );
  }
  return undefined;
}

// The parent's next request, where the contract has the child's: sent with the parent's tools and its conversation,
// the task call's result last. A child stopped before its turn stopped it (a round cap counted short, or a stop
// decided by something but stop_reason), or none ran at all.
function parentWhereChild(
  ctx: TaskHintContext,
  owner: Extract<TaskHintContext['owners'][number], { who: 'child' }>,
  sent: unknown,
): Hint | undefined {
  if (!isParentsNext(ctx, owner, sent)) return undefined;
  if (owner.round === 1)
    return hint(
      `the parent called the model again where a child should have: a task call runs a child loop (a fresh conversation, the prompt alone) before the parent's next request`,
      'no child ran',
    );
  const stopped = ctx.data.turns[ctx.index - 1]?.message.stop_reason;
  return hint(
    `the child stopped after its request ${owner.round - 1}, whose turn has stop_reason ${JSON.stringify(stopped)}, and the parent went on: a child goes on while its turns stop for "tool_use", and stops at the first that does not or at its ${SUBAGENT_MAX_ROUNDS}th turn (${SUBAGENT_MAX_ROUNDS} requests, not fewer)`,
    'child stopped early',
  );
}

// A request sent with the parent's tools and its conversation, the task call's result last: the parent's next.
function isParentsNext(ctx: TaskHintContext, owner: Extract<Owner, { who: 'child' }>, sent: unknown): boolean {
  const got = messagesOf(sent);
  const parent = ctx.data.request.messages;
  return (
    toolNames(sent).includes(TASK_TOOL) &&
    got.length > parent.length &&
    parent.every((m, i) => jsonEqual(m, got[i])) &&
    blocks(got.at(-1)).some((b) => b.type === 'tool_result' && b.tool_use_id === owner.task)
  );
}

// Where a child ran some of its requests and the loop then sent the parent's next request instead of the child's:
// the task, how many requests the child sent, how many the contract's child sends, and the stop_reason of the turn
// the child stopped after. Undefined otherwise.
export type ChildCutShort = { task: string; sent: number; contract: number; stopReason: unknown };
export function childCutShort(ctx: TaskHintContext): ChildCutShort | undefined {
  if (ctx.at !== 'request') return undefined;
  const owner = ctx.owners[ctx.index];
  if (owner?.who !== 'child' || owner.round === 1 || !isParentsNext(ctx, owner, ctx.got.requests[ctx.index]))
    return undefined;
  const contract = ctx.owners.filter((o) => o.who === 'child' && o.child === owner.child).length;
  const stopReason = ctx.data.turns[ctx.index - 1]?.message.stop_reason;
  return { task: owner.task, sent: owner.round - 1, contract, stopReason };
}

// The parent's request lost the task tool once a child ran: the child's tools were made from request.tools in place
// (the end says the request changed).
function taskToolLost(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at === 'end') return taskToolLostAtEnd(ctx);
  if (ctx.at !== 'request' || ctx.owners[ctx.index]?.who !== 'parent') return undefined;
  const lost =
    toolNames(ctx.want.requests[ctx.index]).includes(TASK_TOOL) &&
    !toolNames(ctx.got.requests[ctx.index]).includes(TASK_TOOL);
  if (!lost) return undefined;
  const changed = requestChangedOf(ctx.got.end);
  const inPlace =
    changed !== undefined && 'tools' in changed ? ', and runTaskLoop ended with request.tools changed' : '';
  return hint(
    `the parent's request has no \`${TASK_TOOL}\` tool since a child ran${inPlace}: leave request.tools as given and make the child's a new array, request.tools.filter((t) => t.name !== '${TASK_TOOL}')`,
    'task removed from the request',
  );
}

// No parent request came after a child (an API error left the loop), and request.tools lost its `task` tool: the
// child's tools made from it in place.
function taskToolLostAtEnd(ctx: TaskHintContext): Hint | undefined {
  const tools = requestChangedOf(ctx.got.end)?.tools;
  const given = ctx.data.request.tools.map((t) => t.name);
  if (!Array.isArray(tools) || !given.includes(TASK_TOOL) || !ctx.owners.some((o) => o.who === 'child'))
    return undefined;
  if (tools.some((t) => isEntry(t) && t.name === TASK_TOOL)) return undefined;
  return hint(
    `runTaskLoop ended with request.tools without the \`${TASK_TOOL}\` tool, as a child left it: leave request.tools as given and make the child's a new array, request.tools.filter((t) => t.name !== '${TASK_TOOL}')`,
    'task removed from the request',
  );
}

// The parent's request after a child, where what the child gave back differs.
function childResult(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'request') return undefined;
  const owner = ctx.owners[ctx.index];
  const before = ctx.owners[ctx.index - 1];
  if (owner?.who !== 'parent' || before?.who !== 'child') return undefined;
  const sent = messagesOf(ctx.got.requests[ctx.index]);
  if (isEntry(sent[0]) && jsonEqual(sent[0].content, before.prompt)) {
    const last = ctx.data.turns[ctx.index - 1]?.message.stop_reason;
    return before.round >= SUBAGENT_MAX_ROUNDS && last === 'tool_use'
      ? hint(
          `the child sent a request after its ${SUBAGENT_MAX_ROUNDS}th: a child sends at most ${SUBAGENT_MAX_ROUNDS}, and stops after the ${SUBAGENT_MAX_ROUNDS}th turn whatever its stop_reason, its tools not run`,
          'round cap',
        )
      : undefined;
  }
  const expected = messagesOf(ctx.want.requests[ctx.index]);
  const answer = (messages: unknown[]) =>
    blocks(messages.at(-1)).find((b) => b.type === 'tool_result' && b.tool_use_id === before.task);
  const want = answer(expected);
  const got = answer(sent);
  if (sent.length > expected.length && want !== undefined) {
    return hint(
      `the parent's request holds ${sent.length - expected.length} messages more than it should: the child's conversation stays the child's; only its final text reaches the parent, as the task call's tool_result`,
      "child's messages in the parent",
    );
  }
  if (want === undefined || got === undefined || jsonEqual(want, got)) return undefined;
  const wanted = text(want.content) ?? '';
  const content = got.content;
  if (got.is_error !== undefined && want.is_error === undefined) {
    return hint(
      `the task's tool_result has is_error: ${short(got.is_error)}: a child that ends, for any stop_reason, gives its text as a plain result, without is_error`,
      'task result is_error',
    );
  }
  if (typeof content === 'string' && blocksIn(content)) {
    return hint(
      `the task's result is the blocks of the child's last turn, as JSON: it is their text alone, the text blocks' \`text\` joined with ${JSON.stringify(TEXT_JOIN)}`,
      'child blocks returned as JSON',
    );
  }
  if (typeof content === 'string' && conversationIn(content)) {
    return hint(
      "the task's result is the child's conversation, as JSON: only the text of the child's last turn comes back, the text blocks joined with \"\\n\"",
      'child conversation returned',
    );
  }
  if (wanted === NO_SUMMARY && content !== NO_SUMMARY) {
    return hint(
      `the child's last turn has no text, and the task's result is ${short(content)}: when the text blocks of its last turn join to "", the result is the page's placeholder "${NO_SUMMARY}"`,
      'no-text placeholder',
    );
  }
  if (typeof content !== 'string') {
    return hint(
      `the task's result went in as ${Array.isArray(content) ? 'an array' : typeof content}: it is one string, the text blocks of the child's last turn joined with ${JSON.stringify(TEXT_JOIN)}`,
      'task result not a string',
    );
  }
  if (content !== wanted && content.trim() === wanted.trim()) {
    return hint(
      `the child's final text comes back changed at its ends (${JSON.stringify(content.slice(0, 12))}… where the child wrote ${JSON.stringify(wanted.slice(0, 12))}…): the result is the text as the child wrote it, nothing trimmed or added`,
      'final text trimmed',
    );
  }
  return childTurnHint(ctx, before.task, content, wanted);
}

// The task's result, a string, is some of the child's text but not its last turn's, joined: which of it.
function childTurnHint(ctx: TaskHintContext, task: unknown, content: string, wanted: string): Hint | undefined {
  const childTurns = ctx.owners
    .map((o, k) => (o.who === 'child' && o.task === task ? ctx.data.turns[k]?.message : undefined))
    .filter((m) => m !== undefined);
  const textsOf = (m: { content: Json[] }) => m.content.filter((b) => b.type === 'text').map((b) => String(b.text));
  const earlier = childTurns.slice(0, -1).findIndex((m) => {
    const t = textsOf(m);
    return t.length > 0 && t.join(TEXT_JOIN) === content;
  });
  if (earlier >= 0) {
    return hint(
      `the task's result is the text of the child's turn ${earlier + 1}, not of its last (turn ${childTurns.length}): the result is the text of the turn the child stopped on`,
      'not the last turn',
    );
  }
  if (content.length > wanted.length && content.includes(wanted)) {
    return hint(
      `the task's result holds more than the child's last turn's text (${content.length} characters where ${wanted.length} were expected): nothing else of the child's conversation reaches the parent`,
      'more than the final text',
    );
  }
  const lastTexts = childTurns.length === 0 ? [] : textsOf(childTurns.at(-1)!);
  const kept = lastTexts.indexOf(content);
  if (lastTexts.length > 1 && kept >= 0) {
    return hint(
      `the task's result is text block ${kept + 1} of the ${lastTexts.length} in the child's last turn: it is all of them, their \`text\` joined with ${JSON.stringify(TEXT_JOIN)}, in order`,
      'text blocks joined',
    );
  }
  if (lastTexts.length > 1 && content.replace(/\s/g, '') === wanted.replace(/\s/g, '')) {
    return hint(
      `the child's last turn has ${lastTexts.length} text blocks, joined otherwise than the page says: join them with ${JSON.stringify(TEXT_JOIN)}`,
      'text blocks joined',
    );
  }
  return undefined;
}

// Whether a result is a turn's content as JSON: an array of blocks (text, thinking, tool_use), none a message.
function blocksIn(content: string): boolean {
  if (!content.startsWith('[')) return false;
  try {
    const value: unknown = JSON.parse(content);
    return Array.isArray(value) && value.length > 0 && value.every((b) => isEntry(b) && typeof b.type === 'string');
  } catch {
    return false;
  }
}

// Whether a result is a conversation's JSON: an array of messages, as JSON.stringify writes them.
function conversationIn(content: string): boolean {
  if (!content.startsWith('[')) return false;
  try {
    const value: unknown = JSON.parse(content);
    return Array.isArray(value) && value.length > 0 && value.every((m) => isEntry(m) && typeof m.role === 'string');
  } catch {
    return false;
  }
}

// A child's request after a parent turn that ended the loop (its stop_reason not "tool_use"), a task call in it.
function childAfterStop(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'extra') return undefined;
  const first = messagesOf(ctx.got.requests[ctx.index])[0];
  const last = ctx.data.turns[ctx.want.requests.length - 1]?.message;
  if (last === undefined || last.stop_reason === 'tool_use' || !isEntry(first)) return undefined;
  const call = last.content.find(
    (b) =>
      b.type === 'tool_use' && b.name === TASK_TOOL && isEntry(b.input) && jsonEqual(b.input.prompt, first.content),
  );
  if (call === undefined) return undefined;
  return hint(
    `the parent's last turn stopped with stop_reason ${JSON.stringify(last.stop_reason)}, and a child ran for its task call all the same: decide by stop_reason first; only "tool_use" runs a turn's calls, task ones included`,
    'task run after the loop ended',
  );
}

// The parent's next request never came, or came too soon: the child went on where it stops, or stopped too soon.
function childEnded(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'end') return undefined;
  const unrun = resultsSent(ctx.got).some((b) => REFUSED_UNRUN.test(text(b.content) ?? ''));
  const unasked =
    (unaskedCallsOf(ctx.got.end) ?? []).length > 0 &&
    ctx.owners.some((o) => o.who === 'child' && o.round >= SUBAGENT_MAX_ROUNDS);
  if (unrun || unasked) {
    return hint(
      `the child ran the tools of its ${SUBAGENT_MAX_ROUNDS}th turn: a child stops after ${SUBAGENT_MAX_ROUNDS} rounds whatever the turn's stop_reason, and runs no tool of that turn (no request would carry their results)`,
      'round cap',
    );
  }
  return undefined;
}

// runTaskLoop threw what the scripted execute threw for a child's call: the child let a tool's throw out.
function childThrowEscaped(ctx: TaskHintContext): Hint | undefined {
  const threw = threwOf(ctx.got.end);
  // The snapshot may end in a throw of its own (the case's API error): never one of execute's.
  if (threw === undefined || threw === threwOf(ctx.want.end)) return undefined;
  const outputs = Object.values(ctx.data.outputs ?? {}) as unknown[];
  const thrown = outputs.flatMap((o) => (isEntry(o) && typeof o.throws === 'string' ? [o.throws] : []));
  const which = thrown.find((message) => threw.includes(message));
  if (which === undefined) return undefined;
  return hint(
    `runTaskLoop threw ${JSON.stringify(which)}, which execute threw for a call: a throw is an error result, { type: 'tool_result', tool_use_id: block.id, content: error.message, is_error: true }, in a child as in the parent, and the loop goes on`,
    'execute throw not caught',
  );
}

// runTaskLoop changed the request it was given: the child's tools or messages made from it in place.
function requestChanged(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'end') return undefined;
  const changed = requestChangedOf(ctx.got.end);
  if (changed === undefined || requestChangedOf(ctx.want.end) !== undefined) return undefined;
  return hint(
    `runTaskLoop changed the request it was given (${Object.keys(changed)
      .map((k) => `\`${k}\``)
      .join(
        ', ',
      )}): the request is the caller's; make the child's tools and each conversation new arrays (request.tools.filter(…), [...request.messages])`,
    'request changed',
  );
}

// A turn's tool_results, the task calls' among them, sent in another order than their tool_use blocks came (the
// task calls' results put after the others, say): the first message the request sends otherwise holds the same
// results, by tool_use_id, in another order.
function resultsOutOfOrder(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'request') return undefined;
  const [want, got] = [messagesOf(ctx.want.requests[ctx.index]), messagesOf(ctx.got.requests[ctx.index])];
  const k = want.findIndex((m, i) => !jsonEqual(m, got[i]));
  const ids = (message: unknown): string[] =>
    blocks(message)
      .filter((b) => b.type === 'tool_result')
      .map((b) => String(b.tool_use_id));
  const [w, g] = [ids(want[k]), ids(got[k])];
  if (k < 0 || w.length < 2 || jsonEqual(w, g) || !jsonEqual([...w].sort(), [...g].sort())) return undefined;
  return hint(
    `the tool results of message ${k + 1} are out of order: answer a turn's tool_use blocks in the order they came, each result at its block's place, the ${TASK_TOOL} calls' among them (${g.join(', ')} where ${w.join(', ')} were expected)`,
    'tool results out of order',
  );
}

// A throw of execute's sent as other words than its message (String(error) gives "Error: …"), in a parent's turn or
// a child's: the first message the request sends otherwise has a tool_result for a call the case scripts to throw,
// whose content is not the thrown message.
function throwWorded(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'request') return undefined;
  const [want, got] = [messagesOf(ctx.want.requests[ctx.index]), messagesOf(ctx.got.requests[ctx.index])];
  const k = want.findIndex((m, i) => !jsonEqual(m, got[i]));
  if (k < 0) return undefined;
  const sent = new Map(blocks(got[k]).map((b) => [String(b.tool_use_id), b.content]));
  for (const w of blocks(want[k])) {
    const scripted = ctx.data.outputs?.[String(w.tool_use_id)];
    const content = sent.get(String(w.tool_use_id));
    if (w.type !== 'tool_result' || scripted === undefined || !('throws' in scripted)) continue;
    if (typeof content !== 'string' || content === scripted.throws) continue;
    return hint(
      `execute threw an Error whose message is ${JSON.stringify(scripted.throws)}, and its tool_result's content is ${short(content, 80)}: a throw is an error result whose content is the error's message alone (error.message), with is_error: true, in a child's loop as in the parent's`,
      'a throw worded otherwise',
    );
  }
  return undefined;
}

// The parent's conversation returned with a child's in it.
function childInReturned(ctx: TaskHintContext): Hint | undefined {
  if (ctx.at !== 'end') return undefined;
  const want = isEntry(ctx.want.end) && Array.isArray(ctx.want.end.returned) ? ctx.want.end.returned : undefined;
  const got = isEntry(ctx.got.end) && Array.isArray(ctx.got.end.returned) ? ctx.got.end.returned : undefined;
  if (want === undefined || got === undefined || got.length <= want.length) return undefined;
  const prompts = ctx.owners.flatMap((o) => (o.who === 'child' ? [o.prompt] : []));
  if (!got.some((m) => isEntry(m) && prompts.some((p) => jsonEqual(m.content, p)))) return undefined;
  return hint(
    "the conversation runTaskLoop returned holds a child's messages: return the parent's conversation only; a child's ends with it",
    "child's messages in the parent",
  );
}

const RECOGNISERS: Recogniser[] = [
  stillTheStub,
  taskApiErrorHint,
  taskToExecute,
  childThrowEscaped,
  childEnded,
  childAfterStop,
  childRequest,
  resultsOutOfOrder,
  throwWorded,
  childResult,
  taskToolLost,
  requestChanged,
  childInReturned,
];

export function taskHintFor(ctx: TaskHintContext): Hint | undefined {
  for (const recognise of RECOGNISERS) {
    const found = recognise(ctx);
    if (found !== undefined) return found;
  }
  return undefined;
}

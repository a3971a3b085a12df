// The hints of the stage "Plan with a todo list": where a plan loop's request (or the conversation it returned)
// first differs from the snapshot's, read as a mistake of the nag or of the todo handler, each claim one the
// results prove. Undefined when the difference is not there (the loop mode's hints then speak: a loop mistake).
// Pure.
import { count, jsonEqual } from '../../../grade/judge/compare-results.ts';
import type { LoopCaseData } from '../../loop/case.ts';
import {
  isEntry,
  type LoopRun,
  requestOf,
  returnedOf,
  threwOf,
  unaskedCallsOf,
} from '../../loop/judge/loop-results.ts';
import { likeReminder } from './as-loop.ts';
import { REMINDER_TEXT, ROUNDS_BEFORE_NAG, TODO_TOOL, UNCHANGED } from '../case.ts';

export type PlanHint = { text: string; cause: string };

type Block = Record<string, unknown>;

const REMINDER_BLOCK = `{ type: 'text', text: '${REMINDER_TEXT}' }`;

// The hint for the first place the two runs differ, when it is the nag's or the handler's.
export function planHint(data: LoopCaseData, want: LoopRun, got: LoopRun): PlanHint | undefined {
  const thrown = handlerThrew(want, got);
  if (thrown !== undefined) return thrown;
  if ((unaskedCallsOf(got.end) ?? []).some((call) => call.tool === TODO_TOOL)) return TODO_PASSED_ON;
  const [e, r] = firstConversations(want, got);
  if (e === undefined || r === undefined) return undefined;
  const at = e.findIndex((m, k) => !jsonEqual(m, r[k]));
  if (at < 0) return undefined;
  const expected = e[at];
  const received = r[at];
  if (!isEntry(expected) || expected.role !== 'user' || !Array.isArray(expected.content)) return undefined;
  const round = roundOf(data, e, at);
  if (!isEntry(received) || received.role !== 'user' || !Array.isArray(received.content))
    return reminderAlone(received, r[at + 1]);
  const content = received.content as Block[];
  return (
    passedOn(content) ??
    nagHint(expected.content as Block[], content, round, roundsOf(data, lastConversation(got) ?? r), r[at + 1]) ??
    todoHint(e, at, content)
  );
}

// A todo call answered by the scripted execute: the loop passed it on.
function passedOn(content: Block[]): PlanHint | undefined {
  const refused = content.some(
    (b) =>
      b.type === 'tool_result' &&
      typeof b.content === 'string' &&
      b.content.startsWith(`theinference's scripted execute: execute("${TODO_TOOL}"`),
  );
  return refused ? TODO_PASSED_ON : undefined;
}

const TODO_PASSED_ON: PlanHint = {
  text: `the todo call went to execute: the loop answers a tool_use named "${TODO_TOOL}" with its own handler, and passes every other call to execute`,
  cause: 'todo calls passed to execute',
};

// The loop threw where the snapshot has a todo call refused: the handler threw what it should have answered.
function handlerThrew(want: LoopRun, got: LoopRun): PlanHint | undefined {
  const threw = threwOf(got.end);
  if (threw === undefined) return undefined;
  const all = lastConversation(want) ?? [];
  const refusals = all.flatMap((m) =>
    isEntry(m) && m.role === 'user' && Array.isArray(m.content)
      ? (m.content as Block[]).filter((b) => b.type === 'tool_result' && b.is_error === true)
      : [],
  );
  const reason = refusals.map((b) => reasonOf(String(b.content))).find((why) => why !== '' && threw.includes(why));
  if (reason === undefined) return undefined;
  return {
    text: `runPlanLoop threw "${reason}" where the todo handler refuses a call: return it as the call's result, { type: 'tool_result', tool_use_id: block.id, content: 'Error: … ${UNCHANGED} …', is_error: true }, never a throw, and go on`,
    cause: 'the todo handler throws',
  };
}

// The longest conversation of a run: the one it returned, else its last request's.
function lastConversation(run: LoopRun): unknown[] | undefined {
  return returnedOf(run.end) ?? messagesOf(run.requests.at(-1));
}

// The first request (or else the returned conversation) where the runs differ, as its two lists of messages.
function firstConversations(want: LoopRun, got: LoopRun): [unknown[] | undefined, unknown[] | undefined] {
  for (let k = 0; k < want.requests.length; k += 1) {
    if (jsonEqual(want.requests[k], got.requests[k])) continue;
    return [messagesOf(want.requests[k]), messagesOf(got.requests[k])];
  }
  return [returnedOf(want.end), returnedOf(got.end)];
}

function messagesOf(entry: unknown): unknown[] | undefined {
  const messages = requestOf(entry)?.messages;
  return Array.isArray(messages) ? messages : undefined;
}

// Where the results message `at` stands: the model's turn it answers, the rounds in a row without a todo call
// (it included), and the last turn before it that called todo.
type Round = { turn: number; without: number; lastTodo?: number };

function roundOf(data: LoopCaseData, conversation: unknown[], at: number): Round {
  const first = data.request.messages.length;
  let without = 0;
  let turn = 0;
  let lastTodo: number | undefined;
  for (let k = first; k < at; k += 1) {
    const m = conversation[k];
    if (!isEntry(m) || m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    turn += 1;
    const todo = (m.content as Block[]).some((b) => b.type === 'tool_use' && b.name === TODO_TOOL);
    without = todo ? 0 : without + 1;
    if (todo) lastTodo = turn;
  }
  return { turn, without, ...(lastTodo === undefined ? {} : { lastTodo }) };
}

const isReminder = (b: unknown): boolean => isEntry(b) && b.type === 'text' && b.text === REMINDER_TEXT;
const mentionsReminder = (b: unknown): boolean => isEntry(b) && b.type === 'text' && likeReminder(b);

// A user message of its own where the round's results were expected: the reminder sent apart from them.
function reminderAlone(received: unknown, next: unknown): PlanHint | undefined {
  if (!isEntry(received) || received.role !== 'user') return undefined;
  const content = received.content;
  const alone =
    likeReminder(content) || (Array.isArray(content) && content.length > 0 && content.every(mentionsReminder));
  if (!alone) return undefined;
  const then = isEntry(next) && next.role === 'user' ? ' before the message of results' : '';
  return {
    text: `the reminder went in a user message of its own${then}: put ${REMINDER_BLOCK} last in the user message that carries the round's tool results, after them`,
    cause: 'the reminder sent as a message of its own',
  };
}

// Each round of a conversation as the loop answered it: its turn, the rounds in a row without a todo call (it
// included), whether it called todo, and whether its results carry the reminder.
// `calls`: the tool_use blocks of the turn.
type Answered = { turn: number; without: number; todo: boolean; reminded: boolean; calls: number };

function roundsOf(data: LoopCaseData, conversation: unknown[]): Answered[] {
  const rounds: Answered[] = [];
  let without = 0;
  let turn = 0;
  for (let k = data.request.messages.length; k < conversation.length; k += 1) {
    const m = conversation[k];
    if (!isEntry(m) || m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    turn += 1;
    const uses = (m.content as Block[]).filter((b) => b.type === 'tool_use');
    const todo = uses.some((b) => b.name === TODO_TOOL);
    without = todo ? 0 : without + 1;
    const next = conversation[k + 1];
    if (!isEntry(next) || next.role !== 'user') continue;
    const reminded = Array.isArray(next.content) && (next.content as unknown[]).some(mentionsReminder);
    rounds.push({ turn, without, todo, reminded, calls: uses.length });
  }
  return rounds;
}

// The nag's mistakes: missing, early, late, only once, not started again, elsewhere in the message, in other
// words. `answered`: every round of the loop's own conversation, for what one round alone cannot tell apart (a
// reminder a round early, and a count a todo call did not start again, look the same after a todo call).
function nagHint(
  expected: Block[],
  received: Block[],
  round: Round,
  answered: Answered[],
  next: unknown,
): PlanHint | undefined {
  const want = isReminder(expected[expected.length - 1]);
  const has = received.findIndex(isReminder);
  const like = received.findIndex((b) => mentionsReminder(b) && !isReminder(b));
  const turn = `turn ${round.turn}`;
  const third = ordinal(ROUNDS_BEFORE_NAG);
  if (want && has < 0 && like >= 0)
    return {
      text: `the reminder's block reads ${JSON.stringify(received[like]?.text)}: send exactly ${REMINDER_BLOCK}`,
      cause: 'the reminder in other words',
    };
  if (want && has >= 0 && has !== received.length - 1)
    return {
      text: `the reminder is block ${has + 1} of ${received.length} in the user message answering ${turn}: it goes last, after the tool results (the Messages API refuses a user message with text before its tool_result blocks)`,
      cause: 'the reminder before the tool results',
    };
  if (want && has < 0 && like < 0 && reminderAlone(next, undefined) !== undefined)
    return {
      text: `the reminder went in a user message of its own after the message of results: put ${REMINDER_BLOCK} last in the user message that carries the round's tool results, after them`,
      cause: 'the reminder sent as a message of its own',
    };
  if (want && has < 0) {
    const before = answered.find((a) => a.turn === round.turn - 1);
    if (round.without > ROUNDS_BEFORE_NAG && before?.reminded === true)
      return {
        text: `the results of turn ${before.turn} carried the reminder and those of ${turn}, round ${round.without} in a row without a todo call, did not: the reminder goes with every round from the ${third} on, until a todo call`,
        cause: 'the reminder only once',
      };
    return {
      text: `${turn} is round ${round.without} in a row without a todo call, and its results went without the reminder: from the ${third} such round on, put ${REMINDER_BLOCK} last in the user message of the round's tool results, after them (a todo call starts the count again)`,
      cause: 'no reminder after three rounds without a todo call',
    };
  }
  if (!want && has >= 0) {
    const unreset = answered.find((a) => a.reminded && a.todo);
    if (unreset !== undefined)
      return {
        text: `the results of turn ${unreset.turn} carried the reminder, though that turn called todo: a todo call, answered or refused, alone or beside other calls, starts the count of rounds again, and the reminder comes only from the ${third} round in a row without one`,
        cause: 'the count not started again by a todo call',
      };
    // Counted by calls: the rounds so far, fewer than three, made three calls or more.
    const since = answered.filter((a) => a.turn > round.turn - round.without && a.turn <= round.turn);
    const calls = since.reduce((sum, a) => sum + a.calls, 0);
    const byCalls =
      calls >= ROUNDS_BEFORE_NAG
        ? `, and those ${count(round.without, 'round')} made ${count(calls, 'tool call')}: count rounds (each turn of the model that called tools, however many calls it made), not calls;`
        : ':';
    return {
      text: `the reminder came with the results of ${turn}, round ${round.without} in a row without a todo call${byCalls} it comes from the ${third} such round on, not before`,
      cause: 'the reminder before the third round without a todo call',
    };
  }
  return undefined;
}

// The handler's mistakes, read off the first todo result that differs.
function todoHint(conversation: unknown[], at: number, received: Block[]): PlanHint | undefined {
  const turn = conversation[at - 1];
  const expected = (conversation[at] as { content: Block[] }).content;
  if (!isEntry(turn) || !Array.isArray(turn.content)) return undefined;
  const todos = new Set(
    (turn.content as Block[]).filter((b) => b.type === 'tool_use' && b.name === TODO_TOOL).map((b) => b.id),
  );
  const want = expected.find((b) => todos.has(b.tool_use_id) && !jsonEqual(b, sameResult(received, b)));
  if (want === undefined) return undefined;
  const got = sameResult(received, want);
  if (got === undefined) return undefined;
  const wantText = String(want.content);
  const gotText = typeof got.content === 'string' ? got.content : JSON.stringify(got.content);
  if (gotText !== wantText && gotText.replace(/\s+$/, '') === wantText)
    return {
      text: `the todo result ends with ${JSON.stringify(gotText.slice(wantText.length))} after its count line: the lines are joined by "\\n", with none at the end (an error result's list too)`,
      cause: 'a todo result ending with a newline',
    };
  const use = (turn.content as Block[]).find((b) => b.id === want.tool_use_id);
  const unset = statusless(use?.input);
  if (got.is_error === true && unset !== undefined && !/status/.test(reasonOf(wantText)) && /status/.test(gotText))
    return {
      text: `the handler refused a call whose item ${unset} has no status, saying ${JSON.stringify(firstLine(gotText))}: an item without a status is pending`,
      cause: 'an item without a status refused',
    };
  const wantError = want.is_error === true;
  const gotError = got.is_error === true;
  if (wantError && !gotError) {
    const reason = reasonOf(wantText);
    return {
      text: `the handler accepted a list it must refuse (${reason}): answer it with an error result, is_error: true, that says so, and keep the list as it was`,
      cause: `the handler accepts a list where ${causeOf(reason)}`,
    };
  }
  if (!wantError && gotError)
    return {
      text: `the handler refused a list the contract accepts, saying ${JSON.stringify(firstLine(gotText))}: it renders ${JSON.stringify(firstLine(wantText))} first`,
      cause: 'the handler refuses a good list',
    };
  if (wantError && gotError) {
    const [wantReason, wantList] = splitError(wantText);
    const [gotReason, gotList] = splitError(gotText);
    if (wantReason === gotReason && gotList === undefined)
      return {
        text: `the handler's error ${JSON.stringify(firstLine(gotText))} stops without the list: after the reason, ". ${UNCHANGED}", a newline and the list as it stands, rendered`,
        cause: "the handler's error without the list",
      };
    // The same items with another count line: the list is as it was, rendered otherwise (an empty one, say).
    if (
      wantReason === gotReason &&
      gotList !== undefined &&
      wantList !== undefined &&
      wantList !== gotList &&
      sameItems(wantList, gotList)
    )
      return renderHint(wantList, gotList);
    if (wantReason === gotReason && wantList !== gotList) {
      const [shown, kept] = firstDifferentLines(gotList ?? '', wantList ?? '');
      if (wantList !== undefined && /^\(0\/0 completed\)$/.test(wantList) && fromHistory(conversation, at, gotList))
        return {
          text: `after an error the list shown as unchanged has ${JSON.stringify(shown)}, where no todo call of this run has set a list: the list starts empty in every run, and a todo call in request.messages is history, which the list never reads`,
          cause: "the list started from the conversation's history",
        };
      return {
        text: `after an error the list shown as unchanged has ${JSON.stringify(shown)} where the list before the call has ${JSON.stringify(kept)}: a call that is an error leaves the list as it was before the call`,
        cause: 'the list changed by a call that is an error',
      };
    }
    const gotWhy = reasonOf(gotText);
    const wantWhy = reasonOf(wantText);
    // A reason of the page's about another item or rule: the checks ran in another order. About the same item and
    // rule, it is the same reason written otherwise (a status not quoted, say), which the next hint names.
    if (PAGE_REASON.test(gotWhy) && reasonKind(gotWhy) !== reasonKind(wantWhy))
      return {
        text: `the handler's error says ${JSON.stringify(gotWhy)}, where the first thing wrong with the call is ${JSON.stringify(wantWhy)}: check the items in order, each for its id, then its text, then its status, then its id against the earlier items, and the count in progress only after every item`,
        cause: "the handler's checks in another order",
      };
    return {
      text: `the handler's error reads ${JSON.stringify(firstLine(gotText))}, not ${JSON.stringify(firstLine(wantText))}: write the first thing wrong with the call in the page's words, then "${UNCHANGED}" and the list`,
      cause: "the handler's error in other words",
    };
  }
  if (got.is_error === false)
    return {
      text: 'a todo result has is_error: false: add is_error: true only to an error result, and no is_error key otherwise',
      cause: 'is_error: false on a todo result',
    };
  return renderHint(wantText, gotText);
}

// A good list rendered otherwise: items of an earlier call kept, a status, a line's shape, the count.
function renderHint(want: string, got: string): PlanHint {
  const e = want.split('\n');
  const r = got.split('\n');
  const blank = r.slice(0, -1).indexOf('');
  if (blank !== -1 && !e.includes(''))
    return {
      text: `line ${blank + 1} of the todo result is empty: the items one a line, then the count line, with no empty line${e.length === 1 ? ' (an empty list is the count line alone)' : ''}`,
      cause: 'an empty line in the todo result',
    };
  if (r.length > e.length && e.slice(0, -1).every((line) => r.includes(line)))
    return {
      text: `the todo result lists ${count(r.length - 1, 'item')} where the call gave ${e.length - 1}: each call replaces the whole list with the items it gives, never adds to it`,
      cause: 'the list added to, not replaced',
    };
  const k = e.findIndex((line, i) => line !== r[i]);
  const line = e[k] ?? '';
  const wrong = r[k];
  if (k === e.length - 1)
    return {
      text: `${wrong === undefined ? 'the todo result ends without its count line,' : `the todo result's last line is ${JSON.stringify(wrong)}, not`} ${JSON.stringify(line)}: after the items, one line counting the completed ones, "(done/total completed)"${e.length === 1 ? ', and an empty list is that line alone' : ''}`,
      cause: "the todo result's count line",
    };
  if (line.slice(0, 3) !== wrong?.slice(0, 3) && line.slice(3) === wrong?.slice(3))
    return {
      text: `line ${k + 1} of the todo result is ${JSON.stringify(wrong)}, not ${JSON.stringify(line)}: the mark is [ ] for pending (an item given without a status is pending), [>] for in_progress, [x] for completed`,
      cause: "an item's status mark",
    };
  return {
    text: `line ${k + 1} of the todo result is ${JSON.stringify(wrong ?? '')}, not ${JSON.stringify(line)}: one line per item, its mark, a space, its id, ": " and its text`,
    cause: "a todo item's line",
  };
}

// The place (from 1) of the first item of a todo call's input that has no status, or undefined.
function statusless(input: unknown): number | undefined {
  const items = isEntry(input) && Array.isArray(input.items) ? input.items : [];
  const k = items.findIndex((i) => isEntry(i) && (i.status === undefined || i.status === null));
  return k < 0 ? undefined : k + 1;
}

// Whether a list shown holds every item text of a todo call made before this run (in the messages the loop was
// given, before its first turn): the list read from history.
function fromHistory(conversation: unknown[], at: number, shown: string | undefined): boolean {
  if (shown === undefined) return false;
  const earlier = conversation
    .slice(0, at - 1)
    .flatMap((m) => (isEntry(m) && Array.isArray(m.content) ? m.content : []));
  return (earlier as Block[]).some((b) => {
    if (b.type !== 'tool_use' || b.name !== TODO_TOOL || !isEntry(b.input) || !Array.isArray(b.input.items))
      return false;
    const texts = b.input.items.map((i) => (isEntry(i) ? i.text : undefined));
    return texts.length > 0 && texts.every((t) => typeof t === 'string' && shown.includes(t));
  });
}

// Whether two rendered lists hold the same item lines, whatever their count lines.
function sameItems(a: string, b: string): boolean {
  return a.split('\n').slice(0, -1).join('\n') === b.split('\n').slice(0, -1).join('\n');
}

// The first lines where two texts differ ("(nothing)" past the end of one).
function firstDifferentLines(a: string, b: string): [string, string] {
  const x = a.split('\n');
  const y = b.split('\n');
  const k = x.findIndex((line, i) => line !== y[i]);
  const at = k < 0 ? x.length : k;
  return [x[at] ?? '(nothing)', y[at] ?? '(nothing)'];
}

function sameResult(content: Block[], like: Block): Block | undefined {
  return content.find((b) => b.type === 'tool_result' && b.tool_use_id === like.tool_use_id);
}

// "Error: <reason>. The list is unchanged:\n<list>" as its reason and its list.
function splitError(text: string): [string, string | undefined] {
  const cut = text.indexOf(`. ${UNCHANGED}`);
  return cut < 0 ? [text, undefined] : [text.slice(0, cut), text.slice(cut + UNCHANGED.length + 3)];
}

// A reason in the page's words (whichever rule it names).
const PAGE_REASON =
  /^(items must be an array of \{ id, text, status \}|item \d+ has no (id|text)|item \d+ has an unknown status .*: use pending, in_progress or completed|item \d+ has the id .* of an earlier item|\d+ items are in progress \(.*\): at most one may be)$/;

function reasonOf(text: string): string {
  return splitError(text)[0].replace(/^Error: /, '');
}

// Which item and rule a reason is about: "item 2 has no text" and "item 2 has no text!" are one kind.
function reasonKind(reason: string): string {
  return `${/^item (\d+) /.exec(reason)?.[1] ?? ''} ${causeOf(reason)}`;
}

// What a reason is about, without the ids and positions that vary from call to call.
function causeOf(reason: string): string {
  if (reason.includes('in progress')) return 'more than one item is in progress';
  if (reason.includes('no text')) return 'an item has no text';
  if (reason.includes('no id')) return 'an item has no id';
  if (reason.includes('unknown status')) return 'an item has an unknown status';
  if (reason.includes('of an earlier item')) return 'two items share an id';
  return 'the items are not an array';
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function ordinal(n: number): string {
  return n === 3 ? 'third' : `${n}th`;
}

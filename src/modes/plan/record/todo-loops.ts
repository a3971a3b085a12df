// A recorded session's loops as plan-todos cases: Claude Code's TodoWrite is the stage's todo tool
// (docs/stages/plan-todos.md), so each TodoWrite call becomes a `todo` call giving the same list (`{ todos:
// [{ content, status, activeForm }] }` as `{ items: [{ id, text, status }] }`, ids counted from 1 in the list's
// order), the request offers the todo tool in TodoWrite's place, and the recorded answer to it goes (the student's
// handler answers it). Only loops that call TodoWrite are kept. Each also gives up to MAX_WINDOWS cases that start
// at one of its later todo calls, the turns before it the request's conversation, so that one real session shows the
// nag and the handler from several points with a list the handler has not seen. Pure.
import type { ApiObject, LoopTurn, ScriptedOutput } from '../../loop/case.ts';
import { isObject, type LoopSession, type RecordedLoop } from '../../loop/record/recorded-loop.ts';
import { TODO_TOOL, TODO_TOOL_DEFINITION } from '../case.ts';

const RECORDED_TODO = 'TodoWrite';
const MAX_WINDOWS = 5;

export function todoLoops(session: LoopSession): LoopSession {
  const loops: RecordedLoop[] = [];
  const skipped = [...session.skipped];
  for (const loop of session.loops) {
    const at = loop.turns.flatMap((t, k) => (callsTodo(t) ? [k] : []));
    if (at.length === 0) {
      skipped.push({
        prompt: loop.prompt,
        why: `the model called no ${RECORDED_TODO} in it: nothing of a plan to replay`,
      });
      continue;
    }
    const whole = asPlanLoop(loop);
    loops.push(whole);
    for (const start of spread(
      at.filter((k) => k > 0),
      MAX_WINDOWS,
    ))
      loops.push(windowFrom(whole, loop, start));
  }
  return { ...session, loops, skipped };
}

function callsTodo(turn: LoopTurn): boolean {
  return turn.message.content.some((b) => b.type === 'tool_use' && b.name === RECORDED_TODO);
}

// The loop with its TodoWrite calls as todo calls, the todo tool offered in TodoWrite's place, no scripted output
// for a todo call, and no recorded stream for a turn that holds one (the stream would serve TodoWrite).
function asPlanLoop(loop: RecordedLoop): RecordedLoop {
  const todoIds = new Set(
    loop.turns.flatMap((t) =>
      t.message.content.filter((b) => b.type === 'tool_use' && b.name === RECORDED_TODO).map((b) => String(b.id)),
    ),
  );
  const outputs = Object.fromEntries(Object.entries(loop.outputs).filter(([id]) => !todoIds.has(id)));
  const tools = loop.request.tools.filter((t) => t.name !== RECORDED_TODO && t.name !== TODO_TOOL);
  return {
    ...loop,
    request: {
      ...loop.request,
      tools: [...tools, TODO_TOOL_DEFINITION],
      messages: loop.request.messages.map(asPlanMessage),
    },
    turns: loop.turns.map((t) => {
      if (!callsTodo(t)) return t;
      const { stream: _dropped, ...turn } = t;
      return { ...turn, message: { ...t.message, content: t.message.content.map(asTodoCall) } };
    }),
    outputs,
  };
}

function asPlanMessage(message: ApiObject): ApiObject {
  return Array.isArray(message.content) ? { ...message, content: message.content.map(asTodoCall) } : message;
}

// A TodoWrite tool_use as the todo call that gives the same list.
function asTodoCall(block: ApiObject): ApiObject {
  if (block.type !== 'tool_use' || block.name !== RECORDED_TODO) return block;
  const todos = isObject(block.input) && Array.isArray(block.input.todos) ? block.input.todos : [];
  const items = todos.map((todo: unknown, k) => {
    const t = isObject(todo) ? todo : {};
    return { id: String(k + 1), text: t.content, ...(t.status === undefined ? {} : { status: t.status }) };
  });
  return { ...block, name: TODO_TOOL, input: { items } };
}

// The loop from turn `start` on: the turns before it, answered as recorded, are the request's conversation.
function windowFrom(whole: RecordedLoop, recorded: RecordedLoop, start: number): RecordedLoop {
  const history: ApiObject[] = [...whole.request.messages];
  for (const turn of whole.turns.slice(0, start)) {
    history.push({ role: 'assistant', content: turn.message.content });
    const uses = turn.message.content.filter((b) => b.type === 'tool_use');
    history.push({ role: 'user', content: uses.map((b) => toolResult(String(b.id), recorded.outputs[String(b.id)])) });
  }
  const differs = (whole.differs ?? []).filter((k) => k > start).map((k) => k - start);
  const { differs: _all, ...rest } = whole;
  return {
    ...rest,
    request: { ...whole.request, messages: history },
    turns: whole.turns.slice(start),
    prompt: `from turn ${start + 1} of: ${whole.prompt}`,
    ...(differs.length === 0 ? {} : { differs }),
  };
}

// A recorded answer as the tool_result it was (TodoWrite's, too: the conversation as the session had it).
function toolResult(id: string, output: ScriptedOutput | undefined): ApiObject {
  if (output === undefined) return { type: 'tool_result', tool_use_id: id, content: '' };
  if ('throws' in output) return { type: 'tool_result', tool_use_id: id, content: output.throws, is_error: true };
  return {
    type: 'tool_result',
    tool_use_id: id,
    content: output.content,
    ...(output.is_error ? { is_error: true } : {}),
  };
}

// At most `n` of `items`, evenly spread from the first to the last.
function spread<T>(items: T[], n: number): T[] {
  if (items.length <= n) return items;
  return Array.from({ length: n }, (_, k) => items[Math.round((k * (items.length - 1)) / (n - 1))]!);
}

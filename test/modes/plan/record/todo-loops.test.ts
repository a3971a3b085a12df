// A recorded session's loops as plan-todos cases: TodoWrite calls as todo calls giving the same list, the todo tool
// in TodoWrite's place, no scripted output and no recorded stream for them, loops without one left out, and a loop
// also from its later todo calls on, the turns before as the request's conversation.
import { expect, test } from 'vitest';
import type { LoopSession, RecordedLoop } from '../../../../src/modes/loop/record/recorded-loop.ts';
import { TODO_TOOL_DEFINITION } from '../../../../src/modes/plan/case.ts';
import { todoLoops } from '../../../../src/modes/plan/record/todo-loops.ts';

const use = (id: string, name: string, input: unknown) => ({ type: 'tool_use', id, name, input });
const turn = (n: number, stop: string, content: Record<string, unknown>[], stream?: string) => ({
  message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'm', content, stop_reason: stop },
  ...(stream === undefined ? {} : { stream }),
});
const todoWrite = (id: string, todos: unknown[]) => use(id, 'TodoWrite', { todos });
const written = [{ content: 'Read it', status: 'completed', activeForm: 'Reading it' }, { content: 'Fix it' }];

function loop(turns: RecordedLoop['turns'], outputs: RecordedLoop['outputs']): RecordedLoop {
  const tools = [{ name: 'Bash' }, { name: 'TodoWrite' }];
  const request = { model: 'm', max_tokens: 1, tools, messages: [{ role: 'user', content: 'go' }] };
  return { request, turns, outputs, defaults: [], prompt: 'go' };
}

const planned = loop(
  [
    turn(1, 'tool_use', [todoWrite('t1', written)], 'event: recorded'),
    turn(2, 'tool_use', [use('b1', 'Bash', { command: 'ls' })], 'event: kept'),
    turn(3, 'tool_use', [todoWrite('t2', [])]),
    turn(4, 'end_turn', [{ type: 'text', text: 'done' }]),
  ],
  {
    t1: { content: 'Todos have been modified' },
    b1: { content: 'a.txt' },
    t2: { content: 'Todos have been modified' },
  },
);
const unplanned = loop([turn(1, 'tool_use', [use('b2', 'Bash', { command: 'pwd' })]), turn(2, 'end_turn', [])], {
  b2: { content: '/' },
});
const session: LoopSession = { format: 'claude-code', loops: [planned, unplanned], skipped: [] };

test('each TodoWrite call becomes a todo call giving the same list, ids from 1, status kept when given', () => {
  const [whole] = todoLoops(session).loops;
  expect(whole?.turns[0]?.message.content).toEqual([
    use('t1', 'todo', {
      items: [
        { id: '1', text: 'Read it', status: 'completed' },
        { id: '2', text: 'Fix it' },
      ],
    }),
  ]);
  expect(whole?.turns[2]?.message.content).toEqual([use('t2', 'todo', { items: [] })]);
});

test('the todo tool replaces TodoWrite, todo calls have no output, and their turns lose their recorded stream', () => {
  const [whole] = todoLoops(session).loops;
  expect(whole?.request.tools).toEqual([{ name: 'Bash' }, TODO_TOOL_DEFINITION]);
  expect(whole?.outputs).toEqual({ b1: { content: 'a.txt' } });
  expect(whole?.turns.map((t) => t.stream)).toEqual([undefined, 'event: kept', undefined, undefined]);
});

test('a loop without TodoWrite is skipped, saying why', () => {
  const { loops, skipped } = todoLoops(session);
  expect(loops.every((l) => l.prompt.endsWith('go'))).toBe(true);
  expect(skipped).toEqual([{ prompt: 'go', why: 'the model called no TodoWrite in it: nothing of a plan to replay' }]);
});

test('a loop is also a case from each later todo call on, the turns before it the conversation as recorded', () => {
  const [whole, from3, more] = todoLoops(session).loops;
  expect(more).toBeUndefined();
  expect(from3?.prompt).toBe('from turn 3 of: go');
  expect(from3?.turns).toEqual(whole?.turns.slice(2));
  expect(from3?.request.messages).toEqual([
    { role: 'user', content: 'go' },
    { role: 'assistant', content: whole?.turns[0]?.message.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'Todos have been modified' }] },
    { role: 'assistant', content: whole?.turns[1]?.message.content },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1', content: 'a.txt' }] },
  ]);
});

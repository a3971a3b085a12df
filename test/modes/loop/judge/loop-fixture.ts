// A small loop case and its expected results, for the loop judge's tests: two reads in one turn, then an answer.
import type { Case } from '../../../../src/course/types.ts';
import type { LoopCaseData } from '../../../../src/modes/loop/case.ts';

const turn = (content: unknown[], stop_reason: string) => ({
  message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'm', content, stop_reason } as never,
});
export const readA = { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { path: 'a.txt' } };
export const readB = { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { path: 'b.txt' } };
export const answer = { type: 'text', text: 'A and B.' };
const prompt = { role: 'user', content: 'Read them.' };

export const loopCase: Case<LoopCaseData> = {
  stage: 'agent-loop',
  name: 'two-reads',
  file: '/cases/agent-loop/two-reads.json',
  data: {
    description: 'Two reads, then an answer.',
    request: { model: 'm', max_tokens: 10, tools: [{ name: 'Read' }], messages: [prompt] },
    turns: [turn([{ type: 'text', text: 'Reading.' }, readA, readB], 'tool_use'), turn([answer], 'end_turn')],
    outputs: { toolu_a: { content: '1: A' }, toolu_b: { content: 'File not found: b.txt', is_error: true } },
  },
};

export const assistant1 = { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, readA, readB] };
export const resultA = { type: 'tool_result', tool_use_id: 'toolu_a', content: '1: A' };
export const resultB = {
  type: 'tool_result',
  tool_use_id: 'toolu_b',
  content: 'File not found: b.txt',
  is_error: true,
};
export const results1 = { role: 'user', content: [resultA, resultB] };
export const assistant2 = { role: 'assistant', content: [answer] };

// The request with these messages, as program.ts records it.
export const request = (messages: unknown[], extra: Record<string, unknown> = {}) => ({
  request: { model: 'm', max_tokens: 10, tools: [{ name: 'Read' }], messages, ...extra },
});

// What the reference gives.
export const expected = [
  request([prompt]),
  request([prompt, assistant1, results1]),
  { returned: [prompt, assistant1, results1, assistant2] },
];

export { prompt };

// The same request, with one turn and then an API error: request 2 is answered with HTTP 529, which the reference
// lets leave the loop as the SDK threw it.
export const OVERLOADED =
  'OverloadedError: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
export const apiErrorCase: Case<LoopCaseData> = {
  ...loopCase,
  name: 'api-error',
  data: {
    ...loopCase.data,
    turns: loopCase.data.turns.slice(0, 1),
    api_error: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  },
};
export const apiErrorExpected = [request([prompt]), request([prompt, assistant1, results1]), { threw: OVERLOADED }];

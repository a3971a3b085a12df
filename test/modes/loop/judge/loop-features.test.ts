// Where a case first shows a mistake that needs each feature: the request index after the turn that has it, the
// end for the returned conversation, or nowhere.
import { expect, test } from 'vitest';
import type { LoopCaseData } from '../../../../src/modes/loop/case.ts';
import { type Feature, finishOrder, positionOf } from '../../../../src/modes/loop/judge/loop-features.ts';
import { answer, loopCase, readA, readB } from './loop-fixture.ts';

const turn = (content: unknown[], stop_reason: string) => ({ message: { content, stop_reason } as never });
const thinking = { type: 'thinking', thinking: 'hm', signature: 's' };
const text = { type: 'text', text: 'Reading.' };
// Turn 1 reads a (plain), turn 2 thinks and reads b (which throws), turn 3 is cut off by max_tokens mid tool_use.
const three: LoopCaseData = {
  description: 'three turns',
  request: loopCase.data.request,
  turns: [turn([readA], 'tool_use'), turn([thinking, readB], 'tool_use'), turn([text, readA], 'max_tokens')],
  outputs: { toolu_a: { content: 'A' }, toolu_b: { throws: 'boom' } },
};
// Turn 1 reads a (its output empty); turn 2 reads b (slow, so it finishes after c) and c, a tool the request
// does not list.
const readC = { type: 'tool_use', id: 'toolu_c', name: 'ReadFile', input: { path: 'c.txt' } };
const delays: LoopCaseData = {
  ...three,
  turns: [turn([readA], 'tool_use'), turn([readB, readC], 'tool_use'), turn([answer], 'end_turn')],
  outputs: {
    toolu_a: { content: '' },
    toolu_b: { content: 'B', delay_ms: 30 },
    toolu_c: { content: 'C', delay_ms: 5 },
  },
};
const oneAnswer: LoopCaseData = { ...three, turns: [turn([answer], 'end_turn')], outputs: {} };

// The fixture: turn 1 has text and two reads (b's output has is_error), turn 2 answers.
test.each<[string, LoopCaseData, Feature, number | undefined]>([
  ['fixture', loopCase.data, 'first-request', 0],
  ['fixture', loopCase.data, 'first-turn', 1],
  ['fixture', loopCase.data, 'later-request', 1],
  ['fixture', loopCase.data, 'end', 2],
  ['fixture', loopCase.data, 'tool-turn', 1],
  ['fixture', loopCase.data, 'parallel-turn', 1],
  ['fixture', loopCase.data, 'text-and-tool-turn', 1],
  ['fixture', loopCase.data, 'error-output', 1],
  ['fixture', loopCase.data, 'throwing-output', undefined],
  ['fixture', loopCase.data, 'thinking-turn', undefined],
  ['fixture', loopCase.data, 'tool-block-ending-turn', undefined],
  ['three turns', three, 'parallel-turn', undefined],
  ['three turns', three, 'thinking-turn', 2],
  ['three turns', three, 'throwing-output', 2],
  ['three turns', three, 'error-output', 2],
  ['three turns', three, 'text-and-tool-turn', undefined],
  ['three turns', three, 'tool-block-ending-turn', 3],
  ['three turns', three, 'end', 3],
  ['one answer', oneAnswer, 'later-request', undefined],
  ['fixture', loopCase.data, 'out-of-order-turn', undefined],
  ['fixture', loopCase.data, 'second-tool-turn', undefined],
  ['fixture', loopCase.data, 'empty-output', undefined],
  ['fixture', loopCase.data, 'unknown-tool-turn', undefined],
  ['three turns', three, 'second-tool-turn', 2],
  ['fixture', loopCase.data, 'all-error-turn', undefined],
  ['three turns', three, 'all-error-turn', 2],
  ['delays', delays, 'out-of-order-turn', 2],
  ['delays', delays, 'empty-output', 1],
  ['delays', delays, 'unknown-tool-turn', 2],
  ['fixture', loopCase.data, 'same-tool-turn', 1],
  ['three turns', three, 'same-tool-turn', undefined],
  ['delays', delays, 'same-tool-turn', undefined],
  [
    'same outputs',
    { ...loopCase.data, outputs: { toolu_a: { content: 'A' }, toolu_b: { content: 'A' } } },
    'same-tool-turn',
    undefined,
  ],
  [
    'one throws',
    { ...loopCase.data, outputs: { toolu_a: { content: 'A' }, toolu_b: { throws: 'boom' } } },
    'same-tool-turn',
    undefined,
  ],
  ['one answer', oneAnswer, 'first-turn', 1],
  ['one answer', oneAnswer, 'tool-turn', undefined],
])('%s: %s shows at %s', (_, data, feature, position) => {
  expect(positionOf(data, feature)).toBe(position);
});

test('calls made at once finish by their delays, a tie in call order', () => {
  expect(finishOrder([40, 0, 20])).toEqual([1, 2, 0]);
  expect(finishOrder([5, 5, 0])).toEqual([2, 0, 1]);
  expect(finishOrder([])).toEqual([]);
});

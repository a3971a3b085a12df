// Where a case first shows a mistake that needs each feature: the request index after the turn that has it, the
// end for the returned conversation, or nowhere.
import { expect, test } from 'vitest';
import type { LoopCaseFile } from '../../../../src/course/types.ts';
import { type Feature, positionOf } from '../../../../src/modes/loop/judge/loop-features.ts';
import { answer, loopCase, readA, readB } from './loop-fixture.ts';

const turn = (content: unknown[], stop_reason: string) => ({ message: { content, stop_reason } as never });
const thinking = { type: 'thinking', thinking: 'hm', signature: 's' };
const text = { type: 'text', text: 'Reading.' };
// Turn 1 reads a (plain), turn 2 thinks and reads b (which throws), turn 3 is cut off by max_tokens mid tool_use.
const three: LoopCaseFile = {
  description: 'three turns',
  request: loopCase.data.request,
  turns: [turn([readA], 'tool_use'), turn([thinking, readB], 'tool_use'), turn([text, readA], 'max_tokens')],
  outputs: { toolu_a: { content: 'A' }, toolu_b: { throws: 'boom' } },
};
const oneAnswer: LoopCaseFile = { ...three, turns: [turn([answer], 'end_turn')], outputs: {} };

// The fixture: turn 1 has text and two reads (b's output has is_error), turn 2 answers.
test.each<[string, LoopCaseFile, Feature, number | undefined]>([
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
  ['one answer', oneAnswer, 'first-turn', 1],
  ['one answer', oneAnswer, 'tool-turn', undefined],
])('%s: %s shows at %s', (_, data, feature, position) => {
  expect(positionOf(data, feature)).toBe(position);
});

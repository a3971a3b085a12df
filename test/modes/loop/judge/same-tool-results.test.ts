// Two calls of one tool in a turn that got one output between them: named only when every call of that tool got
// the very output execute gave for one of them, the ids all right, and the outputs differ.
import { expect, test } from 'vitest';
import type { LoopCaseData } from '../../../../src/modes/loop/case.ts';
import { sameToolHint } from '../../../../src/modes/loop/judge/same-tool-results.ts';
import { loopCase, readA, readB } from './loop-fixture.ts';

// Turn 1 reads a and b, and lists the directory between them.
const bash = { type: 'tool_use', id: 'toolu_ls', name: 'Bash', input: { command: 'ls' } };
const outputs = { toolu_a: { content: '1: A' }, toolu_ls: { content: 'a.txt' }, toolu_b: { content: '1: B' } };
const turn = { message: { content: [readA, bash, readB], stop_reason: 'tool_use' } as never };
const data: LoopCaseData = { ...loopCase.data, turns: [turn], outputs };
const ids = ['toolu_a', 'toolu_ls', 'toolu_b'];
const results = (...contents: string[]) =>
  contents.map((content, j) => ({ type: 'tool_result', tool_use_id: ids[j], content }));
const want = results('1: A', 'a.txt', '1: B');

test.each<[string, LoopCaseData, ReturnType<typeof results>, string | undefined]>([
  [
    'the last read output for both (kept by name, one after another)',
    data,
    results('1: B', 'a.txt', '1: B'),
    'toolu_b',
  ],
  [
    'the first read output for both (kept by name, the last to finish)',
    data,
    results('1: A', 'a.txt', '1: A'),
    'toolu_a',
  ],
  ['the right results', data, want, undefined],
  ['the reads swapped: two outputs, not one', data, results('1: B', 'a.txt', '1: A'), undefined],
  ["a call of another tool given a read's output", data, results('1: A', '1: A', '1: B'), undefined],
  ['one output for both, but it is neither', data, results('1: C', 'a.txt', '1: C'), undefined],
  [
    'the reads answered the same',
    { ...data, outputs: { ...outputs, toolu_b: { content: '1: A' } } },
    results('1: A', 'a.txt', '1: A'),
    undefined,
  ],
  [
    'one read threw',
    { ...data, outputs: { ...outputs, toolu_b: { throws: 'EACCES' } } },
    results('EACCES', 'a.txt', 'EACCES'),
    undefined,
  ],
])('%s', (_, script, got, from) => {
  const found = sameToolHint(script, 1, want, got);
  expect(found?.text.match(/the output execute gave for tool_use (\S+):/)?.[1]).toBe(from);
  if (from !== undefined) {
    expect(found).toMatchObject({ cause: 'calls of one tool got one output', shows: 'same-tool-turn' });
    expect(found?.text).toMatch(/^the 2 calls of Read in turn 1 got the same tool_result/);
  }
});

test('results not in the blocks order are for the ids hints, not this one', () => {
  const got = results('1: B', 'a.txt', '1: B');
  expect(sameToolHint(data, 1, want, [got[2]!, got[1]!, got[0]!])).toBeUndefined();
});

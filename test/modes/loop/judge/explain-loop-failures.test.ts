// Failing loop cases put under the probe's finding that explains them, by where each case first differs and where
// it first gives the found mistake something to do.
import { expect, test } from 'vitest';
import type { LoopCaseData } from '../../../../src/modes/loop/case.ts';
import { explainLoopFailures } from '../../../../src/modes/loop/judge/explain-loop-failures.ts';
import type { LoopFinding } from '../../../../src/modes/loop/judge/find-loop-mistakes.ts';
import type { Feature } from '../../../../src/modes/loop/judge/loop-features.ts';
import type { CaseResult, Failure } from '../../../../src/grade/types.ts';
import { loopCase } from './loop-fixture.ts';

// The fixture: turn 1 has text and two reads (b's output has is_error), turn 2 answers.
const data: LoopCaseData = loopCase.data;
const finding = (cause: string, shows: Feature, rank = 0): LoopFinding => ({
  cause,
  text: `${cause}: fix it`,
  shows,
  rank,
});
const failing = (failure: Partial<Failure>): CaseResult => ({
  name: 'two-reads',
  description: data.description,
  status: 'fail',
  durationMs: 1,
  output: '',
  failure: { kind: 'mismatch', message: 'request 2 of 2 differs', ...failure },
});
const explain = (result: CaseResult, findings: LoopFinding[]) =>
  explainLoopFailures([result], findings, (name) => (name === 'two-reads' ? data : undefined))[0]?.failure;
const hintOf = (f: Failure | undefined) => [f?.hint, f?.hintCause];

const split = finding('tool results in separate user messages', 'parallel-turn');
const dropped = finding('is_error dropped', 'error-output', 1);
const thinking = finding('thinking blocks dropped', 'thinking-turn');
const system = finding('system not sent again', 'first-request');

test.each<[string, Partial<Failure>, LoopFinding[], [string | undefined, string | undefined]]>([
  ['no findings: as it was', { callIndex: 1, hint: 'h', hintCause: 'c' }, [], ['h', 'c']],
  [
    'a finding where the case differs, its own hint another: the finding',
    { callIndex: 1, hint: 'h', hintCause: 'c' },
    [split],
    ['tool results in separate user messages: fix it', 'finding: tool results in separate user messages'],
  ],
  [
    'no hint of its own: the finding',
    { callIndex: 1 },
    [split],
    ['tool results in separate user messages: fix it', 'finding: tool results in separate user messages'],
  ],
  [
    "its own hint names the same mistake: its words, the finding's cause",
    { callIndex: 1, hint: 'turn 1 split', hintCause: split.cause },
    [split],
    ['turn 1 split', 'finding: tool results in separate user messages'],
  ],
  ['a feature the case lacks: as it was', { callIndex: 1, hint: 'h', hintCause: 'c' }, [thinking], ['h', 'c']],
  ['a feature after the difference: as it was', { callIndex: 0, hint: 'h', hintCause: 'c' }, [split], ['h', 'c']],
  [
    'a feature before the difference, with a hint of its own: as it was',
    { callIndex: 1, hint: 'h', hintCause: 'c' },
    [system],
    ['h', 'c'],
  ],
  [
    'a feature before the difference, no hint of its own: the finding',
    { callIndex: 1 },
    [system],
    ['system not sent again: fix it', 'finding: system not sent again'],
  ],
  [
    'the end differs: the position is the number of turns',
    { hint: 'h', hintCause: 'c' },
    [finding('last turn not appended', 'end')],
    ['last turn not appended: fix it', 'finding: last turn not appended'],
  ],
  [
    'two at the same place: the lower rank',
    { callIndex: 1 },
    [dropped, split],
    ['tool results in separate user messages: fix it', 'finding: tool results in separate user messages'],
  ],
  [
    'two: the nearer to the difference',
    { callIndex: 1 },
    [system, dropped],
    ['is_error dropped: fix it', 'finding: is_error dropped'],
  ],
])('%s', (_, failure, findings, hint) => {
  expect(hintOf(explain(failing(failure), findings))).toEqual(hint);
});

test.each<[string, Partial<Failure>]>([
  ['a timeout', { kind: 'timeout', callIndex: 1 }],
  ['a failure before any case', { callIndex: 1, beforeAnyCase: true }],
  ["a variant's failure", { callIndex: 1, variant: { seed: 7 } }],
])('%s is not explained', (_, failure) => {
  expect(hintOf(explain(failing(failure), [split]))).toEqual([undefined, undefined]);
});

test('a passing case and a case the lookup does not know are left as they are', () => {
  const passed: CaseResult = { name: 'two-reads', description: '', status: 'pass', durationMs: 1, output: '' };
  const unknown = { ...failing({ callIndex: 1 }), name: 'gone' };
  expect(explainLoopFailures([passed, unknown], [split], () => undefined)).toEqual([passed, unknown]);
});

test("a case that shares another's difference gets the finding's words, not the words the other kept for its turns", () => {
  const difference = JSON.stringify(['missing', '.request missing']);
  // Explained, its own words kept (they name its turn 1).
  const own = failing({ callIndex: 1, hint: 'turn 1 split', hintCause: split.cause, difference });
  // The finding shows at request 1 (turn 1), before this one's difference, and its own hint names another cause.
  const later = { ...failing({ callIndex: 2, hint: 'turn 2 cap', hintCause: 'c', difference }), name: 'later' };
  const [first, second] = explainLoopFailures([own, later], [split], () => data);
  expect(hintOf(first?.failure)).toEqual(['turn 1 split', 'finding: tool results in separate user messages']);
  expect(hintOf(second?.failure)).toEqual([
    'tool results in separate user messages: fix it',
    'finding: tool results in separate user messages',
  ]);
});

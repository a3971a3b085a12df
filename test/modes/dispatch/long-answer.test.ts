// The long stand-in output: padded to its length with numbered lines, written by its ends, and read back whole
// where it is a start of the text the judge knows.
import { expect, it } from 'vitest';
import { abbreviate, LONG_ANSWER_LENGTH, padded, startOf } from '../../../src/modes/dispatch/long-answer.ts';
import { VIEW_LIMIT } from '../../../src/tools/view.ts';

const full = padded('probe answer 1\n', LONG_ANSWER_LENGTH);

it('is longer than any output of the Tools, made of the content and then numbered lines', () => {
  expect(LONG_ANSWER_LENGTH).toBeGreaterThan(VIEW_LIMIT);
  expect(full).toHaveLength(LONG_ANSWER_LENGTH);
  expect(full.startsWith('probe answer 1\nprobe line 1\nprobe line 2\n')).toBe(true);
});

it('reads back a cut start, or the whole, and nothing else of the same length', () => {
  expect(startOf(abbreviate(full.slice(0, 50_000)), full)).toBe(full.slice(0, 50_000));
  expect(startOf(abbreviate(full), full)).toBe(full);
  expect(startOf(abbreviate(full.slice(10, 50_010)), full)).toBeUndefined();
  expect(startOf(abbreviate(`${full.slice(0, 49_000)}${full.slice(-1000)}`), full)).toBeUndefined();
  expect(startOf('short', full)).toBeUndefined();
});

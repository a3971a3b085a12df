// The ends a trim is said to cut: only those the stand-in's answer had spaces or line breaks at.
import { expect, it } from 'vitest';
import { trimmedEnds } from '../../../../src/modes/dispatch/judge/result-findings.ts';

it.each([
  ['trim', 'answer\n', 'its end'],
  ['trimEnd', 'answer\n', 'its end'],
  ['trim', ' answer\n', 'both ends'],
  ['trimEnd', ' answer\n', 'its end'],
  ['trimStart', ' answer\n', 'its start'],
  ['trim', ' answer', 'its start'],
] as const)('%s of %j: at %s', (how, answered, words) => {
  expect(trimmedEnds(how, answered)).toBe(words);
});

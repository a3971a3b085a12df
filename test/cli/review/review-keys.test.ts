// The review's keys, pressed on a terminal and sent as lines through a pipe.
import { describe, expect, it } from 'vitest';
import { reviewActionForKey, reviewActionForLine } from '../../../src/cli/review/review-keys.ts';

describe('review keys', () => {
  it.each([
    ['a', 'accept'],
    ['\r', 'accept'],
    ['r', 'reject'],
    ['s', 'skip'],
    ['A', 'accept-rest'],
    ['R', 'reject-rest'],
    ['S', 'skip-rest'],
    ['d', 'whole-diff'],
    ['q', 'quit'],
    ['\u0004', 'quit'],
    ['\u0003', 'interrupt'],
    ['x', 'unknown'],
    ['\u001b[A', 'none'],
    ['\u001b', 'none'],
  ])('key %j: %s', (key, type) => {
    expect(reviewActionForKey(key).type).toBe(type);
  });

  it.each([
    ['', 'accept'],
    ['a', 'accept'],
    [' R \r', 'reject-rest'],
    ['accept', 'unknown'],
  ])('line %j: %s', (line, type) => {
    expect(reviewActionForLine(line).type).toBe(type);
  });
});

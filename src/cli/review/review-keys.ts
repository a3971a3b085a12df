// What a key means in the review, as data. A terminal in raw mode gives one key at a time; piped stdin one line
// at a time, each line a key (an empty line is Enter), so scripts and tests drive the review with the keys a
// person presses.
import type { ReviewAction } from './review-loop.ts';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const ENTERS = new Set(['\r', '\n', '\r\n']);

const KEYS: Record<string, ReviewAction> = {
  a: { type: 'accept' },
  r: { type: 'reject' },
  s: { type: 'skip' },
  A: { type: 'accept-rest' },
  R: { type: 'reject-rest' },
  S: { type: 'skip-rest' },
  d: { type: 'whole-diff' },
  q: { type: 'quit' },
};

// The action for one key pressed in raw mode.
export function reviewActionForKey(key: string): ReviewAction {
  if (key === CTRL_C) return { type: 'interrupt' };
  if (key === CTRL_D) return { type: 'quit' };
  if (ENTERS.has(key)) return { type: 'accept' };
  const action = KEYS[key];
  if (action !== undefined) return action;
  // An arrow key or another escape sequence is no answer, and no mistake worth a notice either.
  return [...key].length === 1 && !/\p{Cc}/u.test(key) ? { type: 'unknown', input: key } : { type: 'none' };
}

// The action for one line of piped stdin: the line, trimmed, is a key.
export function reviewActionForLine(line: string): ReviewAction {
  const word = line.trim();
  if (word === '') return { type: 'accept' };
  if ([...word].length !== 1) return { type: 'unknown', input: word };
  return reviewActionForKey(word);
}

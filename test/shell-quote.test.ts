// A word quoted for a student to paste: a POSIX shell (bash, here) reads each back unchanged, and a control or
// invisible character is never in the quoted text raw.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { shellQuote } from '../src/shell-quote.ts';

it.each([
  ['plain', 'class/alice', 'class/alice'],
  ['a space and a quote', "o'brien x", `'o'\\''brien x'`],
  ['an escape sequence', 'ev\u001b[31mil', `$'ev\\x1b[31mil'`],
  ['a right-to-left override', 'rlo\u202egnp.exe', `$'rlo\\u202egnp.exe'`],
  ['a line break, a quote and a backslash', "a\nb'c\\", `$'a\\x0ab\\'c\\\\'`],
])('quotes %s as bash reads it back', (_, word, quoted) => {
  expect(shellQuote(word)).toBe(quoted);
  expect(execFileSync('bash', ['-c', `printf %s ${shellQuote(word)}`]).toString()).toBe(word);
  expect(shellQuote(word)).not.toMatch(/[\u0000-\u001f\u202e]/u);
});

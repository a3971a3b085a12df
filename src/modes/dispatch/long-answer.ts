// A stand-in output longer than any the Tools give, and how the probe writes a long text. The grader asks for it by
// length, so its request stays small; the driver makes it, and the judge makes the same to compare. A dispatcher
// that cuts what its method returned (to 50,000 characters, say) shows the cut on it, which no short output can.
import { BASH_LIMIT } from '../../tools/bash.ts';
import { VIEW_LIMIT } from '../../tools/view.ts';

// Longer than the longest output a Tools method gives (view's cut and its note): a cut below it loses text the
// Tools meant the model to read; one above it changes nothing.
export const LONG_ANSWER_LENGTH = Math.max(VIEW_LIMIT, BASH_LIMIT) + 10_000;

// `content` followed by numbered lines up to `length` characters: any part of it is told apart by its lines. The
// lines are made once (a probe pads a dozen answers, and the judge the same again).
export function padded(content: string, length: number): string {
  return `${content}${filler(length)}`.slice(0, length);
}

let lines = '';
function filler(length: number): string {
  for (let n = lines.split('\n').length; lines.length < length; n++) lines += `probe line ${n}\n`;
  return lines;
}

// How the probe writes a text past 500 characters: its ends and its length.
export type LongText = { $: 'text'; head: string; tail: string; length: number };

export function abbreviate(text: string): LongText {
  return { $: 'text', head: text.slice(0, 200), tail: text.slice(-200), length: text.length };
}

// The start of `full` that `written` abbreviates, or undefined when it is not one.
export function startOf(written: unknown, full: string): string | undefined {
  const w = written as Partial<LongText> | null;
  if (w === null || typeof w !== 'object' || w.$ !== 'text' || typeof w.length !== 'number') return undefined;
  const start = full.slice(0, w.length);
  const same = abbreviate(start);
  return w.length <= full.length && same.head === w.head && same.tail === w.tail ? start : undefined;
}

// A group of failures that share a cause, for the terminal: the first in full and the others by name, or, for a
// program that did not start, one verdict with its error once and what to do.
import type { CaseResult } from '../types.ts';
import type { FailureGroup } from './group-failures.ts';
import { painter } from './paint.ts';
import { renderFailure, renderOutput } from './render-failure.ts';
import { trimStack } from './trim-stack.ts';
import { visibleLine } from './visible-text.ts';

// Names listed after "fail the same way", at most this many characters' worth (about four lines), then a count.
const NAMES_CHARS = 360;
const LINE_CHARS = 100;

// The group's text; `total` is the number of cases the run graded.
export function renderGroup(group: FailureGroup, options: { color: boolean; total: number }): string {
  const [first, ...rest] = group.results;
  if (first === undefined) return '';
  if (first.failure?.beforeAnyCase === true) return renderLoadFailure(first, group.results.length, options);
  const text = renderFailure(first, options);
  if (rest.length === 0) return text;
  const c = painter(options.color);
  const head = `${rest.length} more ${rest.length === 1 ? 'case fails' : 'cases fail'} the same way:`;
  return `${text}\n\n  ${c.yellow(head)}\n${wrapNames(rest.map((r) => r.name))
    .map((l) => `    ${l}`)
    .join('\n')}`;
}

// One verdict for a program that failed before its first case: its error once (without the stack frames of
// Node and node_modules), then what to do.
export function renderLoadFailure(
  first: CaseResult,
  count: number,
  options: { color: boolean; total: number },
): string {
  const c = painter(options.color);
  const which =
    count === options.total ? `none of the ${count} cases ran` : `${count} of the ${options.total} cases did not run`;
  const failure = first.failure!;
  const lines = [
    `${c.red('✗')} ${c.bold('your program did not start')}${c.dim(` — ${which}`)}`,
    `  ${visibleLine(failure.message)}`,
  ];
  const trimmed = trimStack(first.output);
  const output = renderOutput(trimmed.text);
  if (output !== '') lines.push('', output.replace(/^/gm, '  '));
  if (trimmed.dropped > 0)
    lines.push(c.dim(`  (${trimmed.dropped} lines of stack inside Node and node_modules left out)`));
  if (failure.hint !== undefined) lines.push('', `  ${c.yellow('hint:')} ${visibleLine(failure.hint)}`);
  return lines.join('\n');
}

// Names joined with commas into lines of at most LINE_CHARS, the list cut after NAMES_CHARS with a count of the rest.
function wrapNames(names: string[]): string[] {
  let chars = 0;
  const shown = names.filter((name, i) => (chars += name.length + 2) <= NAMES_CHARS || i === 0);
  const left = names.length - shown.length;
  const words = shown.map((name, i) =>
    i < shown.length - 1 ? `${name},` : left > 0 ? `${name}, and ${left} more` : name,
  );
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= LINE_CHARS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

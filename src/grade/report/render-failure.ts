// The full diagnosis of one failed case, in the order a student reads it: which case and what it proves,
// which call went wrong and with what input, the hint, expected vs received (cut to a screenful from the first
// difference, so the hint stays in sight), then what the program printed.
import type { CaseResult } from '../types.ts';
import { short } from '../judge/compare-results.ts';
import { painter } from './paint.ts';
import { renderValueDiff } from './render-diff.ts';
import { visibleLine, visibleText } from './visible-text.ts';

// Lines of the program's output shown at most (the last ones: a crash explains itself at the end).
const OUTPUT_LINES = 30;
const OUTPUT_LINE_CHARS = 300;
const INPUT_CHARS = 300;

// The diagnosis of a case (a passing case renders as its title alone). Plain text when `color` is false.
export function renderFailure(result: CaseResult, options: { color: boolean }): string {
  const c = painter(options.color);
  const mark = result.status === 'pass' ? c.green('✓') : c.red('✗');
  const title = `${mark} ${c.bold(result.name)}${result.description === '' ? '' : c.dim(` — ${result.description}`)}`;
  const failure = result.failure;
  if (result.status === 'pass' || failure === undefined) return title;
  // A message can quote the program (a bad line, a thrown error): shown, never acted on.
  const lines = [title, `  ${visibleLine(failure.message)}`];
  if (failure.call !== undefined) lines.push(`  ${c.dim('input:')} ${short(failure.call.input, INPUT_CHARS)}`);
  if (failure.hint !== undefined) lines.push('', `  ${c.yellow('hint:')} ${visibleLine(failure.hint)}`);
  // A hidden case's failure holds no expected result (src/grade/judge/withhold-expected.ts): nothing to diff.
  if ((failure.kind === 'mismatch' || failure.kind === 'result-count') && 'expected' in failure) {
    const expected = failure.variant === undefined ? 'expected (snapshot)' : 'expected (the reference, on the variant)';
    const labels = { expected, received: 'received (your program)' };
    const diff = renderValueDiff(failure.expected, failure.received, { color: options.color, labels });
    lines.push('', indent(diff, '    '));
  }
  const output = renderOutput(result.output);
  if (output !== '') lines.push('', indent(output, '  '));
  return lines.join('\n');
}

// The tail of what the program printed, every line prefixed `[your_program] ` so it cannot pass for ours, and
// its control characters and separators made visible so that none can move the cursor, clear the screen or start
// a line of its own (in a terminal, or once a CI format turns U+2028 into a line break).
export function renderOutput(output: string): string {
  const text = visibleText(output).replace(/\n$/, '');
  if (text.trim() === '') return '';
  const all = text.split('\n');
  const tail = all.slice(-OUTPUT_LINES);
  const cut = (l: string): string => (l.length > OUTPUT_LINE_CHARS ? `${l.slice(0, OUTPUT_LINE_CHARS)}…` : l);
  const heading =
    all.length > tail.length
      ? `your program's output (last ${tail.length} of ${all.length} lines):`
      : "your program's output:";
  return [heading, ...tail.map((l) => `[your_program] ${cut(l)}`)].join('\n');
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : by + l))
    .join('\n');
}

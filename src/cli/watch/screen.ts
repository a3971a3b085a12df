// The text watch mode prints around the grader's report: a header per run (the time and what triggered it), the
// verdict compared with the last run, the one-line key menu and the filter prompt. Pure: strings in, string out.
import { Chalk } from 'chalk';
import { renderLiveCount } from '../../grade/report/pretty.ts';
import { DID_NOT_START, type Comparison, type RunVerdict } from './verdict.ts';
import type { RunReason } from './watch-loop.ts';

// Where the output goes: a terminal gets a cleared screen and a redrawn prompt, a pipe gets separators.
export type ScreenOptions = { tty: boolean; color: boolean };

// Clear the screen and the scrollback, cursor home: each run starts on a clean screen.
const CLEAR_SCREEN = '\u001b[2J\u001b[3J\u001b[H';
// The caller decides whether to colour (a TTY, NO_COLOR unset); chalk must not second-guess it.
const chalk = new Chalk({ level: 1 });
// Back to column 0 and erase the line, to redraw the prompt in place.
const ERASE_LINE = '\r\u001b[2K';

// The first lines of a run: a clean screen (or a separator), the time and why it runs.
export function renderHeader(
  reason: RunReason,
  context: { now: Date; stage: string; filter: string | undefined },
  options: ScreenOptions,
): string {
  const scope = context.filter === undefined ? '' : ` (filter ${JSON.stringify(context.filter)})`;
  const line = `${clock(context.now)} · ${describeReason(reason)} · grading ${context.stage}${scope}`;
  if (options.tty) return `${CLEAR_SCREEN}${paint(options, chalk.dim, line)}\n\n`;
  return `\n${'─'.repeat(3)} ${line} ${'─'.repeat(3)}\n`;
}

// Why a run started, in the student's words.
export function describeReason(reason: RunReason): string {
  switch (reason.kind) {
    case 'start':
      return 'watch mode started';
    case 'files': {
      const [first, ...rest] = reason.paths;
      if (rest.length === 0) return `${first ?? 'a file'} changed`;
      return `${first} and ${rest.length} more ${rest.length === 1 ? 'file' : 'files'} changed`;
    }
    case 'run-all':
      return 'a: re-running all cases';
    case 'run-failed':
      return `f: re-running ${reason.count} failed ${reason.count === 1 ? 'case' : 'cases'}`;
    case 'filter':
      return reason.filter === undefined ? 'filter cleared' : `filter ${JSON.stringify(reason.filter)} applied`;
  }
}

// The verdict against the last run over the same cases; empty for a first run.
export function renderComparison(comparison: Comparison): string {
  switch (comparison.kind) {
    case 'first':
      return '';
    case 'same':
      return `same verdict as last run: ${summarise(comparison.verdict)}\n`;
    case 'changed':
      return `verdict changed: ${summarise(comparison.before)} → ${summarise(comparison.after)}\n`;
  }
}

// The one-line key menu shown after each run; on a terminal it replaces whatever the line held (the filter
// prompt, after Esc), rather than joining it. After `f`, a filter still set is said to be the saves' only.
export function renderMenu(filter: string | undefined, options: ScreenOptions, afterFailed = false): string {
  const key = (k: string): string => paint(options, chalk.bold, k);
  const keys = [
    `${key('a')}/${key('Enter')} run all`,
    `${key('f')} run failed`,
    `${key('p')} filter by case name`,
    `${key('q')} quit`,
  ].join(' · ');
  const scope = afterFailed ? ' (saves re-run it; f ran the last failures)' : '';
  const current = filter === undefined ? '' : ` · filter: ${JSON.stringify(filter)}${scope}`;
  return `${options.tty ? ERASE_LINE : ''}${paint(options, chalk.dim, 'Watching for changes.')} ${keys}${current}\n`;
}

// The filter prompt. On a terminal it is redrawn in place as the student types; through a pipe it asks for a line.
export function renderPrompt(draft: string, options: ScreenOptions): string {
  if (options.tty) return `${ERASE_LINE}Filter by case name (Enter applies, empty clears, Esc cancels) › ${draft}`;
  return 'Filter by case name: send a name or glob on one line (an empty line clears the filter).\n';
}

// The live count of a run on a terminal, redrawn in place; `undefined` erases it before other output. A pipe
// gets nothing: it would be a line per case.
export function renderProgress(count: { done: number; failed: number } | undefined, options: ScreenOptions): string {
  if (!options.tty) return '';
  return count === undefined ? ERASE_LINE : renderLiveCount(count, options);
}

// A notice (an unknown key, nothing to re-run) or a harness error between runs.
export function renderMessage(kind: 'notice' | 'error', message: string, options: ScreenOptions): string {
  const text = kind === 'error' ? paint(options, chalk.red, `error: ${message}`) : message;
  return `${options.tty ? ERASE_LINE : ''}${text}\n`;
}

// "3 failed" or "all 60 passed": the verdict in as few words as carry it.
// `34 failed`; when the failures did not run because the program did not start, it says so as the report does.
function summarise(v: RunVerdict): string {
  if (v.failed === 0) return `all ${v.passed} passed`;
  const notStarted = v.failedKinds.length > 0 && v.failedKinds.every((k) => k === DID_NOT_START);
  return `${v.failed} failed${notStarted ? ' (not run: your program did not start)' : ''}`;
}

function clock(now: Date): string {
  return [now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

function paint(options: ScreenOptions, style: (s: string) => string, text: string): string {
  return options.color ? style(text) : text;
}

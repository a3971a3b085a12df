// The type check beside a terminal verdict: one line per type error (file:line:column, code, the first line of
// tsc's message), the first few of them, and what they count for. Pure. Errors and paths are tsc's reading of the
// student's files, so each is shown as one visible line.
import type { TypeCheck, TypeCheckSetting } from '../types.ts';
import { painter } from './paint.ts';
import { visibleLine } from './visible-text.ts';

// A student fixes the first errors first; the rest are a `npm run typecheck` away.
const SHOWN = 5;

// The note for `check` under `setting`; '' when there is nothing to say (clean, or not run and not required).
export function renderTypeCheckNote(check: TypeCheck, setting: TypeCheckSetting, options: { color: boolean }): string {
  const c = painter(options.color);
  if (check.kind === 'clean') return '';
  if (check.kind === 'not run') {
    // Only a course that grades its type check needs to hear it did not run (watch's own stops say nothing).
    if (setting !== 'fail' || check.why === 'stopped') return '';
    return `\n ${c.yellow('Types')}  not checked: ${visibleLine(check.why)}. The cases above are the grade.\n`;
  }
  const n = check.errors.length;
  const counted =
    setting === 'fail'
      ? c.red('this course fails the run on a type error')
      : c.dim('not graded: the cases above are the grade');
  const lines = check.errors.slice(0, SHOWN).map((e) => {
    const at = e.file === undefined ? '' : `${visibleLine(e.file)}:${e.line}:${e.column}  `;
    return `   ${at}${c.dim(e.code)} ${visibleLine(e.message)}`;
  });
  if (n > SHOWN) lines.push(`   ${c.dim(`and ${n - SHOWN} more`)}`);
  return `\n ${c.yellow('Types')}  ${n} type error${n === 1 ? '' : 's'} (npm run typecheck); ${counted}\n${lines.join('\n')}\n`;
}

// Whether `check` fails a run under `setting`: a type error it found. A check that could not run fails nothing (a
// course graded from elsewhere is graded by its cases) and says why.
export function typeCheckFails(check: TypeCheck, setting: TypeCheckSetting): boolean {
  return setting === 'fail' && check.kind === 'errors';
}

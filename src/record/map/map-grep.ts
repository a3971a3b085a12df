// Claude Code's Grep in the course's terms. The course's grep takes a pattern, a path and a glob, and always prints
// `file:line: text`; Claude Code's adds presentation keys. Those that only choose what is shown (`output_mode`
// files or content, `-n`, a `head_limit` the result never reached) are dropped from the input and decide how the
// replay is compared (the set of files, or of lines); those that change what matches or cut the result (`-i`,
// `type`, `multiline`, `count`, a binding `head_limit` or an `offset`) cannot be expressed, and the call is
// dropped. Context lines (`-A`, `-B`, `-C`) are presentation too: ignored in files mode, left out of the comparison
// in content mode.
import type { ImportedCall } from '../types.ts';
import { asRecord, defaultPath, rename, type Dropped, type MapContext, type Mapping } from './call-input.ts';

// Keys whose presence (with a value that matters) the course cannot honour, and the report's words for each.
const UNSUPPORTED: [key: string, matters: (v: unknown) => boolean, reason: string][] = [
  ['-i', (v) => v === true, 'Grep -i (case-insensitive)'],
  ['type', (v) => typeof v === 'string' && v !== '', 'Grep type filter'],
  ['multiline', (v) => v === true, 'Grep multiline'],
  ['offset', (v) => typeof v === 'number' && v > 0, 'Grep offset'],
];

// Context lines around each match: shown only in content mode, where ripgrep prints a match as `file:N:text`
// and a line around it as `file-N-text`, groups between `--` rows. The course's grep prints matches alone, so the
// call is judged by the recorded match lines; without line numbers (`-n: false`) a match and a context line cannot
// be told apart, and the call is dropped.
const CONTEXT_KEYS = ['-A', '-B', '-C', 'context'];

// The course call for a Grep, or why there is none.
export function mapGrep(imported: ImportedCall, input: Record<string, unknown>, where: MapContext): Mapping | Dropped {
  for (const [key, matters, reason] of UNSUPPORTED) if (matters(input[key])) return { drop: reason };
  const claudeCode = where.claudeCode !== false && imported.name === 'Grep';
  const mode = input.output_mode ?? (claudeCode ? 'files_with_matches' : 'content');
  if (mode !== 'files_with_matches' && mode !== 'content') return { drop: `Grep output_mode ${String(mode)}` };
  const context = CONTEXT_KEYS.some((k) => typeof input[k] === 'number' && (input[k] as number) > 0);
  if (context && mode === 'content' && input['-n'] === false) return { drop: 'Grep context lines without -n' };
  const content = imported.result?.content ?? '';
  if (typeof input.head_limit === 'number' && resultCount(content, imported.result?.details) >= input.head_limit) {
    return { drop: 'Grep head_limit cut the result' };
  }
  const mapping = rename(
    imported.name,
    input,
    { pattern: 'pattern', path: 'path', glob: 'glob' },
    { kind: 'grep', mode: 'files', base: '' },
  );
  const path = defaultPath(mapping.call.input, where);
  const numbered = input['-n'] !== false;
  mapping.check = {
    kind: 'grep',
    mode: mode === 'files_with_matches' ? 'files' : numbered ? 'lines' : 'text',
    // Claude Code prints paths relative to where the agent was, whatever it searched.
    base: where.subdir ?? '',
    ...(claudeCode ? {} : { courseWords: true }),
    ...(context && mode === 'content' ? { context: true } : {}),
    ...(claudeCode && mode === 'content' && singleFileOutput(content, context) && typeof input.path === 'string'
      ? { singleFile: path }
      : {}),
  };
  return mapping;
}

// How many files or lines the result listed: what `head_limit` counts.
function resultCount(content: string, details: unknown): number {
  const d = asRecord(details);
  if (typeof d?.numLines === 'number' && d.mode === 'content') return d.numLines;
  if (typeof d?.numFiles === 'number' && d.mode !== 'content') return d.numFiles;
  return content.split('\n').filter((l) => l !== '' && !/^Found \d+ files?$|^\[Showing results/.test(l)).length;
}

// ripgrep leaves out the file name when it searched a single file: every line is `N:text` (and, with context
// lines, `N-text` or the `--` between groups).
function singleFileOutput(content: string, context: boolean): boolean {
  const lines = content.split('\n').filter((l) => l !== '' && !l.startsWith('[Showing results'));
  const row = context ? /^(?:\d+[:-]|--$)/ : /^\d+:/;
  return lines.some((l) => /^\d+:/.test(l)) && lines.every((l) => row.test(l));
}

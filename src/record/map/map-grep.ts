// Claude Code's Grep in the course's terms. The course's grep takes a pattern, a path and a glob, and always prints
// `file:line: text`; Claude Code's adds presentation keys. Those that only choose what is shown (`output_mode`
// files or content, `-n`, a `head_limit` the result never reached) are dropped from the input and decide how the
// replay is compared (the set of files, or of lines); those that change what matches or cut the result (`-i`,
// `type`, `multiline`, context lines, `count`, a binding `head_limit` or an `offset`) cannot be expressed, and
// the call is dropped.
import type { ImportedCall } from '../types.ts';
import { asRecord, defaultPath, rename, type Dropped, type MapContext, type Mapping } from './call-input.ts';

// Keys whose presence (with a value that matters) the course cannot honour, and the report's words for each.
const UNSUPPORTED: [key: string, matters: (v: unknown) => boolean, reason: string][] = [
  ['-i', (v) => v === true, 'Grep -i (case-insensitive)'],
  ['type', (v) => typeof v === 'string' && v !== '', 'Grep type filter'],
  ['multiline', (v) => v === true, 'Grep multiline'],
  ['-A', (v) => typeof v === 'number' && v > 0, 'Grep context lines'],
  ['-B', (v) => typeof v === 'number' && v > 0, 'Grep context lines'],
  ['-C', (v) => typeof v === 'number' && v > 0, 'Grep context lines'],
  ['context', (v) => typeof v === 'number' && v > 0, 'Grep context lines'],
  ['offset', (v) => typeof v === 'number' && v > 0, 'Grep offset'],
];

// The course call for a Grep, or why there is none.
export function mapGrep(
  imported: ImportedCall,
  input: Record<string, unknown>,
  context: MapContext,
): Mapping | Dropped {
  for (const [key, matters, reason] of UNSUPPORTED) if (matters(input[key])) return { drop: reason };
  const claudeCode = context.claudeCode !== false && imported.name === 'Grep';
  const mode = input.output_mode ?? (claudeCode ? 'files_with_matches' : 'content');
  if (mode !== 'files_with_matches' && mode !== 'content') return { drop: `Grep output_mode ${String(mode)}` };
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
  const path = defaultPath(mapping.call.input, context);
  const numbered = input['-n'] !== false;
  mapping.check = {
    kind: 'grep',
    mode: mode === 'files_with_matches' ? 'files' : numbered ? 'lines' : 'text',
    // Claude Code prints paths relative to where the agent was, whatever it searched.
    base: context.subdir ?? '',
    ...(claudeCode ? {} : { courseWords: true }),
    ...(claudeCode && mode === 'content' && singleFileOutput(content) && typeof input.path === 'string'
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

// ripgrep leaves out the file name when it searched a single file: every line is `N:text`.
function singleFileOutput(content: string): boolean {
  const lines = content.split('\n').filter((l) => l !== '' && !l.startsWith('[Showing results'));
  return lines.length > 0 && lines.every((l) => /^\d+:/.test(l));
}

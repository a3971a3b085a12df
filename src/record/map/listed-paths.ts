// The files and lines a Glob or Grep result lists, as sandbox-relative paths, read from the agent's recorded text
// (Claude Code: absolute paths, `Found N files`, `file:N:text` or `N:text` for one file) or from the course's
// (paths relative to the search directory for glob, to the sandbox for grep, `file:N: text`). Verification
// compares these sets; seeds learn from the recorded ones which files existed and what some of their lines were.
import type { CheckSpec } from '../record-types.ts';
import { sandboxRelative } from './call-input.ts';

// A listing: the files named, and for grep's content mode the lines shown per file (number -> text).
export type Listing = { files: string[]; lines: Map<string, Map<number, string>>; texts: string[] };

// Gemini CLI heads a listing with `Found 2 file(s) matching "*.ts" within /p, sorted by modification time…:`, and
// says `No files found matching pattern "x" within /p` for none; its search, `Found 3 matches for pattern "x" in
// path "src":`, `No matches found for pattern "x" …`, with its groups between `---` rows.
const NOTHING = /^(No files found|No matches found|Found 0 files?|No files found matching .*|No matches found for .*)$/;
const NOISE =
  /^(Found \d+ files?|Found \d+ file\(s\) matching .*:|Found \d+ match(es)? for pattern .*:|---|\[Showing results with pagination.*\]|\(Results are truncated.*\))$/;

type ListCheck = Extract<CheckSpec, { kind: 'glob' | 'grep' }>;

// What the agent's recorded result lists.
export function listedPaths(check: ListCheck, content: string): Listing {
  if (check.kind === 'grep' && check.courseWords === true) return courseListing(check, content);
  const rows = check.kind === 'grep' && check.context === true ? matchRows(rowsOf(content), check) : rowsOf(content);
  if (check.kind === 'glob' || check.mode === 'files') {
    // Claude Code prints absolute paths; an agent printing relative ones means them from where it searched.
    return listing(rows.map((row) => sandboxRelative(row, check.base)));
  }
  const lines = new Map<string, Map<number, string>>();
  const texts: string[] = [];
  for (const row of rows) {
    const match = check.singleFile !== undefined ? /^()(\d+):(.*)$/s.exec(row) : /^(.+?):(\d+):(.*)$/s.exec(row);
    if (check.mode === 'lines' && match === null && check.singleFile === undefined) {
      // A row shaped as no `file:N:text` line (a note, a preview) names no file; it still counts among the texts.
      texts.push(`\u0000${row}`);
      continue;
    }
    if (check.mode === 'text' || match === null) {
      const [file, text] = check.singleFile !== undefined ? [check.singleFile, row] : splitOnce(row, ':');
      texts.push(`${check.singleFile ?? sandboxRelative(file, check.base)}\u0000${text}`);
      continue;
    }
    const file = check.singleFile ?? sandboxRelative(match[1] ?? '', check.base);
    const n = Number(match[2]);
    const text = match[3] ?? '';
    if (!lines.has(file)) lines.set(file, new Map());
    lines.get(file)?.set(n, text);
    texts.push(`${file}\u0000${n}\u0000${text}`);
  }
  return {
    files: [...new Set([...lines.keys(), ...texts.map((t) => t.split('\u0000')[0] ?? '')])]
      .filter((f) => f !== '')
      .sort(),
    lines,
    texts: texts.sort(),
  };
}

// What the course's glob or grep printed, in the same terms.
export function courseListing(check: ListCheck, content: string): Listing {
  const rows = rowsOf(content);
  if (check.kind === 'glob') return listing(rows.map((row) => sandboxRelative(row, check.base)));
  const lines = new Map<string, Map<number, string>>();
  const texts: string[] = [];
  for (const row of rows) {
    const match = /^(.+?):(\d+): (.*)$/s.exec(row);
    if (match === null) continue;
    const [file, n, text] = [match[1] ?? '', Number(match[2]), match[3] ?? ''];
    if (!lines.has(file)) lines.set(file, new Map());
    lines.get(file)?.set(n, text);
    texts.push(check.mode === 'text' ? `${file}\u0000${text}` : `${file}\u0000${n}\u0000${text}`);
  }
  return { files: [...lines.keys()].sort(), lines, texts: texts.sort() };
}

// The match rows of a content listing with context lines: without the `--` between groups and the lines around
// the matches (`file-N-text`, `N-text` for one file). A row read both ways is the kind whose file part ends first
// (`a.ts:3:x-1-y` is a match, `a.ts-4-x:1:y` a context line).
function matchRows(rows: string[], check: Extract<ListCheck, { kind: 'grep' }>): string[] {
  const ends = (row: string, sep: string): number => {
    const m = (
      check.singleFile !== undefined ? new RegExp(`^()\\d+${sep}`) : new RegExp(`^(.+?)${sep}\\d+${sep}`)
    ).exec(row);
    return m === null ? Number.POSITIVE_INFINITY : (m[1] ?? '').length;
  };
  return rows.filter(
    (row) => row !== '--' && ends(row, ':') <= ends(row, '-') && ends(row, ':') !== Number.POSITIVE_INFINITY,
  );
}

function rowsOf(content: string): string[] {
  const rows = ungrouped(content.split('\n')).filter((row) => row !== '' && !NOISE.test(row));
  return rows.length === 1 && NOTHING.test(rows[0] ?? '') ? [] : rows;
}

// Gemini CLI's search groups its matches per file, `File: src/a.ts` then `L12: text` rows: read as `file:N:text`.
function ungrouped(rows: string[]): string[] {
  if (!rows.some((row) => row.startsWith('File: '))) return rows;
  let file = '';
  return rows.flatMap((row) => {
    if (row.startsWith('File: ')) {
      file = row.slice('File: '.length);
      return [];
    }
    const match = /^L(\d+): (.*)$/s.exec(row);
    return match === null ? [row] : [`${file}:${match[1]}:${match[2]}`];
  });
}

function listing(files: string[]): Listing {
  return { files: [...new Set(files)].sort(), lines: new Map(), texts: [] };
}

function splitOnce(row: string, separator: string): [string, string] {
  const at = row.indexOf(separator);
  return at === -1 ? ['', row] : [row.slice(0, at), row.slice(at + 1)];
}

// Claude Code 1.0's LS result read back: a root row naming the directory (`- <sandbox>/`, or the session's
// directory with the listed one nested below it), then one `- name` row per entry, two more spaces of indent per
// level, directories ending in `/`, every level down, then a note to the model. The course's view of a directory
// shows two levels (src/tools/view-directory.ts), so a replay compares the tree's entries two levels below the
// directory listed; the deeper rows still say which files exist there.
import ignore from 'ignore';
import { byCodePoint } from '../../tools/text-limit.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import { sandboxRelative } from './call-input.ts';

// Claude Code lists at most 1,000 entries and says so above the tree.
export const LS_TRUNCATED = /^There are more than \d+ files/;

// The tree's entries relative to `base` (the sandbox-relative directory the call listed), in order, every level
// down (`a.ts`, `src/`, `src/b.ts`, `src/deep/c.ts`); undefined when the text is no LS tree of it.
export function readLsTree(content: string, base: string): string[] | undefined {
  const rows = content.split('\n');
  const rootAt = rows.findIndex((row) => /^- .+[/\\]$/.test(row));
  if (rootAt === -1) return undefined;
  const rootPath = (rows[rootAt] ?? '').slice(2).replace(/\\/g, '/');
  if (!rootPath.startsWith(SANDBOX)) return undefined;
  const root = sandboxRelative(rootPath, '');
  const within = root === '' ? base : base.startsWith(`${root}/`) ? base.slice(root.length + 1) : undefined;
  if (within === undefined && base !== root) return undefined;
  const below = base === root ? '' : `${within}/`;
  const stack: string[] = [];
  const entries: string[] = [];
  for (const row of rows.slice(rootAt + 1)) {
    const match = /^((?: {2})+)- (.+)$/.exec(row);
    if (match === null) break;
    const depth = (match[1] ?? '').length / 2;
    if (depth > stack.length + 1) return undefined;
    stack.length = depth - 1;
    const name = match[2] ?? '';
    const path = [...stack, name].join('/');
    stack.push(name.replace(/\/$/, ''));
    if (path.startsWith(below) && path !== below) entries.push(path.slice(below.length));
  }
  return entries;
}

// The entries the course's view shows of the same directory (two levels), or its first `levels`, sorted as it sorts
// them.
export function viewLevels(entries: string[], levels = 2): string[] {
  return entries.filter((e) => e.replace(/\/$/, '').split('/').length <= levels).sort(byCodePoint);
}

// The files a view of the directory needs to show what the tree shows: its files two levels down, and for each
// directory there one file below it (a seed is files only, so a directory exists through a file in it).
export function filesToShow(entries: string[]): string[] {
  const files = entries.filter((e) => !e.endsWith('/'));
  const chosen = files.filter((f) => f.split('/').length <= 2);
  for (const dir of viewLevels(entries).filter((e) => e.endsWith('/'))) {
    if (chosen.some((f) => f.startsWith(dir))) continue;
    const inside = files.find((f) => f.startsWith(dir));
    if (inside !== undefined) chosen.push(inside);
  }
  return chosen;
}

// The course's view of a directory as entries, without those LS's `ignore` patterns hide (and what is below them).
export function viewEntries(text: string, ignored: string[] = []): string[] {
  const rows = text === '(empty directory)' ? [] : text.split('\n').filter((row) => row !== '');
  if (ignored.length === 0) return rows.sort(byCodePoint);
  const matcher = ignore().add(ignored);
  return rows.filter((row) => !matcher.ignores(row)).sort(byCodePoint);
}

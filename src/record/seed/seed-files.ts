// A case's seed: the files its calls need, as they were when its first call ran, built from the recording's own
// evidence (src/record/map/evidence.ts) or from --files-from. For each file, the first thing the recording shows of
// it from the case's start on, before anything changed it: a whole Read, an Edit's or Write's `originalFile`,
// a Write that created it (then it is not seeded), the lines of partial Reads and Grep (the rest left blank), or
// only that it existed (a Glob or Grep listed it: seeded empty). A Bash call that names a file may have changed
// it, so the search stops there.
import type { Evidence, Knowledge } from '../map/evidence.ts';
import type { SeedOrigin } from '../record-types.ts';
import { isSeedPath } from '../../course/seed-path.ts';

// A file's text past which it is not seeded (its calls are dropped): a case is read in a failure.
export const MAX_SEED_CHARS = 100_000;

// One step of a timeline as seeds see it: the call's evidence, and whether it ran at all.
export type SeedStep = { evidence: Evidence; ran: boolean };

// The workspace as it was (--files-from): a file's text, or undefined when it has none (or is not text).
export type FilesFrom = (path: string) => Promise<string | undefined>;

// What the seed holds, where each file came from, and files it would need but cannot hold.
export type Seed = { files: Record<string, string>; origins: Record<string, SeedOrigin>; tooLarge: string[] };

// The seed for the calls at `steps[from..to]` (inclusive) that touch `paths`. `changedEarlier(path)`: whether a
// call before `from` changed the file, which makes --files-from's copy stale.
export async function deriveSeed(
  steps: SeedStep[],
  range: { from: number; to: number },
  paths: string[],
  filesFrom?: { read: FilesFrom; changedEarlier: (path: string) => boolean },
): Promise<Seed> {
  const seed: Seed = { files: {}, origins: {}, tooLarge: [] };
  const wanted = [...new Set(paths)].filter(isSeedPath).sort();
  // A file cannot also be a directory: a path some other wanted path lies below was a directory by then.
  const directories = new Set(
    wanted.flatMap((p) =>
      p
        .split('/')
        .slice(0, -1)
        .map((_, i, a) => a.slice(0, i + 1).join('/')),
    ),
  );
  for (const path of wanted.filter((p) => !directories.has(p))) {
    let found = fromEvidence(steps, range, path);
    // The recording's own view of the file wins; --files-from stands in for guesses (blank lines, empty files).
    const seen =
      found !== undefined && (found.origin === 'read' || found.origin === 'edit' || found.origin === 'write');
    if (!seen && filesFrom !== undefined && !filesFrom.changedEarlier(path)) {
      const text = await filesFrom.read(path);
      if (text !== undefined) found = { text, origin: 'files-from' };
    }
    if (found === undefined || found.text === undefined) continue;
    if (found.text.length > MAX_SEED_CHARS) seed.tooLarge.push(path);
    else {
      seed.files[path] = found.text;
      seed.origins[path] = found.origin;
    }
  }
  return seed;
}

// What the recording says the file was at `from`: its text (undefined text: it did not exist), or nothing known.
// First what the case's own calls show of it, before any of them changed it; failing a whole text, what earlier
// calls left it as (a Write's content, an Edit's result, a whole Read) when nothing changed it since.
function fromEvidence(
  steps: SeedStep[],
  range: { from: number; to: number },
  path: string,
): { text?: string; origin: SeedOrigin } | undefined {
  let lines: { lines: Map<number, string>; total?: number } | undefined;
  let exists = false;
  for (let at = range.from; at <= range.to; at++) {
    const step = steps[at];
    if (step === undefined || !step.ran) continue;
    const known = step.evidence.before.get(path);
    if (known !== undefined) {
      const settled = settle(known, lines);
      if (settled !== undefined) return settled;
      if (known.kind === 'exists') exists = true;
      if (known.kind === 'lines') lines = merge(lines, known);
    }
    if (changes(step.evidence, path)) break;
  }
  const earlier = lastKnown(steps, range.from, path);
  if (earlier !== undefined && earlier.text !== undefined && (lines === undefined || agrees(earlier.text, lines.lines)))
    return earlier;
  if (earlier !== undefined && earlier.text === undefined && lines === undefined && !exists) return earlier;
  if (lines !== undefined) return { text: sparseText(lines), origin: 'partial-read' };
  return exists ? { text: '', origin: 'listing' } : undefined;
}

// The file as the calls before `from` last left or saw it, when nothing changed it since in a way they do not show.
// A listing since then says it still exists (seeded empty, as a listing in the case would be) unless an earlier
// call shows its text and nothing changed it between.
function lastKnown(steps: SeedStep[], from: number, path: string): { text?: string; origin: SeedOrigin } | undefined {
  let listed = false;
  const orListed = (found: { text?: string; origin: SeedOrigin } | undefined) =>
    listed ? { text: '', origin: 'listing' as const } : found;
  for (let at = from - 1; at >= 0; at--) {
    const step = steps[at];
    if (step === undefined || !step.ran) continue;
    const known = step.evidence.before.get(path);
    if (changes(step.evidence, path)) {
      const after = step.evidence.after?.get(path);
      return after === undefined
        ? orListed(undefined)
        : { text: after, origin: known?.kind === 'text' ? known.origin : 'write' };
    }
    if (known?.kind === 'text') return { text: known.text, origin: known.origin };
    if (known?.kind === 'absent') return orListed({ origin: 'write' });
    if (known?.kind === 'exists') listed = true;
  }
  return orListed(undefined);
}

// A piece of knowledge that decides the file: its whole text (when it agrees with the lines seen before), or
// that it did not exist.
function settle(
  known: Knowledge,
  lines: { lines: Map<number, string> } | undefined,
): { text?: string; origin: SeedOrigin } | undefined {
  if (known.kind === 'absent')
    return lines === undefined ? { origin: 'write' } : { text: sparseText(lines), origin: 'partial-read' };
  if (known.kind !== 'text') return undefined;
  if (lines === undefined || agrees(known.text, lines.lines)) return { text: known.text, origin: known.origin };
  return { text: sparseText(lines), origin: 'partial-read' };
}

function agrees(text: string, lines: Map<number, string>): boolean {
  const all = text.split('\n');
  return [...lines].every(([n, line]) => all[n - 1] === line);
}

function merge(
  a: { lines: Map<number, string>; total?: number } | undefined,
  b: { lines: Map<number, string>; total?: number },
) {
  const lines = new Map(a?.lines ?? []);
  for (const [n, text] of b.lines) if (!lines.has(n)) lines.set(n, text);
  const total = a?.total ?? b.total;
  return total === undefined ? { lines } : { lines, total };
}

// A file holding the lines seen at their numbers and blank lines elsewhere. Claude Code counts a last, empty line
// after a final newline, so with its count the text is exactly `total` lines joined; without it a final newline
// follows the last line seen.
export function sparseText(seen: { lines: Map<number, string>; total?: number }): string {
  const last = Math.max(0, ...seen.lines.keys());
  const count = seen.total !== undefined && seen.total >= last ? seen.total : last + 1;
  const all = Array.from({ length: count }, (_, i) => seen.lines.get(i + 1) ?? '');
  return all.join('\n');
}

// Whether a call changed the file (a write to it, or a Bash command naming it, its directory or a wildcard
// matching it).
export function changes(evidence: Evidence, path: string): boolean {
  if (evidence.changes.includes(path)) return true;
  return (evidence.bashPaths ?? []).some((named) => covers(named, path));
}

// Whether a path a command names stands for `path`: the same, a directory above it, or a wildcard matching it.
export function covers(named: string, path: string): boolean {
  if (named === '' || named === path || path.startsWith(`${named.replace(/\/+$/, '')}/`)) return true;
  return /[*?[]/.test(named) && wildcard(named).test(path);
}

// A shell wildcard as a regular expression: `*` and `?` within one segment, `**` across segments.
function wildcard(pattern: string): RegExp {
  const source = pattern
    .split(/(\*\*|\*|\?)/)
    .map((part) =>
      part === '**' ? '.*' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}(/.*)?$`);
}

// The files a call needs seeded: the file a file tool names, what a Glob or Grep listed, the known files a
// command names (by name, directory or wildcard).
export function touchedPaths(evidence: Evidence, path: string | undefined, known: Iterable<string>): string[] {
  const touched = new Set<string>(evidence.before.keys());
  if (path !== undefined) touched.add(path);
  for (const named of evidence.bashPaths ?? []) {
    if (named === '') continue;
    for (const file of known) if (covers(named, file)) touched.add(file);
  }
  return [...touched];
}

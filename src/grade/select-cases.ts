// Which cases a run grades: `--case` names or globs over names, then `--shard i/n`. Pure.
import { HarnessError } from '../errors.ts';
import { closestName } from '../course/closest-name.ts';

// A 1-based shard index of a total, as `--shard 2/3` gives it.
export type Shard = { index: number; total: number };

// The cases matching any of `patterns` (all when none), sorted by name, then the shard's share of them.
// Each pattern must match at least one case: a typo should not silently grade nothing.
export function selectCases<T extends { name: string }>(cases: T[], patterns: string[] = [], shard?: Shard): T[] {
  const sorted = [...cases].sort((a, b) => compareNames(a.name, b.name));
  let selected = sorted;
  if (patterns.length > 0) {
    const matchers = patterns.map((p) => ({ pattern: p, test: nameMatcher(p) }));
    const unmatched = matchers.filter((m) => !sorted.some((c) => m.test(c.name)));
    if (unmatched.length > 0) {
      const names = sorted.map((c) => c.name);
      const shown = names.slice(0, 20).join(', ') + (names.length > 20 ? `, … (${names.length} in all)` : '');
      const list = unmatched.map((m) => `'${m.pattern}'`).join(', ');
      const first = unmatched[0]!.pattern;
      const meant = closestName(first, names);
      const example = exampleGlob(first, names);
      throw new HarnessError(
        'NO_CASES',
        `--case ${list} matches no case.${meant === undefined ? '' : ` Did you mean '${meant}'?`} Use a case name or a glob (* and ?)${example === undefined ? '' : `, e.g. --case '${example}'`}. Cases: ${shown || '(none)'}.`,
      );
    }
    selected = sorted.filter((c) => matchers.some((m) => m.test(c.name)));
  }
  return shard === undefined ? selected : shardOf(selected, shard);
}

// A glob over these cases' own names for the message's example: a name prefix several cases share (`tools-*`),
// the one closest to what was typed, else the most shared; a name itself when none is shared.
function exampleGlob(typed: string, names: string[]): string | undefined {
  const shared = new Map<string, number>();
  for (const name of names) {
    const dash = name.indexOf('-');
    if (dash > 0) shared.set(name.slice(0, dash), (shared.get(name.slice(0, dash)) ?? 0) + 1);
  }
  const prefixes = [...shared].filter(([, n]) => n > 1).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  if (prefixes.length === 0) return names[0];
  const close = closestName(
    typed.split(/[-*?]/)[0] ?? '',
    prefixes.map(([p]) => p),
  );
  return `${close ?? prefixes[0]![0]}-*`;
}

// Round robin over the name-sorted cases: case k (0-based) goes to shard (k mod n) + 1. Every case lands in
// exactly one shard, the shards differ in size by at most one, and the split depends only on the names.
export function shardOf<T>(sorted: T[], shard: Shard): T[] {
  return sorted.filter((_, k) => k % shard.total === shard.index - 1);
}

// Parses `i/n` (1 <= i <= n), or fails saying what a shard looks like.
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (match === null || total < 1 || index < 1 || index > total) {
    throw new HarnessError(
      'BAD_FLAG',
      `--shard '${text}' is not a shard: write i/n with 1 <= i <= n, e.g. --shard 1/3 on the first of three machines.`,
    );
  }
  return { index, total };
}

// Code-unit order, the same on every machine (localeCompare is not).
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// A name test: exact name, or a glob where `*` is any run of characters and `?` one character.
export function nameMatcher(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) return (name) => name === pattern;
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const regex = new RegExp(`^${source}$`, 's');
  return (name) => regex.test(name);
}

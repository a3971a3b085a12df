// The leaked-state rule. A case that failed after other cases ran in the same process may have been broken by
// them (module-level state in the student's code). Up to `jobs` such failures are re-run alone, in fresh
// processes, at once. If any verdict changes, the program's cases affect each other: every such failure is
// re-run alone and its isolated verdict is the one reported. Its limit: when the sampled verdicts hold, the
// unsampled ones are trusted, and a case that passes only thanks to a neighbour is never re-run.
import { jsonEqual } from './compare-results.ts';
import type { CaseResult } from './types.ts';

// How to re-run cases alone, and how many at once.
export type Recheck = {
  jobs: number;
  // Runs the named cases each alone in a fresh process and returns their verdicts.
  runAlone: (names: string[]) => Promise<CaseResult[]>;
};

// The final verdicts of the suspect failures, and the warning to show when the program leaks state.
export async function recheckAlone(
  suspects: CaseResult[],
  how: Recheck,
): Promise<{ results: CaseResult[]; warning?: string }> {
  if (suspects.length === 0) return { results: [] };
  const sorted = [...suspects].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sample = sorted.slice(0, Math.max(1, how.jobs));
  const alone = new Map((await how.runAlone(sample.map((s) => s.name))).map((r) => [r.name, r]));
  const changed = sample.filter((s) => alone.has(s.name) && verdictChanged(s, alone.get(s.name)!));
  if (changed.length === 0) return { results: sorted.map((s) => alone.get(s.name) ?? s) };
  const rest = sorted.slice(sample.length);
  for (const r of await how.runAlone(rest.map((s) => s.name))) alone.set(r.name, r);
  const differs = sorted.filter((s) => alone.has(s.name) && verdictChanged(s, alone.get(s.name)!));
  const names = differs.map((s) => s.name);
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
  const warning =
    `your cases affect each other — module-level state? ${differs.length} failing case${differs.length === 1 ? '' : 's'} ` +
    `gave a different verdict when run alone (${shown}). Every failure that ran after another case was re-run ` +
    `alone and that verdict is reported. Keep state in your Tools instance, not in module variables.`;
  return { results: sorted.map((s) => alone.get(s.name) ?? s), warning };
}

// Whether two verdicts for the same case disagree (pass vs fail, or a different failure).
export function verdictChanged(a: CaseResult, b: CaseResult): boolean {
  if (a.status !== b.status) return true;
  const fa = a.failure;
  const fb = b.failure;
  return fa?.kind !== fb?.kind || fa?.message !== fb?.message || !jsonEqual(fa?.received, fb?.received);
}

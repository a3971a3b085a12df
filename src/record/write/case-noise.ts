// Cases that would add noise rather than coverage, and why: one making the same calls from the same files as an
// earlier case of the run (a session that does the same Read -> Write -> rm eight times grades it once). Pure.
import type { CaseFile } from '../../course/types.ts';

// For each case that repeats an earlier one, why it is not written (by case name).
export function repeatedCases(cases: { name: string; data: CaseFile }[]): Map<string, string> {
  const first = new Map<string, string>();
  const repeated = new Map<string, string>();
  for (const c of cases) {
    const key = JSON.stringify([c.data.files ?? {}, c.data.calls]);
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, c.name);
    else repeated.set(c.name, `the same calls from the same files as ${earlier}`);
  }
  return repeated;
}

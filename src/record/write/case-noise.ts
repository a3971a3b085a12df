// Cases that would add noise rather than coverage, and why: one making the same calls from the same files as an
// earlier case of the run (a session that does the same Read -> Write -> rm eight times grades it once), and one
// too large to read as a test (over MAX_CASE_BYTES with its snapshot). Pure.
import type { CaseFile } from '../../course/types.ts';

// The most a case and its snapshot may hold together, in UTF-8 bytes.
export const MAX_CASE_BYTES = 64 * 1024;

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

// Why a case is too large to write, or undefined.
export function oversized(caseText: string, snapshotText: string): string | undefined {
  const bytes = Buffer.byteLength(caseText) + Buffer.byteLength(snapshotText);
  if (bytes <= MAX_CASE_BYTES) return undefined;
  return `${Math.ceil(bytes / 1024)} KB with its snapshot, over the ${MAX_CASE_BYTES / 1024} KB a case may take (record it with a lower --max-calls)`;
}

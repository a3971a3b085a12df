// Failures that share a cause, together: one mistake (an unwired alias, a program that does not load) fails
// many cases the same way, and a student needs to read it once. Pure: failed cases in, groups out.
import { withholdsExpected } from '../../course/case-weight.ts';
import type { CaseResult } from '../types.ts';

// Cases that fail the same way, in report order but for `results[0]`, the one shown in full.
export type FailureGroup = { results: CaseResult[] };

// What makes two failures the same problem, or undefined when a failure is only itself: the same load failure
// (whichever process it happened in), the same mistake behind a hint (whichever tool name the call sent), a wrong
// number of results (which the course's program.ts never prints: an edited one, or stray lines on stdout), or the
// same crash, hang or bad output word for word. A mismatch without a hint is one message with every mismatch that
// shares its first difference (the same change to the same place: src/grade/judge/first-difference.ts).
export function causeOf(result: CaseResult): string | undefined {
  const f = result.failure;
  if (f === undefined) return undefined;
  if (f.beforeAnyCase === true) return JSON.stringify(['before any case', f.kind, f.message, f.hint ?? '']);
  if (f.hint !== undefined) return JSON.stringify(['hint', f.hintCause ?? f.hint]);
  if (f.kind === 'result-count') return JSON.stringify([f.kind]);
  if (f.kind === 'mismatch' && f.difference !== undefined) return JSON.stringify(['differs', f.difference]);
  if (f.kind === 'mismatch' || f.kind === 'no-snapshot') return undefined;
  return JSON.stringify([f.kind, f.message]);
}

// The failed cases grouped by cause, each group where its first case was, each keeping its cases' order.
export function groupFailures(failures: CaseResult[]): FailureGroup[] {
  const groups: FailureGroup[] = [];
  const byCause = new Map<string, FailureGroup>();
  for (const result of failures) {
    const cause = causeOf(result);
    const group = cause === undefined ? undefined : byCause.get(cause);
    if (group !== undefined) {
      group.results.push(result);
      continue;
    }
    const fresh = { results: [result] };
    groups.push(fresh);
    if (cause !== undefined) byCause.set(cause, fresh);
  }
  // The one shown in full is one whose expected result may be shown, when the group has one: a hidden case's
  // diagnosis has no diff (src/course/case-weight.ts).
  for (const group of groups) {
    const shown = group.results.findIndex((r) => !withholdsExpected(r.visibility));
    if (shown > 0) group.results.unshift(...group.results.splice(shown, 1));
  }
  return groups;
}

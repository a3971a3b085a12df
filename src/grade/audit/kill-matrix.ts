// The kill matrix of a stage: for each catalogued wrong dispatcher, the cases it fails and the messages the report
// gives them (one per mistake, each hint naming the mistake); the cases no mistake fails; the mistakes no case
// catches and those the report does not name. What tells a course author that a case adds strength. Pure.
import { groupFailures } from '../report/group-failures.ts';
import type { CaseResult } from '../types.ts';

// A wrong dispatcher, graded: its slug, the patterns its messages' hints must match (one per mistake it makes,
// in report order), and every case's verdict.
export type AuditedMistake = { slug: string; expected: RegExp[]; results: CaseResult[] };

// One message of the report: its hint (null when it has none) and the cases it groups.
export type Message = { hint: string | null; cases: string[] };

// One mistake's row: the cases it fails, its messages, whether a case catches it and whether the report names it
// (as many messages as mistakes, each hint matching its pattern).
export type MistakeRow = { slug: string; failed: string[]; messages: Message[]; caught: boolean; named: boolean };

export type KillMatrix = {
  stage: string;
  cases: number;
  mistakes: MistakeRow[];
  // Each case, by name, with the mistakes that fail it.
  kills: Record<string, string[]>;
  unkilled: string[];
  uncaught: string[];
  unnamed: string[];
};

export function killMatrix(stage: string, caseNames: string[], audited: AuditedMistake[]): KillMatrix {
  const kills: Record<string, string[]> = Object.fromEntries(caseNames.map((name) => [name, [] as string[]]));
  const mistakes = audited.map(({ slug, expected, results }): MistakeRow => {
    const failures = results.filter((r) => r.status === 'fail');
    for (const r of failures) kills[r.name]?.push(slug);
    const messages = groupFailures(failures).map((g) => ({
      hint: g.results[0]?.failure?.hint ?? null,
      cases: g.results.map((r) => r.name),
    }));
    const named =
      messages.length === expected.length && expected.every((pattern, k) => pattern.test(messages[k]?.hint ?? ''));
    return { slug, failed: failures.map((r) => r.name), messages, caught: failures.length > 0, named };
  });
  return {
    stage,
    cases: caseNames.length,
    mistakes,
    kills,
    unkilled: caseNames.filter((name) => kills[name]?.length === 0),
    uncaught: mistakes.filter((m) => !m.caught).map((m) => m.slug),
    unnamed: mistakes.filter((m) => m.caught && !m.named).map((m) => m.slug),
  };
}

// Whether every mistake is caught and named.
export function auditPassed(matrix: KillMatrix): boolean {
  return matrix.uncaught.length === 0 && matrix.unnamed.length === 0;
}

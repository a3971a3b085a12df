// What a class's failures come to: the mistakes each submission made, the mistakes ranked by how many submissions
// made them, and the cases ranked by pass rate. A mistake is a submission's hint causes of one kind
// (src/grade/types.ts `hintCause`: failures with the same one are one problem; `kindOf` below), named by a stable
// id so that a gradebook, a script or a later run can refer to it. The html reporter and the --summary read these.
// Pure.
import { createHash } from 'node:crypto';
import type { CaseResult, ClassReport, RunReport, SubmissionResult } from '../types.ts';
import { scoreOf } from './score.ts';

// One mistake in one submission: its id, the hint as this submission got it, and the cases it failed, by stage.
export type SubmissionMistake = { id: string; hint: string; cases: { stage: string; name: string }[] };

// One mistake across the class: its id, its hint (the wording most submissions got: a hint names the tool names a
// submission sent, which vary), and the submissions that made it, each with how many cases it failed.
export type ClassMistake = { id: string; hint: string; submissions: { name: string; cases: number }[] };

// One case across the class: passed by how many of the submissions whose program ran it.
export type CaseRate = { stage: string; name: string; passed: number; graded: number; mistakes: string[] };

// A mistake's id: `m-` and the first 8 hex digits of the SHA-256 of its cause. The cause is the grader's own words
// for the mistake (never the hint, which varies with the names sent), so the id stays the same from run to run and
// from submission to submission as long as the grader diagnoses the mistake the same way.
export function mistakeId(cause: string): string {
  return `m-${createHash('sha256').update(cause).digest('hex').slice(0, 8)}`;
}

// A report and its earlier stages' (--previous), the graded stage first.
export function stagesOf(report: RunReport): RunReport[] {
  return [report, ...(report.previous ?? [])];
}

// Whether a submission's program ran its cases: one that did not start, or could not be graded, made no mistake
// a case can show (its one error is told apart).
export function ran(s: SubmissionResult): boolean {
  return s.verdict === 'pass' || s.verdict === 'fail';
}

// A submission's points over every stage graded (src/grade/report/score.ts), summed.
export function submissionScore(report: RunReport): { score: number; maxScore: number } {
  const scores = stagesOf(report).map(scoreOf);
  const sum = (k: 'score' | 'maxScore'): number => Math.round(scores.reduce((n, s) => n + s[k], 0) * 100) / 100;
  return { score: sum('score'), maxScore: sum('maxScore') };
}

// The cause a failed case counts under, or undefined when it names no mistake: a failure without a hint is about
// its own case, and a program that did not start is told as such.
export function causeOfCase(result: CaseResult): string | undefined {
  const f = result.failure;
  if (result.status === 'pass' || f === undefined || f.beforeAnyCase === true || f.hint === undefined) return undefined;
  return f.hintCause ?? f.hint;
}

// The kind of mistake a cause names. A submission's causes of one kind are one mistake: a routing table shifted by
// one sends three tools each to the wrong method, which the probe tells as three findings (`routed: view to glob`,
// `routed: glob to grep`, …) and a student fixes as one. The kind is a finding's family (the first word of its
// signature, src/modes/*/judge/*-findings.ts), or a hint's cause without the branch it names
// (src/grade/judge/hints.ts words them with branchOf); any other cause is its own kind.
export function kindOf(cause: string): string {
  const finding = /^finding: ([^:]+): /.exec(cause);
  if (finding !== null) return `finding: ${finding[1]}`;
  const branch = `(?:tools\\.\\w+'s branch|the branch of "(?:[^"\\\\]|\\\\.)*")`;
  if (new RegExp(`^${branch} routed to `).test(cause)) return 'routed to another method';
  const within = new RegExp(`^(.*) in ${branch}$`).exec(cause);
  return within === null ? cause : `${within[1]} in a branch`;
}

// The mistakes of one submission's report, in the order its failures first show them, and the mistake each of its
// causes is part of (by cause). A mistake of several causes has them in cause order, so that two submissions that
// made the same ones have the same id and the same words.
export function submissionMistakes(report: RunReport): { mistakes: SubmissionMistake[]; idOf: Map<string, string> } {
  const byCause = new Map<string, { hint: string; cases: { stage: string; name: string }[] }>();
  for (const stage of stagesOf(report)) {
    for (const c of stage.cases) {
      const cause = causeOfCase(c);
      if (cause === undefined) continue;
      const seen = byCause.get(cause) ?? { hint: c.failure!.hint!, cases: [] };
      seen.cases.push({ stage: stage.stage, name: c.name });
      byCause.set(cause, seen);
    }
  }
  const byKind = new Map<string, string[]>();
  for (const cause of byCause.keys()) byKind.set(kindOf(cause), [...(byKind.get(kindOf(cause)) ?? []), cause]);
  const idOf = new Map<string, string>();
  const mistakes = [...byKind.values()].map((causes): SubmissionMistake => {
    const sorted = [...causes].sort();
    const id = mistakeId(sorted.join('\n'));
    for (const cause of causes) idOf.set(cause, id);
    return {
      id,
      hint: sorted.map((cause) => byCause.get(cause)!.hint).join('; '),
      cases: causes.flatMap((cause) => byCause.get(cause)!.cases),
    };
  });
  return { mistakes, idOf };
}

// The mistakes of one submission's report, in the order its failures first show them.
export function mistakesOf(report: RunReport): SubmissionMistake[] {
  return submissionMistakes(report).mistakes;
}

// The class's mistakes, most submissions first; ties by most cases failed, then by id (the order is the same in
// every run). Each mistake's submissions in name order.
export function classMistakes(report: ClassReport): ClassMistake[] {
  const byId = new Map<string, { hints: Map<string, number>; submissions: { name: string; cases: number }[] }>();
  for (const s of report.submissions) {
    for (const m of mistakesOf(s.report)) {
      const seen = byId.get(m.id) ?? { hints: new Map<string, number>(), submissions: [] };
      seen.hints.set(m.hint, (seen.hints.get(m.hint) ?? 0) + 1);
      seen.submissions.push({ name: s.name, cases: m.cases.length });
      byId.set(m.id, seen);
    }
  }
  const cases = (m: ClassMistake): number => m.submissions.reduce((n, s) => n + s.cases, 0);
  return [...byId.entries()]
    .map(([id, seen]) => ({ id, hint: mostCommon(seen.hints), submissions: seen.submissions }))
    .sort(
      (a, b) =>
        b.submissions.length - a.submissions.length || cases(b) - cases(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

// Every case of every stage, lowest pass rate first, over the submissions whose program ran (ties by stage, then
// name), each with the mistakes that failed it, most submissions first.
export function caseRates(report: ClassReport): CaseRate[] {
  const byCase = new Map<string, CaseRate & { counts: Map<string, number> }>();
  for (const s of report.submissions.filter(ran)) {
    const { idOf } = submissionMistakes(s.report);
    for (const stage of stagesOf(s.report)) {
      for (const c of stage.cases) {
        const key = JSON.stringify([stage.stage, c.name]);
        const rate = byCase.get(key) ?? {
          stage: stage.stage,
          name: c.name,
          passed: 0,
          graded: 0,
          mistakes: [],
          counts: new Map<string, number>(),
        };
        rate.graded += 1;
        if (c.status === 'pass') rate.passed += 1;
        const cause = causeOfCase(c);
        const id = cause === undefined ? undefined : idOf.get(cause);
        if (id !== undefined) rate.counts.set(id, (rate.counts.get(id) ?? 0) + 1);
        byCase.set(key, rate);
      }
    }
  }
  return [...byCase.values()]
    .map(({ counts, ...rate }) => ({
      ...rate,
      mistakes: [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id),
    }))
    .sort(
      (a, b) =>
        a.passed / a.graded - b.passed / b.graded ||
        (a.stage < b.stage ? -1 : a.stage > b.stage ? 1 : 0) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
}

// The key counted most often; the first of those met on a tie.
function mostCommon(counts: Map<string, number>): string {
  let best: [string, number] = ['', 0];
  for (const entry of counts) if (entry[1] > best[1]) best = entry;
  return best[0];
}

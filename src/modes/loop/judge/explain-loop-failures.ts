// Failing loop cases put under the finding of the loop probe that explains them: a case whose first difference is
// where it first gives a found mistake something to do (loop-features.ts) gets the finding's cause, so the report
// shows one message per mistake, whatever each case's own symptom. A case no finding explains keeps the hint read
// off its result. Pure.
import type { LoopCaseData } from '../case.ts';
import type { CaseResult, Failure } from '../../../grade/types.ts';
import { FINDING_CAUSE, shareByDifference } from '../../../grade/judge/explain-failures.ts';
import type { LoopFinding } from './find-loop-mistakes.ts';
import { byNarrowness, positionOf } from './loop-features.ts';

// The results with every failure a finding explains hinted by it. `caseOf` gives a case's file by its name.
export function explainLoopFailures(
  results: CaseResult[],
  findings: LoopFinding[],
  caseOf: (name: string) => LoopCaseData | undefined,
): CaseResult[] {
  if (findings.length === 0) return results;
  const explained = results.map((result) => {
    const f = result.failure;
    const data = caseOf(result.name);
    // A variant's failure is of a case that passed as written: no mistake of the loop's rules explains it.
    if (f?.kind !== 'mismatch' || f.beforeAnyCase === true || f.variant !== undefined || data === undefined)
      return result;
    const explained = explanation(f, findings, data);
    return explained === undefined ? result : { ...result, failure: explained };
  });
  // A case that kept its own words (they speak of its turns) lends the finding's to the cases it shares with.
  const general = (cause: string) => findings.find((f) => `${FINDING_CAUSE}: ${f.cause}` === cause)?.text;
  return shareByDifference(explained, general);
}

function explanation(f: Failure, findings: LoopFinding[], data: LoopCaseData): Failure | undefined {
  // Where the case first differs: a request's index, or the number of turns for the end (compare-loop.ts).
  const at = f.callIndex ?? data.turns.length;
  const shown = findings
    .map((finding) => ({ finding, from: positionOf(data, finding.shows) }))
    .filter((c): c is { finding: LoopFinding; from: number } => c.from !== undefined && c.from <= at);
  // The mistake whose feature comes last before the difference (the nearest cause); of two that show in the same
  // place, the one whose feature is narrower (a throw over an error result), then the one the probe found first
  // (the model's only turn missing is also the last turn missing), so one mistake is one message.
  const best = shown.sort(
    (a, b) => b.from - a.from || byNarrowness(a.finding.shows, b.finding.shows) || a.finding.rank - b.finding.rank,
  )[0];
  if (best === undefined) return undefined;
  const cause = `${FINDING_CAUSE}: ${best.finding.cause}`;
  // The case's own hint names it too: its words, which speak of this case's turns, stay.
  if (best.finding.cause === f.hintCause) return { ...f, hintCause: cause };
  // A mistake that could have shown earlier in the case, and did not, is not what its own hint found here.
  if (best.from < at && f.hint !== undefined) return undefined;
  return { ...f, hint: best.finding.text, hintCause: cause };
}

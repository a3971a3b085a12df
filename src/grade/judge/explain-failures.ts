// Failing cases put under the finding that explains them: a case whose first differing call (or call in flight)
// a finding breaks gets the finding's hint, and with it its cause, so the report shows one message per mistake.
// A case no finding explains keeps the hint read off its result. Pure.
import type { Call } from '../../course/types.ts';
import type { CaseResult } from '../types.ts';
import { breaksEarlier, explains, type Finding } from './finding.ts';
import { LEAK_CAUSE } from './recheck-alone.ts';
import { STUB_CAUSE } from './hints.ts';

// The hint cause of a case a finding explains.
export const FINDING_CAUSE = 'finding';

// The results with every failure a finding explains hinted by it (the lowest rank when several do): one that breaks
// the first differing call (or the call in flight), else one that broke an earlier call of the case, whose effect
// shows there. `callsOf` gives a case's calls by its name.
export function explainFailures(
  results: CaseResult[],
  findings: Finding[],
  callsOf: (name: string) => Call[] | undefined,
): CaseResult[] {
  if (findings.length === 0) return results;
  // A failure that shares another's difference gets the finding's own words, not those of the other case's values.
  const general = (hintCause: string) => findings.find((f) => `${FINDING_CAUSE}: ${f.cause}` === hintCause)?.text;
  return shareByDifference(
    results.map((result) => {
      const f = result.failure;
      // The stub answering every call is one mistake, not one unwired name per tool; a variant's failure is of a
      // case that passed as written, so no wiring mistake explains it (its hint says where results come from); nor
      // one that passed alone (the leaked-state rule), which only the state kept by earlier cases explains.
      // State kept between makeExecute calls that the probe saw (a module-level cache) is what the leak is.
      const leak = f?.hintCause === LEAK_CAUSE ? findings.find((candidate) => candidate.leaks === true) : undefined;
      if (f !== undefined && leak !== undefined) {
        return { ...result, failure: { ...f, hint: leak.text, hintCause: `${FINDING_CAUSE}: ${leak.cause}` } };
      }
      if (
        f?.call === undefined ||
        f.beforeAnyCase === true ||
        f.hintCause === STUB_CAUSE ||
        f.hintCause === LEAK_CAUSE ||
        f.variant !== undefined
      )
        return result;
      const inFlight = f.kind === 'timeout' || f.kind === 'crash';
      if (!inFlight && f.kind !== 'mismatch') return result;
      const earlier = (callsOf(result.name) ?? []).slice(0, f.callIndex ?? 0);
      const failed = { call: f.call, expected: f.expected, received: f.received, inFlight, earlier };
      // The call's own values where the finding explains the call itself and its input shows the mistake.
      const own = findings.find((candidate) => explains(candidate, failed));
      const words = own?.caseText?.(f.call.input);
      if (own !== undefined && words !== undefined) {
        return { ...result, failure: { ...f, hint: words, hintCause: `${FINDING_CAUSE}: ${own.cause}` } };
      }
      const finding =
        own ??
        findings.find((candidate) => earlier.some((call) => breaksEarlier(candidate, call))) ??
        // A name the probe saw answer with results kept from other calls, through other makeExecute calls too:
        // a wrong answer there is what the kept results give (in-process, no re-run alone says it instead).
        (inFlight
          ? undefined
          : findings.find((candidate) => candidate.leaks === true && named(candidate, failed.call.tool)));
      if (finding === undefined) return result;
      return { ...result, failure: { ...f, hint: finding.text, hintCause: `${FINDING_CAUSE}: ${finding.cause}` } };
    }),
    general,
  );
}

// Whether `finding` is about the tool name `tool`.
function named(finding: Finding, tool: string): boolean {
  return finding.triggers.some((t) => t.names?.includes(tool) === true);
}

// A failure no finding explains, whose first difference is that of one a finding explains (the same change to the
// same place), is that mistake too: it gets the finding's hint, and is not shown on its own. `general` gives the
// finding's words for any case by its hint cause, where an explained failure kept words of its own case's turns.
export function shareByDifference(
  results: CaseResult[],
  general: (hintCause: string) => string | undefined = () => undefined,
): CaseResult[] {
  const explained = new Map<string, { hint: string; hintCause: string }>();
  for (const { failure: f } of results) {
    if (f?.difference === undefined || f.hint === undefined || !f.hintCause?.startsWith(`${FINDING_CAUSE}: `)) continue;
    const hint = general(f.hintCause) ?? f.hint;
    if (!explained.has(f.difference)) explained.set(f.difference, { hint, hintCause: f.hintCause });
  }
  return results.map((result) => {
    const f = result.failure;
    const same = f?.difference === undefined ? undefined : explained.get(f.difference);
    if (f === undefined || same === undefined || f.hintCause?.startsWith(`${FINDING_CAUSE}: `)) return result;
    return { ...result, failure: { ...f, ...same } };
  });
}

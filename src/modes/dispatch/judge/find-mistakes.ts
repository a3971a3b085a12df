// From what the probe observed to the dispatcher's mistakes: each probe call compared with the contract
// (compare-probe.ts), the differences made findings (name-, argument- and result-findings.ts), one per mistake.
// An observation that is malformed, or that shows nothing of the dispatcher (makeExecute threw for the stand-in
// Tools), gives no findings: the result-based hints then stand alone. Pure.
import { argumentSpecs } from './argument-findings.ts';
import { compareProbe, splitRoutes } from './compare-probe.ts';
import { ownSpecs, reusedSpecs } from './answer-findings.ts';
import { applyChange, type Finding, withToolName } from '../../../grade/judge/finding.ts';
import { mergeSpecs } from './finding-spec.ts';
import { pendingSpecs, throwSpecs, unboundSpecs } from './branch-findings.ts';
import { routeSpecs, unknownSpecs } from './name-findings.ts';
import { answeredByEarlierTools, earlierToolsFinding } from './earlier-tools-finding.ts';
import { fallthroughSpecs } from './fallthrough-findings.ts';
import { probes } from './probe-calls.ts';
import { asPrinted, type ObservedEntry, readObservation } from './read-observation.ts';
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import { DEFAULT_PROBE_NAME, ECHO_KEY, METHODS, unknownAnswer } from '../../../course/dispatcher-contract.ts';
import type { Probe } from './probe-calls.ts';
import { likeDefault } from './name-findings.ts';

// What a call that reached no method answered.
function answerOf(entry: ObservedEntry): { reached: string[]; printed: unknown; threw?: string } {
  const printed = entry.result === undefined ? undefined : asPrinted(entry.result, {});
  return {
    reached: entry.calls.map((c) => c.method),
    printed,
    ...(entry.threw === undefined ? {} : { threw: entry.threw }),
  };
}

// What the default branch answered DEFAULT_PROBE_NAME, or undefined when it answered as the contract says.
function defaultAnswer(entry: ObservedEntry | undefined): { printed: unknown; threw?: string } | undefined {
  if (entry === undefined) return undefined;
  const answer = answerOf(entry);
  const right = answer.threw === undefined && jsonEqual(answer.printed, unknownAnswer(DEFAULT_PROBE_NAME));
  return right ? undefined : answer;
}
import { resultSpecs } from './result-findings.ts';
import { oneMethodFinding } from './one-method-finding.ts';
import { emptyResultFinding } from './empty-result-finding.ts';

// The findings of an observation (the payload of program.ts's `{"observed":…}` line), lowest rank first.
export function findMistakes(payload: unknown): Finding[] {
  const plan = probes();
  const entries = readObservation(payload, plan.length);
  if (entries === undefined) return [];
  const threw = new Set(entries.map((e) => e.threw));
  if (threw.size === 1 && !threw.has(undefined)) return [];
  // Every name to one method: the one mistake the rest follows from.
  const oneMethod = oneMethodFinding(plan, entries);
  if (oneMethod !== undefined) return [oneMethod];
  // Every result lost on the way out: the one mistake every missing field follows from.
  const empty = emptyResultFinding(plan, entries);
  if (empty !== undefined) return [empty];
  const base = defaultAnswer(entries[plan.findIndex((p) => p.tool === DEFAULT_PROBE_NAME)]);
  const unwired = (probe: Probe) => (entry: ObservedEntry) => likeDefault({ probe, ...answerOf(entry) }, base);
  const probed = new Map<string, number>();
  for (const probe of plan) probed.set(probe.tool, (probed.get(probe.tool) ?? 0) + 1);
  // A call the earlier Tools answered shows nothing of its branch but that.
  const facts = splitRoutes(
    plan.flatMap((probe, k) =>
      answeredByEarlierTools(entries[k]!) ? [] : compareProbe(probe, entries[k]!, unwired(probe)),
    ),
    probed,
  );
  const args = argumentSpecs(facts);
  const specs = [
    ...resultSpecs(facts),
    ...reusedSpecs(facts),
    ...routeSpecs(facts, probed),
    ...fallthroughSpecs(facts),
    ...unknownSpecs(facts),
    ...ownSpecs(facts, plan),
    ...throwSpecs(facts.filter((f) => !args.folded.has(f))),
    ...pendingSpecs(facts),
    ...unboundSpecs(facts),
    ...args.specs,
  ];
  const findings = [...earlierToolsFinding(plan, entries), ...foldEchoThrow(foldDefault(mergeSpecs(specs), base))];
  return findings.sort((a, b) => a.rank - b.rank);
}

// A change to the text of every method's result (cut, trimmed: a string method called on every content), and echo
// throwing only when its text is not a string, which echo returns as content: one wrapper, whose string method fails
// on a content that is not a text. One message, the throw said as what else was seen.
function foldEchoThrow(findings: Finding[]): Finding[] {
  const methodNames = Object.values(METHODS).flatMap((m) => m.names);
  const wrapper = findings.find((f) =>
    f.triggers.some(
      (t) =>
        (t.change?.content?.cut !== undefined || t.change?.content?.trim !== undefined) &&
        methodNames.every((n) => t.names?.includes(n) === true),
    ),
  );
  // Thrown only when the text is not a string (a number, or none at all).
  const echo = findings.find((f) => f.cause.startsWith(`throws: echo when input.${ECHO_KEY} is not a string`));
  const message = echo === undefined ? undefined : /^execute threw \((.*)\) on `echo`/.exec(echo.text)?.[1];
  if (wrapper === undefined || echo === undefined || message === undefined) return findings;
  const absent = echo.cause.includes(`input.${ECHO_KEY} is left out`) ? ' or is left out' : '';
  wrapper.text += `. Also: execute threw (${message}) on \`echo\` when input.${ECHO_KEY} is not a string${absent}: echo's content is input.${ECHO_KEY} as the model sent it, a number included, so leave a content that is not a text as it is`;
  wrapper.triggers = [...wrapper.triggers, ...echo.triggers];
  return findings.filter((f) => f !== echo);
}

// The default branch's answer made by a change a finding found in the methods' results (a wrapper around the whole
// switch that prefixes or throws every error): one mistake, so the default branch's finding is folded into it.
function foldDefault(findings: Finding[], base: { printed: unknown; threw?: string } | undefined): Finding[] {
  const own = findings.find((f) => f.cause === 'default branch');
  if (own === undefined || base === undefined) return findings;
  const want = base.threw === undefined ? base.printed : { threw: base.threw };
  const wrapper = findings.find((f) =>
    f.triggers.some(
      (t) =>
        t.change !== undefined &&
        jsonEqual(applyChange(withToolName(t.change, DEFAULT_PROBE_NAME), unknownAnswer(DEFAULT_PROBE_NAME)), want),
    ),
  );
  if (wrapper === undefined) return findings;
  const change = wrapper.triggers.find((t) => t.change !== undefined)!.change!;
  wrapper.triggers = [...wrapper.triggers, ...own.triggers.map((t) => ({ ...t, change }))];
  return findings.filter((f) => f !== own);
}

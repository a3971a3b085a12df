// Every probe call answered with an empty object, the methods' names, echo and the names outside the contract
// alike, while the methods did run: the results are lost in one place every call passes through. A Promise copied
// with a spread (`{ ...run(name, input) }`, no await) is such an empty object. One finding, and the only one: each
// field missing from each name's result follows from it. Pure.
import { nameClass, type NameClass } from '../../../course/dispatcher-contract.ts';
import type { Finding } from '../../../grade/judge/finding.ts';
import type { Probe } from './probe-calls.ts';
import { asPrinted, isRecord, type ObservedEntry } from './read-observation.ts';

export const EMPTY_RESULT_CAUSE = 'every result an empty object';

// The finding when every probe call returned `{}` and some reached a method, else undefined.
export function emptyResultFinding(plan: Probe[], entries: ObservedEntry[]): Finding | undefined {
  const empty = (e: ObservedEntry) => {
    const printed = e.result === undefined ? undefined : asPrinted(e.result, {});
    return e.threw === undefined && isRecord(printed) && Object.keys(printed).length === 0;
  };
  if (entries.length === 0 || !entries.every(empty) || !entries.some((e) => e.calls.length > 0)) return undefined;
  const names = [...new Set(plan.map((p) => p.tool))];
  const classes = [...new Set(names.map(nameClass).filter((c): c is NameClass => c !== undefined))];
  const routed = names.filter((n) => nameClass(n) === undefined);
  return {
    cause: EMPTY_RESULT_CAUSE,
    text: "execute returns an empty object {} for every call, echo's and the unknown names' too, though the Tools methods ran: what they return is lost on the way out. A Promise copied with a spread is such an object (`{ ...run(name, input) }` with no await): await the call before anything reads its result, or return the result as it is",
    rank: 0,
    triggers: [{ names: routed, answers: {} }, ...classes.map((nameClass) => ({ nameClass, answers: {} }))],
  };
}

// The finding that execute calls the methods of another Tools than its makeExecute's: the driver gives makeExecute
// a Tools of its own before any case (../earlier-tools.ts), whose every method answers EARLIER_TOOLS_ANSWER, and
// a probe call got that answer back without calling its stand-in. Only that Tools gives the answer, so the call
// went to it: the dispatcher kept the Tools of an earlier makeExecute call. Pure.
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import type { Finding } from '../../../grade/judge/finding.ts';
import { EARLIER_TOOLS_ANSWER } from '../earlier-tools.ts';
import { METHODS } from '../../../course/dispatcher-contract.ts';
import { listNames } from './finding-spec.ts';
import type { Probe } from './probe-calls.ts';
import { asPrinted, type ObservedEntry } from './read-observation.ts';

// Whether this call was answered by the earlier Tools (its own stand-in never called).
export function answeredByEarlierTools(entry: ObservedEntry): boolean {
  const printed = entry.result === undefined ? undefined : asPrinted(entry.result, {});
  return entry.calls.length === 0 && jsonEqual(printed, EARLIER_TOOLS_ANSWER);
}

// The finding for the names whose calls the earlier Tools answered, or none. It ranks before every other: those
// calls never reached the stand-in, so nothing else about them was observed.
export function earlierToolsFinding(plan: Probe[], entries: ObservedEntry[]): Finding[] {
  const names = [...new Set(plan.filter((_, k) => answeredByEarlierTools(entries[k]!)).map((p) => p.tool))];
  if (names.length === 0) return [];
  const every = Object.values(METHODS).every((m) => m.names.every((n) => names.includes(n)));
  const who = every ? 'execute' : listNames(names);
  return [
    {
      cause: 'tools of an earlier makeExecute',
      text: `${who} called the methods of the Tools an earlier makeExecute call was given (the grader gives makeExecute one of its own before the cases, and its answer came back), not those of the \`tools\` ${every ? 'its' : 'their'} own makeExecute got: your dispatcher keeps a Tools from one call to the next (a module variable, as \`shared ??= tools\` is). Use the tools each makeExecute call is given`,
      rank: 0,
      triggers: [{ names, answers: EARLIER_TOOLS_ANSWER }],
    },
  ];
}

// Every name the probe sent, the contract's and the ones outside it, reaching one method: a condition that is
// always true (`if (name === 'Read' || 'view')` tests the text 'view', which is truthy) sends them all there. One
// finding, and the only one: every other difference of these calls follows from it. Pure.
import { METHODS, nameClass, type NameClass } from '../../../course/dispatcher-contract.ts';
import type { Finding } from '../../../grade/judge/finding.ts';
import type { Probe } from './probe-calls.ts';
import type { ObservedEntry } from './read-observation.ts';

export const ONE_METHOD_CAUSE = 'every name to one method';

// The finding when every probe call's first method is one and the same (the names of other methods and names
// outside the contract among them), else undefined.
export function oneMethodFinding(plan: Probe[], entries: ObservedEntry[]): Finding | undefined {
  const first = entries.map((e) => e.calls[0]?.method);
  const method = first[0];
  if (method === undefined || !first.every((m) => m === method)) return undefined;
  const others = Object.entries(METHODS).filter(([m]) => m !== method);
  // Names of another method, and a name outside the contract, must be among them: else it is no such condition.
  const names = [...new Set(plan.map((p) => p.tool))];
  const classes = [...new Set(names.map(nameClass).filter((c): c is NameClass => c !== undefined))];
  const routed = names.filter((n) => nameClass(n) === undefined);
  if (others.length === 0 || classes.length === 0 || !others.some(([, m]) => m.names.some((n) => names.includes(n))))
    return undefined;
  return {
    cause: ONE_METHOD_CAUSE,
    text: `every tool name reaches tools.${method}, the names outside the contract too: a condition that is always true sends them all there, as \`if (name === 'Read' || 'view')\` does (it tests the text 'view', which is true). Compare the name with each alias: name === 'Read' || name === 'view', or use a switch`,
    rank: 0,
    triggers: [{ names: routed }, ...classes.map((nameClass) => ({ nameClass }))],
  };
}

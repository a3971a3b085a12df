// What the finding builders share: a finding for one name, which merges with the same finding for other names
// (the aliases of a method that share a branch, or every name a wrapper changes the same way) into one finding, one
// message. Pure.
import type { Fact } from './compare-probe.ts';
import { ECHO, METHODS, methodOf } from '../../../course/dispatcher-contract.ts';
import type { Finding, Trigger } from '../../../grade/judge/finding.ts';

// A finding about some names: findings with the same signature are one mistake, whatever names they are about.
export type FindingSpec = {
  signature: string;
  names: string[];
  rank: number;
  text: (names: string[]) => string;
  triggers: (names: string[]) => Trigger[];
  leaks?: true;
  // The text with a failing call's own values, where its input shows the mistake (undefined where it does not).
  caseText?: (names: string[], input: Record<string, unknown>) => string | undefined;
};

// Specs with the same signature merged into one finding about all their names, in the order first met.
export function mergeSpecs(specs: FindingSpec[]): Finding[] {
  const bySignature = new Map<string, FindingSpec>();
  for (const spec of specs) {
    const seen = bySignature.get(spec.signature);
    if (seen === undefined) bySignature.set(spec.signature, { ...spec, names: [...spec.names] });
    else for (const name of spec.names) if (!seen.names.includes(name)) seen.names.push(name);
  }
  return [...bySignature.values()].map((s) => ({
    cause: s.signature,
    text: s.text(s.names),
    rank: s.rank,
    triggers: s.triggers(s.names),
    ...(s.leaks === true ? { leaks: true as const } : {}),
    ...(s.caseText === undefined ? {} : { caseText: (input: Record<string, unknown>) => s.caseText!(s.names, input) }),
  }));
}

// `Read`, `Read` and `view`, `Read`, `view` and `Write`.
export function listNames(names: string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

// "reads" for one name, "read" for several.
export function verb(names: string[], singular: string, plural: string): string {
  return names.length === 1 ? singular : plural;
}

// The facts about each name, in the probe's order of names.
export function factsByName(facts: Fact[]): Map<string, Fact[]> {
  const byName = new Map<string, Fact[]>();
  for (const fact of facts) byName.set(fact.probe.tool, [...(byName.get(fact.probe.tool) ?? []), fact]);
  return byName;
}

// The names the contract routes: each method's, then echo.
export function routedNames(): string[] {
  return [...Object.values(METHODS).flatMap((m) => m.names), ECHO];
}

// `tools.view` for a name that reaches a method, or what answers echo.
export function targetOf(name: string): string {
  const method = methodOf(name);
  return method === undefined ? 'echo' : `tools.${method}`;
}

// Replaces every occurrence of `from` in the strings of a JSON value.
export function substitute(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return from === '' ? value : value.split(from).join(to);
  if (Array.isArray(value)) return value.map((v) => substitute(v, from, to));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, from, to)]));
  }
  return value;
}

// A value as a student reads it in a hint: JSON, cut short.
export function shown(value: unknown, max = 60): string {
  const text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

// Cases that would add noise rather than coverage, and why: one making the same calls from the same files as an
// earlier case of the run (a session that does the same Read -> Write -> rm eight times grades it once), and one
// whose calls cases recorded before already hold, in this run or in the course directory from an earlier run: the
// same tool calls of the same session (snapshots of one growing session recorded under different names, cut into
// cases at other places), or the same calls from the same files. Pure.
import type { DispatchCaseData } from '../../modes/dispatch/case.ts';

type Named = { name: string; data: DispatchCaseData };

// Why a case is not written, and the cases recorded before that hold its calls (none: cases of this run do).
export type Repeat = { why: string; recordedBefore: string[] };

// For each case that repeats an earlier one of the run, or ones recorded before (`before`), why it is not written
// (by case name).
export function repeatedCases(cases: Named[], before: Named[] = []): Map<string, Repeat> {
  const repeated = new Map<string, Repeat>();
  const kept: Named[] = [];
  for (const c of cases) {
    const inRun = heldBy(c, kept);
    const old = inRun === undefined ? heldBy(c, before) : undefined;
    if (inRun !== undefined) repeated.set(c.name, { why: inRun.why, recordedBefore: [] });
    else if (old !== undefined)
      repeated.set(c.name, { why: `${old.why}, recorded before`, recordedBefore: old.holders });
    else kept.push(c);
  }
  return repeated;
}

// Which cases among `others` hold every call of `c`, and how (undefined: they do not).
function heldBy(c: Named, others: Named[]): { why: string; holders: string[] } | undefined {
  const same = others.find((o) => key(o) === key(c));
  if (same !== undefined) return { why: `the same calls from the same files as ${same.name}`, holders: [same.name] };
  const session = c.data.source?.session;
  const ids = idsOf(c);
  if (session === undefined || ids.length === 0) return undefined;
  const holders = others.filter((o) => o.data.source?.session === session && idsOf(o).some((id) => ids.includes(id)));
  const held = new Set(holders.flatMap(idsOf));
  if (!ids.every((id) => held.has(id))) return undefined;
  const names = holders.map((h) => h.name);
  return { why: `its calls are in ${names.join(', ')} already (the same session)`, holders: names };
}

const key = (c: Named): string => JSON.stringify([c.data.files ?? {}, c.data.calls]);
const idsOf = (c: Named): string[] =>
  Array.isArray(c.data.source?.tool_use_ids) ? (c.data.source.tool_use_ids as unknown[]).map(String) : [];

// What `theinference snapshot` finds for each case (its snapshot up to date, new, changed and how, or the
// reference failing it) and for each file no case owns, and what a run then writes and removes. Pure: the
// command reads the files and runs the reference, this decides.
import { formatSnapshot, PENDING_SUFFIX, parseSnapshot } from '../../course/snapshot-file.ts';
import type { ReferenceResult } from '../../grade/run-reference.ts';
import { classifyDrift, type Drift } from './classify-drift.ts';

// One case's snapshot, or one file without a case. `pending` is the text of its pending file, when there is one.
export type SnapshotEntry =
  | { status: 'unchanged'; name: string; pending?: string }
  | { status: 'added'; name: string; text: string; pending?: string }
  // `drift` is undefined when the file on disk is not a snapshot, or holds the same results laid out otherwise.
  | { status: 'changed'; name: string; text: string; before: string; drift: Drift | undefined; pending?: string }
  | { status: 'failed'; name: string; why: string; pending?: string }
  // `files`: the snapshot, pending file and recording that have no case, as paths under the package root.
  | { status: 'obsolete'; name: string; files: string[] };

// What is on disk for the cases of a run: each case's snapshot and pending file (null when absent).
export type OnDisk = { snapshots: Map<string, string | null>; pending: Map<string, string | null> };

// The whole stage's names, given only to a run over every case: obsolete files are judged against all of them.
export type StageNames = {
  slug: string;
  cases: string[];
  snapshots: string[];
  pending: string[];
  recordings: string[];
};

// The entries of a run, in case order, then the obsolete files.
export function planSnapshots(
  names: string[],
  runs: Map<string, ReferenceResult>,
  disk: OnDisk,
  stage?: StageNames,
): SnapshotEntry[] {
  const entries = names.map((name) => entryFor(name, runs.get(name), disk));
  if (stage === undefined) return entries;
  const cases = new Set(stage.cases);
  const orphans = [...new Set([...stage.snapshots, ...stage.pending, ...stage.recordings])]
    .filter((n) => !cases.has(n))
    .sort();
  for (const name of orphans) {
    const files = [
      ...(stage.snapshots.includes(name) ? [`snapshots/${stage.slug}/${name}.json`] : []),
      ...(stage.pending.includes(name) ? [`snapshots/${stage.slug}/${name}${PENDING_SUFFIX}`] : []),
      ...(stage.recordings.includes(name) ? [`recordings/${stage.slug}/${name}.json`] : []),
    ];
    entries.push({ status: 'obsolete', name, files });
  }
  return entries;
}

function entryFor(name: string, run: ReferenceResult | undefined, disk: OnDisk): SnapshotEntry {
  const pendingText = disk.pending.get(name) ?? null;
  const pending = pendingText === null ? {} : { pending: pendingText };
  if (run === undefined) return { status: 'failed', name, why: 'the reference did not run this case', ...pending };
  if (!run.ok) return { status: 'failed', name, why: `the reference failed: ${run.why}`, ...pending };
  const text = formatSnapshot({ results: run.results });
  const before = disk.snapshots.get(name) ?? null;
  if (before === text) return { status: 'unchanged', name, ...pending };
  if (before === null) return { status: 'added', name, text, ...pending };
  const old = parseSnapshot(before);
  const drift = typeof old === 'string' ? undefined : classifyDrift(old.results, run.results);
  return { status: 'changed', name, text, before, drift, ...pending };
}

// The files a run writes and removes, as paths under the package root: a pending file for each new or changed
// snapshot (unless it holds that already); an outdated pending file removed where the snapshot is up to date
// again; the obsolete files removed only when asked. A snapshot itself is never written here.
export function runActions(
  entries: SnapshotEntry[],
  o: { stage: string; removeObsolete: boolean },
): { write: { path: string; text: string }[]; remove: string[] } {
  const write: { path: string; text: string }[] = [];
  const remove: string[] = [];
  const pending = (name: string) => `snapshots/${o.stage}/${name}${PENDING_SUFFIX}`;
  for (const e of entries) {
    if ((e.status === 'added' || e.status === 'changed') && e.pending !== e.text)
      write.push({ path: pending(e.name), text: e.text });
    if (e.status === 'unchanged' && e.pending !== undefined) remove.push(pending(e.name));
    if (e.status === 'obsolete' && o.removeObsolete) remove.push(...e.files);
  }
  return { write, remove };
}

// Whether --check fails: anything not up to date, a pending file left to review, or the reference failing.
export function checkFails(entries: SnapshotEntry[]): boolean {
  return entries.some((e) => e.status !== 'unchanged' || e.pending !== undefined);
}

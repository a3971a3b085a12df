// The pending snapshots of a stage, each with what its review shows: the case's description and calls, the
// snapshot on disk and the pending one, how it drifted, and for a recorded case whether the reference still
// reproduces the recording. A pending file whose case is gone is obsolete, not
// reviewed (`theinference snapshot --remove-obsolete` removes it).
import { loadCases } from '../../course/load-cases.ts';
import { callsOf } from '../../modes/dispatch/case.ts';
import { parseSnapshot, pendingNames, pendingPath, readText, snapshotPath } from '../../course/snapshot-file.ts';
import { nameMatcher } from '../../grade/select-cases.ts';
import { classifyDrift } from '../snapshot/classify-drift.ts';
import { recordedDrift } from '../snapshot/recorded-drift.ts';
import type { ReviewItem } from './review-screen.ts';

// The stage's pending snapshots (of the cases `only` names or globs, when given), in name order.
export async function reviewItems(root: string, stage: string, only: string[], color: boolean): Promise<ReviewItem[]> {
  const cases = new Map((await loadCases(root, stage)).map((c) => [c.name, c]));
  const matches = (name: string): boolean => only.length === 0 || only.some((p) => nameMatcher(p)(name));
  const items: ReviewItem[] = [];
  for (const name of await pendingNames(root, stage)) {
    const c = cases.get(name);
    const after = await readText(pendingPath(root, stage, name));
    if (c === undefined || after === null || !matches(name)) continue;
    const before = await readText(snapshotPath(root, stage, name));
    const [old, now] = [before === null ? null : parseSnapshot(before), parseSnapshot(after)];
    const drift =
      old === null || typeof old === 'string' || typeof now === 'string'
        ? undefined
        : classifyDrift(old.results, now.results);
    const recording = await recordedDrift(root, c, before, after, { color });
    items.push({
      stage,
      name,
      description: c.data.description,
      calls: callsOf(c.data) ?? [],
      before,
      after,
      drift,
      ...(recording === undefined ? {} : { recording }),
    });
  }
  return items;
}

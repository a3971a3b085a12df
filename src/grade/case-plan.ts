// What a run needs, in the order it needs it. Program processes need only the case files, which two readdirs
// give (the case files, and which have snapshots), so they are started first; validating every case file
// (ajv) and reading the snapshots then overlap their start-up.
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { loadCases } from '../course/load-cases.ts';
import { readSnapshot, snapshotNames, snapshotPath } from '../course/snapshot-file.ts';
import { caseFileNames, casesDir } from '../course/stages.ts';
import type { Case, Snapshot } from '../course/types.ts';
import { selectCases, type Shard } from './select-cases.ts';

// A selected case before validation: its name, its file, and whether the stage has a snapshot for it.
export type PlannedCase = { name: string; file: string; snapshotted: boolean };

// The selected cases of a stage, sorted by name, from the directory listings alone. Fails (a HarnessError) when
// the stage has no cases or a pattern matches none.
export async function planCases(
  root: string,
  stage: string,
  patterns: string[],
  shard?: Shard,
): Promise<PlannedCase[]> {
  const [fileNames, snapshots] = await Promise.all([caseFileNames(root, stage), snapshotNames(root, stage)]);
  if (fileNames.length === 0) {
    throw new HarnessError('NO_CASES', `stage '${stage}' has no cases: add some to cases/${stage}/.`);
  }
  const snapshotted = new Set(snapshots);
  const all = fileNames.map((fileName) => {
    const name = fileName.slice(0, -'.json'.length);
    return { name, file: join(casesDir(root, stage), fileName), snapshotted: snapshotted.has(name) };
  });
  return selectCases(all, patterns, shard);
}

// What judging needs: every selected case validated, and its snapshot (null when it has none).
export type Judging = { cases: Map<string, Case>; snapshots: Map<string, Snapshot | null> };

// Validates every case file of the stage (a bad one anywhere is a HarnessError naming it, as before any run)
// and reads the snapshots of the selected cases.
export async function loadJudging(root: string, stage: string, selected: PlannedCase[]): Promise<Judging> {
  const [cases, snapshotted] = await Promise.allSettled([
    loadCases(root, stage),
    Promise.all(
      selected.map(
        async (c) => [c.name, c.snapshotted ? await readSnapshot(snapshotPath(root, stage, c.name)) : null] as const,
      ),
    ),
  ]);
  // A bad case file is reported before a bad snapshot, whichever was read first.
  if (cases.status === 'rejected') throw cases.reason;
  if (snapshotted.status === 'rejected') throw snapshotted.reason;
  const all = cases.value;
  const snapshots = snapshotted.value;
  const wanted = new Set(selected.map((c) => c.name));
  return {
    cases: new Map(all.filter((c) => wanted.has(c.name)).map((c) => [c.name, c])),
    snapshots: new Map(snapshots),
  };
}

// Recorded cases on disk. First every case is staged in a temporary course directory, validated by the course's
// own loader (src/course/load-cases.ts) and run through the reference by the shared snapshot code
// (src/grade/run-reference.ts), whose results must equal the replay's. Then each is compared with what the
// course directory holds: the same bytes are `unchanged`, different ones are refused unless `force`, and when
// anything is refused nothing is written. Files are written whole or not at all: every temp file first, then
// the renames.
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { loadCases, schemaFile } from '../../course/load-cases.ts';
import { recordingPath } from '../../course/recording-file.ts';
import { formatSnapshot, readText, snapshotPath } from '../../course/snapshot-file.ts';
import { casesDir } from '../../course/stages.ts';
import { writeFiles } from '../../course/write-files.ts';
import type { CaseData } from '../../course/types.ts';
import type { DispatchCaseData } from '../../modes/dispatch/case.ts';
import { type ReferenceRuns, runReference } from '../../grade/run-reference.ts';
import { casesOfSet } from './case-set.ts';
import { HarnessError } from '../../errors.ts';
import type { Identity } from '../map/identity.ts';
import { describeRefusals, gateFiles } from './privacy-gate.ts';

// A case ready to be checked and written.
export type NamedCase<D extends CaseData = DispatchCaseData> = { name: string; data: D; results: unknown[] };

// What became of one case.
export type CaseStatus = 'added' | 'unchanged' | 'replaced' | 'refused' | 'would add' | 'would replace';

// A case with its files' text and what writing it did (or, with dryRun, would do).
export type WrittenCase<D extends CaseData = DispatchCaseData> = NamedCase<D> & {
  caseText: string;
  snapshotText: string;
  // What the recorded agent was answered, kept beside the case (src/course/recording-file.ts); loop cases have none.
  recordingText?: string;
  status: CaseStatus;
};

// The exact bytes of a case file: its keys in the order given, two-space JSON, a final newline.
export function formatCase(data: CaseData): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

// Each case's snapshot from the reference, or why the case cannot be written (by name).
export async function snapshotCases(
  cases: NamedCase[],
  o: StagedRun,
): Promise<{ snapshots: Map<string, string>; failed: Map<string, string>; warnings: string[] }> {
  const snapshots = new Map<string, string>();
  const failed = new Map<string, string>();
  const { results: runs, warnings } = await runStaged(cases, o);
  for (const c of cases) {
    const run = runs.get(c.name);
    if (run === undefined || !run.ok)
      failed.set(c.name, `the reference failed on the case: ${run?.ok === false ? run.why : 'not run'}`);
    else if (!isDeepStrictEqual(run.results, c.results))
      failed.set(c.name, 'the reference gave other results as a case than in the replay');
    else snapshots.set(c.name, formatSnapshot({ results: run.results }));
  }
  return { snapshots, failed, warnings };
}

// Where and how the reference runs a stage's recorded cases.
export type StagedRun = {
  root: string;
  stage: string;
  env: NodeJS.ProcessEnv;
  sandbox: boolean;
  signal?: AbortSignal;
  onProgress?: (done: number, of: number) => void;
};

// The reference's run of each case (by name), staged in a temporary course directory with the stage's schema and
// loaded by the course's own loader first, so a case that would not load is never written.
export async function runStaged(cases: { name: string; data: CaseData }[], o: StagedRun): Promise<ReferenceRuns> {
  if (cases.length === 0) return { results: new Map(), warnings: [] };
  const schema = schemaFile(o.stage);
  const staging = await mkdtemp(join(tmpdir(), 'theinference-record-'));
  try {
    await mkdir(casesDir(staging, o.stage), { recursive: true });
    await cp(join(o.root, 'cases', schema), join(staging, 'cases', schema));
    for (const c of cases) await writeFile(join(casesDir(staging, o.stage), `${c.name}.json`), formatCase(c.data));
    const loaded = await loadCases(staging, o.stage);
    const runs = await runReference({
      root: o.root,
      cases: loaded,
      env: o.env,
      sandbox: o.sandbox,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
      ...(o.onProgress === undefined ? {} : { onProgress: o.onProgress }),
    });
    o.signal?.throwIfAborted();
    return runs;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

// A case of a set this run replaces but does not make again: removed with --force, else in the way.
export type StaleCase = { name: string; status: 'removed' | 'would remove' | 'refused' };

// Compares each case with the course directory and writes them (unless dryRun, or something is refused). Each of
// `sets` (the names the cases were made under) is replaced as a whole: its cases this run does not make are stale,
// removed with `force` and refused without it.
export async function writeCases<D extends CaseData = DispatchCaseData>(
  cases: (NamedCase<D> & { snapshotText: string; recordingText?: string })[],
  o: { dir: string; stage: string; force: boolean; dryRun: boolean; sets: string[]; privacy: Identity },
): Promise<{ cases: WrittenCase<D>[]; stale: StaleCase[] }> {
  const planned: (WrittenCase<D> & { files: [string, string][] })[] = [];
  for (const c of cases) {
    const caseFile = join(casesDir(o.dir, o.stage), `${c.name}.json`);
    const snapFile = snapshotPath(o.dir, o.stage, c.name);
    const caseText = formatCase(c.data);
    const [oldCase, oldSnap] = await Promise.all([readText(caseFile), readText(snapFile)]);
    const same = oldCase === caseText && oldSnap === c.snapshotText;
    const exists = oldCase !== null || oldSnap !== null;
    // The recording beside the case (src/course/recording-file.ts) is written whenever it is not there as it
    // should be, also for an unchanged case (one recorded before recordings were kept).
    const recordingFile = recordingPath(o.dir, o.stage, c.name);
    const recording =
      c.recordingText === undefined || (await readText(recordingFile)) === c.recordingText
        ? []
        : [[recordingFile, c.recordingText] as [string, string]];
    const status: CaseStatus = same
      ? 'unchanged'
      : !exists
        ? o.dryRun
          ? 'would add'
          : 'added'
        : !o.force
          ? 'refused'
          : o.dryRun
            ? 'would replace'
            : 'replaced';
    const files: [string, string][] = same
      ? recording
      : [[caseFile, caseText], [snapFile, c.snapshotText], ...recording];
    planned.push({ ...c, caseText, status, files });
  }
  // The privacy gate, last: no file of the machine's or with a secret is written, even when a caller's own check
  // let it through; nothing is written then, and the error names each file and what it would carry.
  const refusals = gateFiles(
    planned.flatMap((c) => c.files.map(([target, text]) => ({ path: relative(o.dir, target), text }))),
    o.privacy,
  );
  if (refusals.length > 0)
    throw new HarnessError(
      'CANNOT_WRITE',
      `nothing was written: the privacy gate refused\n${describeRefusals(refusals)}`,
    );
  const made = new Set(cases.map((c) => c.name));
  const existing = (await Promise.all([...new Set(o.sets)].map((set) => casesOfSet(o.dir, o.stage, set)))).flat();
  const staleNames = [...new Set(existing)].filter((n) => !made.has(n)).sort();
  const staleStatus: StaleCase['status'] = !o.force ? 'refused' : o.dryRun ? 'would remove' : 'removed';
  const stale = staleNames.map((name) => ({ name, status: staleStatus }));
  const write = !o.dryRun && [...planned, ...stale].every((c) => c.status !== 'refused');
  if (write) {
    // Every case and snapshot whole, or none of them; then what the set no longer holds.
    await writeFiles(
      o.dir,
      planned.flatMap((c) => c.files.map(([target, text]) => ({ path: relative(o.dir, target), text }))),
    );
    for (const name of staleNames)
      for (const file of [
        join(casesDir(o.dir, o.stage), `${name}.json`),
        snapshotPath(o.dir, o.stage, name),
        recordingPath(o.dir, o.stage, name),
      ])
        await rm(file, { force: true });
  }
  return { cases: planned.map(({ files: _, ...c }) => c), stale };
}

// Grades a course directory against a stage: load and select the cases, run them through the process pool,
// judge each against its snapshot, then check that failures are the program's own and not a neighbour's.
import { availableParallelism } from 'node:os';
import { HarnessError } from '../errors.ts';
import { loadCases } from '../course/load-cases.ts';
import { readSnapshot, snapshotPath } from '../course/snapshot-file.ts';
import { packageRoot, requireStage } from '../course/stages.ts';
import type { Case, Snapshot } from '../course/types.ts';
import { checkCourseDir } from './check-course-dir.ts';
import { recheckAlone } from './recheck-alone.ts';
import { judgeCase, noSnapshot } from './judge-case.ts';
import { runBatches, type CaseRun } from './run-batches.ts';
import { selectCases } from './select-cases.ts';
import type { CaseResult, RunOptions, RunReport } from './types.ts';

// Per case, when --timeout is not given: generous for the slowest case on a busy 2-core machine.
export const DEFAULT_TIMEOUT_MS = 10_000;

// Grades `options.dir`. Misuse (unknown stage, no program.ts, bad case file) is a HarnessError; everything the
// program under test does is a verdict in the report. Rejects with the abort reason when options.signal fires.
export async function runStage(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  const root = packageRoot();
  await requireStage(root, options.stage);
  await checkCourseDir(options.dir);
  const all = await loadCases(root, options.stage);
  if (all.length === 0) {
    throw new HarnessError('NO_CASES', `stage '${options.stage}' has no cases: add some to cases/${options.stage}/.`);
  }
  const selected = selectCases(all, options.cases ?? [], options.shard);
  const snapshots = new Map<string, Snapshot | null>();
  for (const c of selected) snapshots.set(c.name, await readSnapshot(snapshotPath(root, options.stage, c.name)));

  const results = new Map<string, CaseResult>();
  const emit = (result: CaseResult): void => {
    results.set(result.name, result);
    options.onCaseResult?.(result);
  };
  for (const c of selected.filter((c) => snapshots.get(c.name) === null)) emit(noSnapshot(c));
  const toRun = selected.filter((c) => snapshots.get(c.name) !== null);
  const byName = new Map(toRun.map((c) => [c.name, c]));
  const jobs = options.jobs ?? availableParallelism();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const env = options.env ?? process.env;
  const judge = (name: string, run: CaseRun): CaseResult => judgeCase(byName.get(name) as Case, snapshots.get(name) ?? null, run);

  // --bail and the caller's signal both stop the pool; only the caller's makes runStage reject.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted === true) stop.abort();
  // A failure that ran after something else in its process may have been caused by it: judged again alone.
  const suspects: CaseResult[] = [];
  try {
    await runBatches({
      dir: options.dir,
      cases: toRun.map((c) => ({ name: c.name, file: c.file })),
      jobs,
      timeoutMs,
      env,
      signal: stop.signal,
      onCase: (run) => {
        const verdict = judge(run.name, run);
        // Not a timeout: re-running a hang costs a whole timeout again, and a hang is rarely a neighbour's doing.
        const suspect = verdict.status === 'fail' && run.shared && verdict.failure?.kind !== 'timeout';
        if (suspect) suspects.push(verdict);
        else emit(verdict);
        if (verdict.status === 'fail' && options.bail === true) stop.abort();
      },
    });
    options.signal?.throwIfAborted();
    const recheck = await recheckAlone(suspects, {
      jobs,
      runAlone: async (names) => {
        const alone: CaseResult[] = [];
        await runBatches({
          dir: options.dir,
          cases: names.map((name) => ({ name, file: (byName.get(name) as Case).file })),
          jobs,
          timeoutMs,
          env,
          alone: true,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          onCase: (run) => alone.push(judge(run.name, run)),
        });
        options.signal?.throwIfAborted();
        return alone;
      },
    });
    for (const result of recheck.results) emit(result);
    const cases = selected.flatMap((c) => results.get(c.name) ?? []);
    const failed = cases.filter((c) => c.status === 'fail').length;
    return {
      stage: options.stage,
      dir: options.dir,
      cases,
      passed: cases.length - failed,
      failed,
      durationMs: Math.round(performance.now() - started),
      ...(cases.length < selected.length ? { skipped: selected.length - cases.length } : {}),
      ...(recheck.warning === undefined ? {} : { warnings: [recheck.warning] }),
    };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

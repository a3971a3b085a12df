// The options of one run (src/grade/run-stage.ts), apart from the verdict vocabulary in types.ts: a run's
// options name the processes it may reuse (src/grade/run/), which judges and reporters never see.
import type { StandbySource } from './run/run-program.ts';
import type { CaseResult } from './types.ts';

// What `theinference test` asks of src/grade/run-stage.ts (`runStage(options): Promise<RunReport>`).
export type RunOptions = {
  stage: string;
  // The course directory whose code is graded (absolute).
  dir: string;
  // A driver of the caller's own, by its path in the course directory, instead of the package's: only the tests of
  // the run's machinery give one (a driver that misbehaves); the CLI never does.
  driver?: string | undefined;
  // Case names or globs over names; all cases when absent, undefined or empty.
  cases?: string[] | undefined;
  bail?: boolean;
  // Per case, in milliseconds.
  timeoutMs?: number;
  // How many program processes at once.
  jobs?: number;
  // 1-based shard index of total: a deterministic split of the selected cases.
  shard?: { index: number; total: number };
  // Cancels the run: every program process is killed and its temp directory removed before runStage settles.
  signal?: AbortSignal;
  // Called as each case's verdict is known (cases may finish out of order).
  onCaseResult?: (result: CaseResult) => void;
  // Called with a failure as soon as it is judged, before the leaked-state rule re-runs it alone
  // (judge/recheck-alone.ts): a failure whatever that finds, though the report may tell it with another hint. Its
  // settled verdict still comes to onCaseResult. What a terminal shows first.
  onFailureSeen?: (result: CaseResult) => void;
  // Case names to run before the others (the ones that failed last time, on a terminal): the failure a student is
  // waiting for shows first. Only the order in which cases run changes; the report keeps its own order.
  runFirst?: readonly string[] | undefined;
  // The grader's environment (process.env when absent): it decides the default --isolation mode and where bwrap
  // is found; program processes get only the few names docs/sandbox.md lists from it, and a TMPDIR of their own.
  env?: NodeJS.ProcessEnv;
  // Whether program processes run in the sandbox, as the caller decided from --isolation
  // (src/grade/run/isolation/choose-sandbox.ts); when absent, decided here from the default mode.
  sandbox?: boolean;
  // Warm program processes to use before starting cold ones (watch mode keeps a pool for its course dir).
  standbys?: StandbySource;
  // How long each case took when it last ran in a batch, by name (ms): read to balance this run's batches so
  // that they finish together, and updated with what this run measures. Watch mode keeps one across runs.
  timings?: Map<string, number>;
  // Also run each case's variant (src/grade/variants/), made from this seed, expected results from the reference.
  variants?: { seed: number };
  // Grade the earlier stages the course directory has reached too, after this one (runCourse; runStage grades one).
  previous?: boolean;
};

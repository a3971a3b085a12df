import type { Visibility } from '../course/case-weight.ts';
import type { Call } from '../course/types.ts';
import type { StandbySource } from './run/run-program.ts';

// Why a case failed. Errors are data until the CLI edge: reporters render these, nothing throws.
export type FailureKind =
  | 'mismatch' // a call's result differs from the snapshot
  | 'result-count' // the program printed a different number of results than there are calls
  | 'crash' // the program exited non-zero, or did not compile / threw at import
  | 'timeout' // the program ran past the per-case timeout and was killed with its children
  | 'no-output' // exited 0 but printed nothing for this case
  | 'bad-output' // printed something that is not JSON, or JSON without a `results` array
  | 'no-snapshot'; // the stage has no snapshot for this case (a course author's problem)

export type Failure = {
  kind: FailureKind;
  // One line, plain text: what went wrong.
  message: string;
  // For 'mismatch': the first call that differs (0-based), the call itself, and both results. For a timeout or a
  // crash: the call in flight, when the program's progress lines said which.
  callIndex?: number;
  call?: Call;
  expected?: unknown;
  received?: unknown;
  // A recognised mistake, said in the student's terms (see src/grade/judge/hints.ts and load-failure.ts).
  hint?: string;
  // The mistake the hint names, without what varies from call to call (the tool name sent, say): failures with the
  // same one are one problem, shown once in the terminal report. The hint itself when absent.
  hintCause?: string;
  // The program failed before its first case (it does not load, or prints something else first): every case
  // of its process has this same failure, and the terminal report shows it once.
  beforeAnyCase?: boolean;
  // The case passed as written and failed its variant (src/grade/variants/): the call, input and expected result
  // are the variant's, the expected result the reference's for it; `seed` reproduces it (`--seed`).
  variant?: { seed: number };
};

export type CaseResult = {
  name: string;
  description: string;
  status: 'pass' | 'fail';
  durationMs: number;
  failure?: Failure;
  // What the program wrote to stderr (and any stray stdout) for this case, tail-capped.
  output: string;
  // The case file's `points` and `visibility` when it sets them (weightOf in src/course/case-weight.ts gives
  // the defaults). A case whose expected result is withheld has a failure without it: no reporter can show it.
  points?: number;
  visibility?: Visibility;
};

export type RunReport = {
  stage: string;
  dir: string;
  cases: CaseResult[];
  passed: number;
  failed: number;
  durationMs: number;
  // Cases selected but not run because --bail stopped the run at the first failure.
  skipped?: number;
  // Things the student should know beyond the verdicts (the program leaks state between cases, say).
  warnings?: string[];
  // With --previous: the reports of the earlier stages the course directory has reached, nearest first, graded
  // after this one (src/grade/run-course.ts). Reporters show each stage apart.
  previous?: RunReport[];
  // When the run also ran each case's variant: the seed, how many cases' variants were judged, and the cases
  // that had none (or whose variant the reference gave no result for), with why.
  variants?: VariantSummary;
};

// What a run's variants came to.
export type VariantSummary = { seed: number; judged: number; none: { name: string; why: string }[] };

// What `theinference test` asks of src/grade/run-stage.ts (`runStage(options): Promise<RunReport>`).
export type RunOptions = {
  stage: string;
  // The course directory whose program.ts is graded (absolute).
  dir: string;
  // Case names or globs over names; all cases when absent or empty.
  cases?: string[];
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
  // The grader's environment (process.env when absent): it decides the default --isolation mode and where bwrap
  // is found; program processes get only the few names docs/grader.md lists from it, and a TMPDIR of their own.
  env?: NodeJS.ProcessEnv;
  // Whether program processes run in the sandbox, as the caller decided from --isolation
  // (src/grade/run/isolation/choose-sandbox.ts); when absent, decided here from the default mode.
  sandbox?: boolean;
  // Warm program processes to use before starting cold ones (watch mode keeps a pool for its course dir).
  standbys?: StandbySource;
  // How long each case took when it last ran in a batch, by name (ms): read to balance this run's batches so
  // that they finish together, and updated with what this run measures. Watch mode keeps one across runs.
  timings?: Map<string, number>;
  // Grade the earlier stages the course directory has reached too, after this one (runCourse; runStage grades one).
  previous?: boolean;
  // Also run each case's variant (src/grade/variants/), made from this seed, expected results from the reference.
  variants?: { seed: number };
};

import type { Visibility } from '../course/case-weight.ts';
import type { Call } from '../course/types.ts';

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
  // What callIndex counts when it is not a call: a loop case's requests (for a difference at the conversation the
  // loop returned, callIndex is absent).
  steps?: 'requests';
  call?: Call;
  expected?: unknown;
  received?: unknown;
  // A recognised mistake, said in the student's terms (see src/grade/judge/hints.ts and load-failure.ts).
  hint?: string;
  // The mistake the hint names, without what varies from call to call (the tool name sent, say): failures with the
  // same one are one problem, shown once in the terminal report. The hint itself when absent.
  hintCause?: string;
  // For a mismatch: its first difference generalized (src/grade/judge/first-difference.ts): where, and how the
  // received value relates to the expected one. Failures without a hint that share it are one message.
  difference?: string;
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

// One submission: its name in reports (unique in the run) and its directory (absolute).
export type Submission = { name: string; dir: string };

// How a submission did: every case passed; a case failed; its program never started (every case failed before
// running); or it could not be graded at all (`message` says why).
export type SubmissionVerdict = 'pass' | 'fail' | 'did not start' | 'misuse';

// A submission's outcome: its verdict and counts, and its report (a misused one's fails every case with why).
export type SubmissionResult = Submission & {
  verdict: SubmissionVerdict;
  passed: number;
  failed: number;
  message?: string;
  report: RunReport;
};

// A class's run: every submission's outcome in name order, the time, and the variants they shared.
export type ClassReport = {
  stage: string;
  submissions: SubmissionResult[];
  durationMs: number;
  variants?: Pick<VariantSummary, 'seed'>;
  warnings?: string[];
};

// The course's type check beside its cases (src/grade/type-check/): a type error, where tsc names one (relative to
// the course directory) with its code and the first line of its message.
export type TypeCheckError = { file?: string; line?: number; column?: number; code: string; message: string };

// What the type check found: nothing, errors, or why it did not run (no tsconfig.json, no typescript beside the
// grader, a grader installed elsewhere, too slow, stopped).
export type TypeCheck =
  | { kind: 'clean' }
  | { kind: 'errors'; errors: TypeCheckError[] }
  | { kind: 'not run'; why: string };

// What a course says its type check counts for (its package.json's `"theinference": { "typecheck": … }`): shown
// beside the verdict, failing the run, or not run.
export type TypeCheckSetting = 'note' | 'fail' | 'off';

// A case's verdict from what the program did with it: pure, so every failure path is a table row in a test.
import { withholdsExpected } from '../../course/case-weight.ts';
import type { Case, Snapshot } from '../../course/types.ts';
import { loadFailureHint, type Misplaced } from './load-failure.ts';
import { limitReached, OUT_OF_CPU, TIMED_OUT, treeOutOfMemory } from './limit-reached.ts';
import { judgeOf } from './mode-judges.ts';
import type { CaseRun } from '../run/run-batches.ts';
import { withholdExpected } from './withhold-expected.ts';
import type { CaseResult, Failure } from '../types.ts';

// The verdict for one case. A case whose expected result is withheld (its visibility) gets a failure without it.
export function judgeCase(c: Case, snapshot: Snapshot | null, run: CaseRun, misplaced: Misplaced = {}): CaseResult {
  const found = findFailure(c, snapshot, run, misplaced);
  const failure =
    found !== undefined && withholdsExpected(c.data.visibility) ? withholdExpected(found, judgeOf(c).steps(c)) : found;
  return {
    name: c.name,
    description: c.data.description,
    status: failure === undefined ? 'pass' : 'fail',
    // To the microsecond: a dispatch case takes well under a millisecond, and reports that sum case times need them.
    durationMs: Math.round(run.durationMs * 1000) / 1000,
    ...(failure === undefined ? {} : { failure }),
    output: run.output,
    ...weighing(c),
  };
}

// The case file's points and visibility, as it sets them, for the reporters (src/course/case-weight.ts).
export function weighing(c: Case): Pick<CaseResult, 'points' | 'visibility'> {
  return {
    ...(c.data.points === undefined ? {} : { points: c.data.points }),
    ...(c.data.visibility === undefined ? {} : { visibility: c.data.visibility }),
  };
}

// The verdict for a case that has no snapshot: nothing to compare with, so it is not run.
export function noSnapshot(c: Case): CaseResult {
  const how = `a course author runs \`theinference snapshot --stage ${c.stage} --case ${c.name}\` to make it`;
  return {
    name: c.name,
    description: c.data.description,
    status: 'fail',
    durationMs: 0,
    failure: { kind: 'no-snapshot', message: `the stage has no snapshot for this case (${how})` },
    output: '',
    ...weighing(c),
  };
}

// The verdict for a case not run because `count` runs of the same course directory reached one limit before it
// (program-limits.ts's OUT_OF_CPU_CASES, TIMED_OUT_CASES): it fails, saying why, with the hint of the cases that did.
export function notRunAfter(c: Case, stop: 'cpu' | 'deadline', count: number): CaseResult {
  const { limit, kind, words } = NOT_RUN[stop];
  return {
    name: c.name,
    description: c.data.description,
    status: 'fail',
    durationMs: 0,
    failure: {
      kind,
      message: `${limit.name}: not run, because ${count} cases of this run ${words} before it`,
      hint: limit.hint,
      hintCause: limit.name,
    },
    output: '',
    ...weighing(c),
  };
}

const NOT_RUN = {
  cpu: { limit: OUT_OF_CPU, kind: 'crash', words: 'ran out of CPU time' },
  deadline: { limit: TIMED_OUT, kind: 'timeout', words: 'ran past their deadline' },
} as const;

// The grader's words for a run that gave no results (a crash, a timeout, a bad line), as a verdict words it: how
// the reference's own failures are told (src/grade/run-reference.ts).
export function noResultsWords(c: Case, run: CaseRun): string {
  return findFailure(c, null, run, {})?.message ?? 'no results';
}

function findFailure(c: Case, snapshot: Snapshot | null, run: CaseRun, found: Misplaced): Failure | undefined {
  // A crash loading the program, told by its output: also in a process's first case, which has no probe (but not
  // once a call has started: the program had loaded).
  const crashed = run.outcome.kind === 'exited' && run.outcome.code !== 0 && run.outcome.calling === undefined;
  const hint =
    crashed && (run.outcome.beforeAnyCase === true || !run.afterProbe) ? loadFailureHint(run.output, found) : undefined;
  const early = run.outcome.beforeAnyCase === true || hint !== undefined;
  const failure = reachedLimit(outcomeFailure(c, snapshot, run, early), run);
  if (failure === undefined || !early) return failure;
  return { ...failure, beforeAnyCase: true, ...(hint === undefined ? {} : { hint }) };
}

function outcomeFailure(c: Case, snapshot: Snapshot | null, run: CaseRun, early: boolean): Failure | undefined {
  const o = run.outcome;
  switch (o.kind) {
    case 'results': {
      if (snapshot === null) return noSnapshot(c).failure;
      return judgeOf(c).compare(c, snapshot.results, o.results);
    }
    case 'bad-line': {
      if (early)
        return { kind: 'bad-output', message: `before running any case, the program ${o.reason}`, hint: LOAD_PRINT };
      return { kind: 'bad-output', message: `the program ${o.reason}${BAD_LINE_ADVICE}` };
    }
    case 'exited':
      return judgeOf(c).exited(c, o, early);
    case 'timeout':
      return judgeOf(c).timeout(c, o, !run.afterProbe, early);
    case 'overflow':
      return {
        kind: 'bad-output',
        message:
          'limitValues' in o
            ? `the program sent over ${o.limitValues.toLocaleString('en-US')} JSON values to the grader over its channel (its requests, its calls, its results) and was killed`
            : 'limitUnread' in o
              ? `the program left over ${Math.round(o.limitUnread / 1024 / 1024)} MB of the grader's answers on its channel unread and was killed: the driver reads each answer before it asks again`
              : o.channel === true
                ? `the program sent over ${Math.round(o.limitBytes / 1024 / 1024)} MB to the grader over its channel (its requests, its calls, its results) and was killed`
                : `the program printed over ${Math.round(o.limitBytes / 1024 / 1024)} MB on stdout without a line break and was killed`,
      };
    case 'spawn-failed':
      return { kind: 'crash', message: `the program could not be started: ${o.message}` };
    case 'cpu':
      return {
        kind: 'crash',
        message: `${OUT_OF_CPU.name}: the program's processes used over ${o.cpuMs / 1000} s of CPU time during this case and were killed`,
        hint: OUT_OF_CPU.hint,
        hintCause: OUT_OF_CPU.name,
      };
    case 'memory': {
      const limit = treeOutOfMemory(o.memoryMiB);
      return {
        kind: 'crash',
        message: `${limit.name}: the program's processes held ${o.heldMiB} MiB together, over the ${o.memoryMiB} MiB they may hold, and were killed`,
        hint: limit.hint,
        hintCause: limit.name,
      };
    }
  }
}

// A crash whose output shows a limit of the program process reached (memory, processes, file size), or a call that
// threw or failed for that, says so, whatever else it would have said.
function reachedLimit(failure: Failure | undefined, run: CaseRun): Failure | undefined {
  if (failure === undefined) return undefined;
  const received = failure.received as { threw?: unknown; is_error?: unknown; content?: unknown } | undefined;
  const said =
    typeof received?.threw === 'string' ? received.threw : received?.is_error === true ? received.content : undefined;
  const limit =
    failure.kind === 'crash'
      ? (limitReached(run.output) ?? limitReached(failure.message))
      : failure.kind === 'mismatch' && typeof said === 'string'
        ? limitReached(said)
        : undefined;
  if (limit === undefined) return failure;
  return { ...failure, message: `${limit.name}: ${failure.message}`, hint: limit.hint, hintCause: limit.name };
}

// A line on stdout before the first case's: printed while the program loaded, before program.ts sends what the
// code under test prints to stderr (an edited program.ts is warned of apart).
const LOAD_PRINT =
  'something prints on stdout while your code is loaded: a `console.log` at the top level of a module (outside any function) in src/ runs when program.ts imports it, before program.ts can send prints to stderr. Remove it, move it into a function, or use console.error';
// Result lines own stdout; most bad lines are a debugging print that went there.
const BAD_LINE_ADVICE =
  '. Result lines own stdout: print debugging output with console.error, and leave program.ts as the course gives it';

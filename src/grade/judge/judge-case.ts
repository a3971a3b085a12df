// A case's verdict from what the program did with it: pure, so every failure path is a table row in a test.
import type { Case, Snapshot } from '../../course/types.ts';
import { compareResults } from './compare-results.ts';
import { exitFailure, timeoutFailure } from './ended-mid-case.ts';
import { hintFor } from './hints.ts';
import { loadFailureHint } from './load-failure.ts';
import { limitReached } from './limit-reached.ts';
import type { CaseRun } from '../run/run-batches.ts';
import type { CaseResult, Failure } from '../types.ts';

// The verdict for one case.
export function judgeCase(c: Case, snapshot: Snapshot | null, run: CaseRun): CaseResult {
  const failure = findFailure(c, snapshot, run);
  return {
    name: c.name,
    description: c.data.description,
    status: failure === undefined ? 'pass' : 'fail',
    durationMs: Math.round(run.durationMs),
    ...(failure === undefined ? {} : { failure }),
    output: run.output,
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
  };
}

function findFailure(c: Case, snapshot: Snapshot | null, run: CaseRun): Failure | undefined {
  // A crash loading the program, told by its output: also in a process's first case, which has no probe (but not
  // once a call has started: the program had loaded).
  const crashed = run.outcome.kind === 'exited' && run.outcome.code !== 0 && run.outcome.calling === undefined;
  const hint = crashed && (run.outcome.beforeAnyCase === true || !run.shared) ? loadFailureHint(run.output) : undefined;
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
      const failure = compareResults(c.data.calls, snapshot.results, o.results);
      if (failure?.kind !== 'mismatch' || failure.call === undefined) return failure;
      const hint = hintFor({ call: failure.call, expected: failure.expected, received: failure.received });
      return hint === undefined ? failure : { ...failure, hint: hint.text, hintCause: hint.cause };
    }
    case 'bad-line': {
      const when = early ? 'before running any case, the program' : 'the program';
      return { kind: 'bad-output', message: `${when} ${o.reason}${BAD_LINE_ADVICE}` };
    }
    case 'exited':
      return exitFailure(c, o, early);
    case 'timeout':
      return timeoutFailure(c, o, !run.shared, early);
    case 'overflow':
      return {
        kind: 'bad-output',
        message: `the program printed over ${Math.round(o.limitBytes / 1024 / 1024)} MB on stdout without a line break and was killed`,
      };
    case 'spawn-failed':
      return { kind: 'crash', message: `the program could not be started: ${o.message}` };
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
      ? limitReached(run.output)
      : failure.kind === 'mismatch' && typeof said === 'string'
        ? limitReached(said)
        : undefined;
  if (limit === undefined) return failure;
  return { ...failure, message: `${limit.name}: ${failure.message}`, hint: limit.hint, hintCause: limit.name };
}

// Result lines own stdout; most bad lines are a debugging print that went there.
const BAD_LINE_ADVICE =
  '. Result lines own stdout: print debugging output with console.error, and leave program.ts as the course gives it';

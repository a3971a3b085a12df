// A case's verdict from what the program did with it: pure, so every failure path is a table row in a test.
import type { Case, Snapshot } from '../course/types.ts';
import { compareResults } from './compare-results.ts';
import { hintFor } from './hints.ts';
import type { CaseRun } from './run-batches.ts';
import type { CaseResult, Failure } from './types.ts';

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
  const o = run.outcome;
  const before = o.beforeAnyCase === true ? ' before running any case' : '';
  switch (o.kind) {
    case 'results': {
      if (snapshot === null) return noSnapshot(c).failure;
      const failure = compareResults(c.data.calls, snapshot.results, o.results);
      if (failure?.kind !== 'mismatch' || failure.call === undefined) return failure;
      const hint = hintFor({ call: failure.call, expected: failure.expected, received: failure.received });
      return hint === undefined ? failure : { ...failure, hint };
    }
    case 'bad-line':
      return { kind: 'bad-output', message: `the program ${o.reason.replace(/^printed/, `printed${before}`)}${badLineAdvice}` };
    case 'exited': {
      if (o.code === 0) {
        return { kind: 'no-output', message: `the program exited${before} without printing results for this case` };
      }
      const how = o.signal !== null ? `was killed by ${o.signal}` : `exited with code ${o.code}`;
      const where = before === '' ? ' before printing results for this case' : `${before} (it fails while loading: see its output)`;
      return { kind: 'crash', message: `the program ${how}${where}` };
    }
    case 'timeout':
      return {
        kind: 'timeout',
        message: `the program printed nothing for ${o.timeoutMs} ms${before} and was killed with every process it started (raise the limit with --timeout <ms>)`,
      };
    case 'overflow':
      return {
        kind: 'bad-output',
        message: `the program printed over ${Math.round(o.limitBytes / 1024 / 1024)} MB on stdout without a line break${before} and was killed`,
      };
    case 'spawn-failed':
      return { kind: 'crash', message: `the program could not be started: ${o.message}` };
  }
}

// Result lines own stdout; most bad lines are a debugging print that went there.
const badLineAdvice =
  '. Result lines own stdout: print debugging output with console.error, and leave program.ts as the course gives it';

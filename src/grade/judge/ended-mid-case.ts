// The verdict for a case whose process timed out or ended before printing its results, in the words every mode
// shares: a program that never finished loading, a case that never finished, a process that ended, a promise that
// never settled. What was in flight (a dispatcher's call, a loop's request) is its mode's to say: a mode's judge
// names its own steps (src/modes/dispatch/judge/call-ended.ts, src/modes/loop/judge/loop-ended.ts) and leaves the
// rest to these. The student's code is named by the export the stage's row gives (`entry`). A call that never
// returns is a loop or a promise that never settles in the student's code, not a limit to raise; Node's exit code
// 13 means a promise never settled. Pure.
import { stageOf } from '../../course/stages.ts';
import type { Case } from '../../course/types.ts';
import type { Failure } from '../types.ts';
import type { CaseOutcome } from '../run/case-outcome.ts';

type Timeout = Extract<CaseOutcome, { kind: 'timeout' }>;
type Exited = Extract<CaseOutcome, { kind: 'exited' }>;

// Node's exit code when the event loop empties while a top-level await still waits (the driver awaits its main).
export const UNSETTLED_AWAIT = 13;
export const KILLED = 'The program was killed with every process it started';
export const UNSETTLED_EXIT = 'Node exited with code 13 when nothing was left to run';

// "10 s", "1.5 s".
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

// Where in the student's code a hang or a crash is: the stage's export and what it calls ("your code" for a stage
// the course does not list).
function inYourCode(c: Pick<Case, 'stage'>, loading: boolean): string {
  const entry = stageOf(c.stage)?.entry;
  const load = loading ? 'loading it, ' : '';
  return entry === undefined ? 'in your code' : `in your code (${load}\`${entry}\` or what it runs)`;
}

// The case's failure for a timeout. `first`: the first case of a process without a probe (its time included
// loading the program). `early`: nothing of the program had run a case yet (it did not load in time).
export function timeoutFailure(c: Case, o: Timeout, first: boolean, early: boolean): Failure {
  const limit = seconds(o.timeoutMs);
  if (early) {
    const message = `the program did not finish loading within ${limit}, before running any case: code at the top level of a module that never ends (a loop, an \`await\`), or a machine too busy to load it in time (raise the limit with --timeout <ms>). It was killed with every process it started`;
    return { kind: 'timeout', message };
  }
  const message = `the case did not finish within ${limit}: a loop or an \`await\` that never ends ${inYourCode(c, first)}. ${KILLED}`;
  return { kind: 'timeout', message };
}

// The case's failure for a process that ended before printing its results, `early` when before any case ran.
export function exitFailure(c: Case, o: Exited, early: boolean): Failure {
  const kind = o.code === 0 ? 'no-output' : 'crash';
  if (o.code === UNSETTLED_AWAIT && o.signal === null) return unsettled(c, early);
  const how = o.signal !== null ? `was killed by ${o.signal}` : `exited with code ${o.code}`;
  if (!early) return { kind, message: `the program ${how} before printing results for this case` };
  const why = o.code === 0 ? 'without printing a result line' : '(it fails while loading: see its output)';
  const message = `the program ${how} before running any case ${why}`;
  if (o.code !== 0 || o.signal !== null) return { kind, message };
  // Exit 0 with nothing printed: nothing failed, something ended the process before the driver's main ran.
  const hint =
    'something ends the process while your code is loaded, before any case runs: a `process.exit()` at the top ' +
    "level of a module (outside any function), or a program.ts that is not the course's";
  return { kind, message, hint };
}

// Exit code 13: Node ran out of work while an await still waited, so some promise never settled.
function unsettled(c: Case, early: boolean): Failure {
  if (early) {
    const hint =
      'an `await` at the top level of a module (outside any function), in src/ or a module it imports, waits for something that never resolves: move it into a function, or make it settle';
    return {
      kind: 'crash',
      message: `a promise never settled while the program loaded. ${UNSETTLED_EXIT}, before running any case`,
      hint,
    };
  }
  return {
    kind: 'crash',
    message: `a promise never settled ${inYourCode(c, false)}: an \`await\` on something that never resolves. ${UNSETTLED_EXIT}, before printing results for this case`,
  };
}

// The verdict for a case whose process timed out or ended before printing its results, said from what is known:
// the call in flight (program.ts's progress line before each call) or that none had started, how long it ran, and
// how the process ended. A program.ts older than the grader reports no calls: then nothing is claimed about them.
// A call that never returns is a loop or a promise that never settles in the student's code, not a limit to raise
// (only a shell command may rightly need longer); Node's exit code 13 means a promise never settled. Pure.
import { METHODS } from '../../course/dispatcher-contract.ts';
import type { Call, Case } from '../../course/types.ts';
import { callsOf } from '../../modes/dispatch/case.ts';
import type { CaseOutcome } from '../run/case-outcome.ts';
// The limit a run has by default, which snapshots are made under too (run-reference.ts).
import { DEFAULT_CASE_TIMEOUT_MS } from '../run/case-timeout.ts';
import type { Failure } from '../types.ts';

// Tools whose call runs a shell command (the reference routes them to `tools.bash`): one may rightly take longer.
const SHELL_TOOLS = new Set(METHODS.bash!.names);
// Node's exit code when the event loop empties while a top-level await still waits (program.ts awaits its main).
const UNSETTLED_AWAIT = 13;

type Timeout = Extract<CaseOutcome, { kind: 'timeout' }>;
type Exited = Extract<CaseOutcome, { kind: 'exited' }>;
// Where the case stood: in a call (0-based, with how long it had run), before its first call, or not known.
type Where = { index: number; call: Call; of: number; ms: number } | 'before-calls' | undefined;

// The case's failure for a timeout. `first`: the first case of a process without a probe (its time included
// loading the program). `early`: nothing of the program had run a case yet (it did not load in time).
export function timeoutFailure(c: Case, o: Timeout, first: boolean, early: boolean): Failure {
  const limit = seconds(o.timeoutMs);
  if (early) {
    const message = `the program did not finish loading within ${limit}, before running any case: code at the top level of a module that never ends (a loop, an \`await\`), or a machine too busy to load it in time (raise the limit with --timeout <ms>). It was killed with every process it started`;
    return { kind: 'timeout', message };
  }
  const where = whereIn(c, o);
  const killed = 'The program was killed with every process it started';
  if (where === 'before-calls') {
    const message = `no call of this case started within ${limit}: seeding its files, \`new Tools(…)\` or your \`makeExecute(tools)\` did not finish — a loop or an \`await\` that never ends. ${killed}`;
    return { kind: 'timeout', message };
  }
  if (where === undefined) {
    const before = `${first ? 'loading your code, ' : ''}\`new Tools(…)\`, your \`makeExecute(tools)\``;
    const message = `the case did not finish within ${limit}, and program.ts reported no call of it starting: a loop or an \`await\` that never ends in your code, before its first call (${before}) or, if program.ts is an old copy that reports no calls, in a call. ${killed}`;
    return { kind: 'timeout', message };
  }
  const ran =
    where.ms >= 0.9 * o.timeoutMs
      ? `did not return within ${limit}`
      : `had run ${seconds(where.ms)} without returning when the case's ${limit} ran out`;
  const shell = SHELL_TOOLS.has(where.call.tool);
  const longer = shell && mayNeedLonger(where.call, o.timeoutMs);
  const why = longer
    ? 'its command may still be running, or your code waits for something that never comes'
    : shell
      ? `the reference runs this command within ${seconds(DEFAULT_CASE_TIMEOUT_MS)}, so the wait is in your code`
      : 'an infinite loop or a promise that never settles in your code';
  const never = `a promise that never settles (an \`exit\` or \`close\` event never listened for) or a loop that never ends`;
  const hint = longer
    ? `if the command needs longer, raise the limit with --timeout <ms>. If not, ${lookAt(where.call.tool)}: ${never}`
    : shell
      ? `${lookAt(where.call.tool)}: ${never}. A higher --timeout would not help`
      : `${lookAt(where.call.tool)}: a loop that never ends, or an \`await\` on something that never resolves (a callback never called, an event never emitted)`;
  return { kind: 'timeout', message: `${position(where)} ${ran} — ${why}`, ...located(where), hint };
}

// Whether a shell command may rightly need more than the run's limit: the limit is below the one the snapshots were
// made under (the reference ran the command within that), or the call asks for a longer `timeout` of its own.
function mayNeedLonger(call: Call, limitMs: number): boolean {
  const own = call.input.timeout;
  return limitMs < DEFAULT_CASE_TIMEOUT_MS || (typeof own === 'number' && own > limitMs);
}

// The case's failure for a process that ended before printing its results, `early` when before any case ran.
export function exitFailure(c: Case, o: Exited, early: boolean): Failure {
  const kind = o.code === 0 ? 'no-output' : 'crash';
  if (o.code === UNSETTLED_AWAIT && o.signal === null) return unsettled(c, o, early);
  const how = o.signal !== null ? `was killed by ${o.signal}` : `exited with code ${o.code}`;
  if (early) {
    const why = o.code === 0 ? 'without printing a result line' : '(it fails while loading: see its output)';
    const message = `the program ${how} before running any case ${why}`;
    if (o.code !== 0 || o.signal !== null) return { kind, message };
    // Exit 0 with nothing printed: nothing failed, something ended the process before program.ts's main ran.
    const hint =
      'something ends the process while your code is loaded, before any case runs: a `process.exit()` at the top ' +
      "level of a module (outside any function), or a program.ts that is not the course's";
    return { kind, message, hint };
  }
  const where = whereIn(c, o);
  if (typeof where !== 'object') return { kind, message: `the program ${how} before printing results for this case` };
  const message = `the program ${how} during ${position(where)}, before printing results for this case`;
  if (o.signal !== null) return { kind, message, ...located(where) };
  const hint = `${lookAt(where.call.tool)}: something there ends the process — a \`process.exit\`, or an error thrown in a callback or an event handler, where nothing catches it (the output shows which)`;
  return { kind, message, ...located(where), hint };
}

// Exit code 13: Node ran out of work while an await still waited, so some promise never settled.
function unsettled(c: Case, o: Exited, early: boolean): Failure {
  const exited = 'Node exited with code 13 when nothing was left to run';
  if (early) {
    const hint =
      'an `await` at the top level of a module (outside any function), in src/ or a module it imports, waits for something that never resolves: move it into a function, or make it settle';
    return {
      kind: 'crash',
      message: `a promise never settled while the program loaded. ${exited}, before running any case`,
      hint,
    };
  }
  const where = whereIn(c, o);
  if (typeof where !== 'object') {
    const when = where === 'before-calls' ? "before this case's first call" : 'before printing results for this case';
    return {
      kind: 'crash',
      message: `a promise in your code never settled: an \`await\` on something that never resolves. ${exited}, ${when}`,
    };
  }
  const hint = `${lookAt(where.call.tool)}: an \`await\` on a promise that nothing resolves (a callback never called, an event never emitted, a \`new Promise\` whose resolve is never called)`;
  return {
    kind: 'crash',
    message: `${position(where)} never returned: a promise in your code never settled — an \`await\` on something that never resolves. ${exited}`,
    ...located(where),
    hint,
  };
}

// A progress line naming a call the case does not have is not believed.
function whereIn(c: Case, o: Pick<CaseOutcome, 'calling'>): Where {
  if (o.calling === 'none') return 'before-calls';
  const calls = callsOf(c.data) ?? [];
  const index = (o.calling?.call ?? 0) - 1;
  const call = calls[index];
  return call === undefined || o.calling === undefined
    ? undefined
    : { index, call, of: calls.length, ms: o.calling.ms };
}

type InCall = Extract<Where, object>;

function position(where: InCall): string {
  return `call ${where.index + 1} of ${where.of} (${where.call.tool})`;
}

// The call in flight, as a mismatch names the call that differs: reporters show its input.
function located(where: InCall): Pick<Failure, 'callIndex' | 'call'> {
  return { callIndex: where.index, call: where.call };
}

function lookAt(tool: string): string {
  return `look at what \`${tool}\` runs in your code (its branch in makeExecute and the Tools method it calls)`;
}

// "10 s", "1.5 s".
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

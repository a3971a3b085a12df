// The dispatch mode's verdict for a case whose process timed out or ended before printing its results, said from
// the call in flight (the driver's progress line before each call) or that none had started, how long it ran, and
// how the process ended. A process that ended while loading, or a driver older than the grader that reports no
// calls, gets the words every mode shares (src/grade/judge/ended-mid-case.ts); where no call is known, nothing is
// claimed about the calls. Only a shell command may rightly need longer than the limit. Pure.
import { METHODS } from '../../../course/dispatcher-contract.ts';
import type { Call, Case } from '../../../course/types.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from '../../../grade/run/case-timeout.ts';
import {
  exitFailure,
  KILLED,
  seconds,
  timeoutFailure,
  UNSETTLED_AWAIT,
  UNSETTLED_EXIT,
} from '../../../grade/judge/ended-mid-case.ts';
import type { CaseOutcome } from '../../../grade/run/case-outcome.ts';
import type { Failure } from '../../../grade/types.ts';
import { callsOf } from '../case.ts';

type Timeout = Extract<CaseOutcome, { kind: 'timeout' }>;
type Exited = Extract<CaseOutcome, { kind: 'exited' }>;

// Tools whose call runs a shell command (the reference routes them to `tools.bash`): one may rightly take longer.
const SHELL_TOOLS = new Set(METHODS.bash!.names);

// Where the case stood: in a call (0-based, with how long it had run), before its first call, or not known.
type Where = { index: number; call: Call; of: number; ms: number } | 'before-calls' | undefined;

export function callTimeout(c: Case, o: Timeout, first: boolean, early: boolean): Failure {
  if (early) return timeoutFailure(c, o, first, early);
  const limit = seconds(o.timeoutMs);
  const where = whereIn(c, o);
  if (where === 'before-calls') {
    const message = `no call of this case started within ${limit}: seeding its files, \`new Tools(…)\` or your \`makeExecute(tools)\` did not finish — a loop or an \`await\` that never ends. ${KILLED}`;
    return { kind: 'timeout', message };
  }
  if (where === undefined) {
    const before = `${first ? 'loading your code, ' : ''}\`new Tools(…)\`, your \`makeExecute(tools)\``;
    const message = `the case did not finish within ${limit}, and program.ts reported no call of it starting: a loop or an \`await\` that never ends in your code, before its first call (${before}) or, if program.ts is an old copy that reports no calls, in a call. ${KILLED}`;
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

export function callExited(c: Case, o: Exited, early: boolean): Failure {
  if (early) return exitFailure(c, o, early);
  if (o.code === UNSETTLED_AWAIT && o.signal === null) return unsettled(c, o);
  const where = whereIn(c, o);
  if (typeof where !== 'object') return exitFailure(c, o, early);
  const kind = o.code === 0 ? 'no-output' : 'crash';
  const how = o.signal !== null ? `was killed by ${o.signal}` : `exited with code ${o.code}`;
  const message = `the program ${how} during ${position(where)}, before printing results for this case`;
  if (o.signal !== null) return { kind, message, ...located(where) };
  const hint = `${lookAt(where.call.tool)}: something there ends the process — a \`process.exit\`, or an error thrown in a callback or an event handler, where nothing catches it (the output shows which)`;
  return { kind, message, ...located(where), hint };
}

// Exit code 13 after the program loaded: a promise of a call, or of the case before its first call, never settled.
function unsettled(c: Case, o: Exited): Failure {
  const where = whereIn(c, o);
  if (typeof where !== 'object') {
    const when = where === 'before-calls' ? "before this case's first call" : 'before printing results for this case';
    return {
      kind: 'crash',
      message: `a promise in your code never settled: an \`await\` on something that never resolves. ${UNSETTLED_EXIT}, ${when}`,
    };
  }
  const hint = `${lookAt(where.call.tool)}: an \`await\` on a promise that nothing resolves (a callback never called, an event never emitted, a \`new Promise\` whose resolve is never called)`;
  return {
    kind: 'crash',
    message: `${position(where)} never returned: a promise in your code never settled — an \`await\` on something that never resolves. ${UNSETTLED_EXIT}`,
    ...located(where),
    hint,
  };
}

// A progress line naming a call the case does not have is not believed.
function whereIn(c: Case, o: Pick<Timeout | Exited, 'calling'>): Where {
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

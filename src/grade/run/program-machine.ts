// One program process as a pure state machine: what the process does (a stdout line, stderr, a stream closing,
// its exit), the timers and the grader's stop come in as events; the next state and the effects to carry out
// (arm a timer, kill the process, hand a result line to the batch, settle) come out. It decides everything about
// a process's lifetime; run-program.ts only spawns, reads the pipes and keeps the timers.
//
// Phases: `running` (alive, lines graded), `stopping` (killed for a reason, waiting for the exit), `draining`
// (exited, reading what is left in the pipes for DRAIN_MS at most), `done` (settled once: the exit is known and both
// pipes closed). A process's first line has the timeout plus STARTUP_ALLOWANCE_MS, until its first call starts;
// every later line has the timeout, and after the last expected line it has EXIT_GRACE_MS (or the timeout, if
// shorter) to exit. Once it has exited no timeout applies: only the drain bounds the wait.
//
// Memory: the same samples read the memory the process and everything it started hold together (process-table.ts's
// treeUsage); past the plan's memory the tree is ended as `memory`, whatever it was doing (RLIMIT_DATA bounds each
// process alone, and a sandbox may hold hundreds of them), processes started while the program loaded included.
//
// CPU: every CPU_SAMPLE_MS the adapter reads how much CPU time the process and everything it started have used
// (process-table.ts's treeUsage); a case whose processes, its own and any still running from before, use more than
// the budget (program-limits.ts) since it began is stopped as out of CPU time. A case begins with its first call
// (the process's loading is not the first case's) or, for a program that reports no calls, at the line before it.
//
// A server (the recorder's replay worker) is the same process given its work a line at a time: each `request`
// expects one more line within its own timeout, and between requests it waits, its stdin open, with no deadline.
// So a deadline missed, a line past its limit and a death are decided here for the grader's programs and the
// recorder's workers alike.
import type { InFlight, ProcessEnd } from './case-outcome.ts';
import { parseCallingLine, parseObservedLine } from './parse-result-line.ts';
import { appendTail, EMPTY_TAIL, tailText, type Tail } from './tail-buffer.ts';

// A result line longer than this is not a result: the process is killed rather than buffered without end.
export const MAX_RESULT_LINE_BYTES = 8 * 1024 * 1024;
// Characters of stderr (and stray stdout) kept per case.
const MAX_OUTPUT_CHARS = 64 * 1024;
// Added to the timeout of a process's first line until its first call starts: loading program.ts and compiling the
// student's code takes under a second on an idle machine but several on a busy one, and that is not the case's fault.
export const STARTUP_ALLOWANCE_MS = 10_000;
// After the last expected line, how long the process may take to exit before it is killed.
export const EXIT_GRACE_MS = 2000;
// After the process exits, how long to wait for output still in the pipes (a child that left the process
// group could hold them open forever).
export const DRAIN_MS = 500;
const MIB = 1024 * 1024;
// How often the CPU time and memory of the process's tree are read: a budget is overrun by at most this times the
// cores, and memory past the limit is held this long at most.
export const CPU_SAMPLE_MS = 250;

// One result line: its 0-based position, its text, what the program printed to stderr before it, and how long
// after the previous one (or the start) it came.
export type ProgramLine = { index: number; text: string; output: string; durationMs: number };

// How the process ended: as the outcome the case in flight gets, or `stopped` by the grader (the batch said stop,
// or the run was aborted), which is no case's outcome: whoever stopped it knows why.
export type ProgramEnd = ProcessEnd | { kind: 'stopped' };

// The end, how many result lines arrived, the output after the last of them, the call in flight (when a progress
// line came after the last result line), whether the process printed progress lines at all (a program.ts older
// than the grader prints none), and a warning when something of the process's temp space could not be removed.
export type ProgramResult = {
  end: ProgramEnd;
  lines: number;
  output: string;
  durationMs: number;
  calling?: InFlight;
  reportsCalls: boolean;
  warning?: string;
};

// What the machine is told at the start: how many cases the process was given, the per-case timeout, the CPU time
// a case's processes may use together (none: no budget, and the tree is never sampled), and how its output shows
// the host paths it may print (its TMPDIR as $TMPDIR: the path means nothing to a student and differs on every run). `serves`: a server,
// whose lines are asked for by `request` events (`cases` is then 0) and which is never expected to exit;
// `maxLineBytes`: the longest line it may print (MAX_RESULT_LINE_BYTES when absent).
// A host path the output may show, and what is shown instead: a TMPDIR's `$TMPDIR`, a staged copy's submission path.
export type Spelling = { path: string; shown: string };

export type ProgramPlan = {
  cases: number;
  timeoutMs: number;
  cpuMs?: number;
  // The memory the process's tree may hold at once (read with the CPU samples): past it, the tree is ended.
  memoryMiB?: number;
  spellings: Spelling[];
  serves?: boolean;
  maxLineBytes?: number;
};

// `sample`: time to read the tree's CPU time (the adapter answers with a `cpu` event).
export type ProgramTimer = 'deadline' | 'drain' | 'sample';
export type ProgramStream = 'stdout' | 'stderr';

export type ProgramState = {
  phase: 'running' | 'stopping' | 'draining' | 'done';
  plan: ProgramPlan;
  // Result lines so far, and when the last came (or the process started, or a server's request came).
  lines: number;
  since: number;
  // The timeout of each line still expected, in order: the plan's cases, then each request.
  pending: number[];
  // The call in flight: the last progress line since the last result line, and when it came.
  calling: { call: number; at: number } | undefined;
  reportsCalls: boolean;
  // What the deadline timer was last armed with: the limit a timeout reports.
  deadlineMs: number;
  // The tree's CPU time (ms) at the last sample, and when the case in flight began.
  cpuNow: number;
  cpuBase: number;
  // When the process was stopped or exited, whichever came first: a call in flight ran until then.
  endedAt: number | undefined;
  // Why the grader stopped it; the first reason wins.
  end: ProgramEnd | undefined;
  // How it exited (or failed to spawn).
  exit: ProcessEnd | undefined;
  open: ProgramStream[];
  // Stderr and stray stdout since the last result line.
  output: Tail;
};

// Every event carries its time (performance.now()), so durations are part of the table.
export type ProgramEvent =
  | { type: 'line'; text: string; at: number } // a stdout line (the last one may lack its newline)
  // The unfinished stdout line is past MAX_RESULT_LINE_BYTES, or the channel carried more than `channelBytes` in all,
  // or its messages more than `channelValues` JSON values, or one of its connections left `channelUnread` bytes of
  // answers unread.
  | { type: 'overflow'; at: number; channelBytes?: number; channelValues?: number; channelUnread?: number }
  | { type: 'stderr'; text: string; at: number }
  | { type: 'closed'; stream: ProgramStream; at: number }
  | { type: 'exit'; code: number | null; signal: string | null; at: number }
  | { type: 'spawn-failed'; message: string; at: number }
  | { type: 'timer'; timer: ProgramTimer; at: number }
  | { type: 'cpu'; usedMs: number; heldBytes?: number; at: number } // the tree's CPU time so far, its memory now
  | { type: 'request'; timeoutMs: number; at: number } // a server was given one more line of work
  | { type: 'stop'; at: number }; // the batch said stop, or the run was aborted

// What run-program.ts does, in order. `arm` replaces a timer of that name. `deliver` is always an event's last
// effect: the batch's answer to it (stop or go on) is the next event, before any other.
export type ProgramEffect =
  | { type: 'arm'; timer: ProgramTimer; ms: number }
  | { type: 'disarm'; timer: ProgramTimer }
  | { type: 'kill' }
  | { type: 'deliver'; line: ProgramLine }
  | { type: 'observe'; observed: unknown }
  | { type: 'settle'; result: ProgramResult };

type Step = [ProgramState, ProgramEffect[]];

// The state of a process just started at `at`, and its first deadline (a server has none until its first request).
export function startProgram(plan: ProgramPlan, at: number): Step {
  const pending = Array.from({ length: plan.cases }, () => plan.timeoutMs);
  const deadlineMs = (pending[0] ?? 0) + STARTUP_ALLOWANCE_MS;
  const state: ProgramState = {
    phase: 'running',
    plan,
    lines: 0,
    since: at,
    pending,
    calling: undefined,
    reportsCalls: false,
    deadlineMs,
    cpuNow: 0,
    cpuBase: 0,
    endedAt: undefined,
    end: undefined,
    exit: undefined,
    open: ['stdout', 'stderr'],
    output: EMPTY_TAIL,
  };
  const deadline: ProgramEffect[] = pending.length > 0 ? [{ type: 'arm', timer: 'deadline', ms: deadlineMs }] : [];
  return [state, [...deadline, ...sampling(plan)]];
}

// The next CPU sample, when the process has a budget.
function sampling(plan: ProgramPlan): ProgramEffect[] {
  return plan.cpuMs === undefined ? [] : [{ type: 'arm', timer: 'sample', ms: CPU_SAMPLE_MS }];
}

// Whether stdout is still graded: once the process is being stopped it is read and dropped.
export function takesLines(state: ProgramState): boolean {
  return state.phase !== 'done' && state.end === undefined;
}

// The next state and what to do, for one event.
export function step(state: ProgramState, event: ProgramEvent): Step {
  if (state.phase === 'done') return [state, []];
  switch (event.type) {
    case 'line':
      return takesLines(state) ? onLine(state, event.text, event.at) : [state, []];
    case 'overflow':
      return takesLines(state)
        ? stopFor(
            state,
            event.channelValues !== undefined
              ? { kind: 'overflow', limitValues: event.channelValues, channel: true }
              : event.channelUnread !== undefined
                ? { kind: 'overflow', limitUnread: event.channelUnread, channel: true }
                : event.channelBytes !== undefined
                  ? { kind: 'overflow', limitBytes: event.channelBytes, channel: true }
                  : { kind: 'overflow', limitBytes: state.plan.maxLineBytes ?? MAX_RESULT_LINE_BYTES },
            event.at,
          )
        : [state, []];
    case 'stderr':
      return [{ ...state, output: appendTail(state.output, event.text, MAX_OUTPUT_CHARS) }, []];
    case 'closed':
      return settleIfOver({ ...state, open: state.open.filter((s) => s !== event.stream) }, event.at, []);
    case 'exit':
      return onExit(state, { kind: 'exited', code: event.code, signal: event.signal }, event.at);
    case 'spawn-failed': {
      const failed: ProcessEnd = { kind: 'spawn-failed', message: event.message };
      return settleIfOver({ ...state, end: state.end ?? failed, exit: failed, open: [] }, event.at, []);
    }
    case 'timer':
      if (event.timer === 'deadline') {
        if (state.phase !== 'running') return [state, []];
        return stopFor(state, { kind: 'timeout', timeoutMs: state.deadlineMs }, event.at);
      }
      return state.phase === 'draining' ? settleIfOver({ ...state, open: [] }, event.at, []) : [state, []];
    case 'cpu':
      return onCpu(state, event.usedMs, event.heldBytes, event.at);
    case 'request':
      return onRequest(state, event.timeoutMs, event.at);
    case 'stop':
      return stopFor(state, { kind: 'stopped' }, event.at);
  }
}

// A sample of the tree's CPU time: past the budget since the case began, the case is out of it; else sample again.
function onCpu(state: ProgramState, usedMs: number, heldBytes: number | undefined, at: number): Step {
  const budget = state.plan.cpuMs;
  if (state.phase !== 'running' || budget === undefined) return [state, []];
  const next = { ...state, cpuNow: Math.max(state.cpuNow, usedMs) };
  const memoryMiB = state.plan.memoryMiB;
  if (memoryMiB !== undefined && heldBytes !== undefined && heldBytes > memoryMiB * MIB)
    return stopFor(next, { kind: 'memory', memoryMiB, heldMiB: Math.round(heldBytes / MIB) }, at);
  if (next.cpuNow - next.cpuBase > budget) return stopFor(next, { kind: 'cpu', cpuMs: budget }, at);
  return [next, sampling(state.plan)];
}

// A server's next line of work: it waits its turn behind any still in flight; asked of an idle server, its clock
// (and its CPU budget) starts now, the first with the startup allowance. A server being stopped takes none: its
// end is the answer.
function onRequest(state: ProgramState, timeoutMs: number, at: number): Step {
  if (!takesLines(state) || state.exit !== undefined) return [state, []];
  const pending = [...state.pending, timeoutMs];
  if (state.pending.length > 0) return [{ ...state, pending }, []];
  const deadlineMs = timeoutMs + (state.lines === 0 && !state.reportsCalls ? STARTUP_ALLOWANCE_MS : 0);
  const next: ProgramState = { ...state, pending, since: at, cpuBase: state.cpuNow, deadlineMs };
  return [next, [{ type: 'arm', timer: 'deadline', ms: deadlineMs }]];
}

function onLine(state: ProgramState, text: string, at: number): Step {
  const [timeoutMs, ...after] = state.pending;
  if (timeoutMs === undefined) {
    // The probe's observation (program.ts's probe mode), handed on; any other stray stdout is shown, not graded.
    const observed = parseObservedLine(text);
    if (observed !== undefined) return [state, [{ type: 'observe', observed: observed.observed }]];
    return [{ ...state, output: appendTail(state.output, `${text}\n`, MAX_OUTPUT_CHARS) }, []];
  }
  const running = state.phase === 'running';
  const call = parseCallingLine(text);
  if (call !== undefined) {
    const calling = { call, at };
    // Loaded, and into its first case: from here on the process's clock is that case's alone, its time too (a
    // case run alone would otherwise carry the process's start-up in its time).
    if (running && !state.reportsCalls && state.lines === 0) {
      const next = { ...state, reportsCalls: true, calling, deadlineMs: timeoutMs, cpuBase: state.cpuNow, since: at };
      return [next, [{ type: 'arm', timer: 'deadline', ms: timeoutMs }]];
    }
    return [{ ...state, reportsCalls: true, calling }, []];
  }
  const line: ProgramLine = { index: state.lines, text, output: taken(state), durationMs: at - state.since };
  const next: ProgramState = {
    ...state,
    lines: state.lines + 1,
    pending: after,
    since: at,
    calling: undefined,
    output: EMPTY_TAIL,
    cpuBase: state.cpuNow,
  };
  if (!running) return [next, [{ type: 'deliver', line }]];
  // An idle server waits for its next request with no deadline; a process given all its work has to exit.
  if (after[0] === undefined && state.plan.serves === true)
    return [
      next,
      [
        { type: 'disarm', timer: 'deadline' },
        { type: 'deliver', line },
      ],
    ];
  const limit = after[0] ?? Math.min(timeoutMs, EXIT_GRACE_MS);
  return [
    { ...next, deadlineMs: limit },
    [
      { type: 'arm', timer: 'deadline', ms: limit },
      { type: 'deliver', line },
    ],
  ];
}

function onExit(state: ProgramState, exit: ProcessEnd, at: number): Step {
  if (state.exit !== undefined) return [state, []];
  const exited: ProgramState = { ...state, phase: 'draining', exit, endedAt: state.endedAt ?? at };
  // Whatever it left running goes with it.
  const effects: ProgramEffect[] = [
    { type: 'disarm', timer: 'deadline' },
    { type: 'disarm', timer: 'sample' },
    { type: 'kill' },
  ];
  if (exited.open.length === 0) return settleIfOver(exited, at, effects);
  return [exited, [...effects, { type: 'arm', timer: 'drain', ms: DRAIN_MS }]];
}

function stopFor(state: ProgramState, why: ProgramEnd, at: number): Step {
  if (state.end !== undefined) return [state, []];
  const next: ProgramState = {
    ...state,
    phase: state.exit === undefined ? 'stopping' : 'draining',
    end: why,
    endedAt: state.endedAt ?? at,
  };
  return [next, [{ type: 'disarm', timer: 'deadline' }, { type: 'disarm', timer: 'sample' }, { type: 'kill' }]];
}

// Settles once the exit is known and both pipes are closed (or the drain gave up on them).
function settleIfOver(state: ProgramState, at: number, effects: ProgramEffect[]): Step {
  if (state.exit === undefined || state.open.length > 0) return [state, effects];
  const calling = state.calling;
  const result: ProgramResult = {
    end: state.end ?? state.exit,
    lines: state.lines,
    output: taken(state),
    durationMs: at - state.since,
    reportsCalls: state.reportsCalls,
    ...(calling === undefined ? {} : { calling: { call: calling.call, ms: (state.endedAt ?? at) - calling.at } }),
  };
  const done: ProgramState = { ...state, phase: 'done', output: EMPTY_TAIL };
  return [
    done,
    [...effects, { type: 'disarm', timer: 'deadline' }, { type: 'disarm', timer: 'drain' }, { type: 'settle', result }],
  ];
}

// The output since the last result line, its host paths spelled as the plan says.
function taken(state: ProgramState): string {
  return state.plan.spellings.reduce((text, p) => text.split(p.path).join(p.shown), tailText(state.output));
}

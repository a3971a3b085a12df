// One batch of cases in one program process: the startup probe first (when the pool asks), then each case's
// result line as it arrives. The case in flight when the process crashes, hangs or prints garbage gets that outcome
// and the rest of the batch goes back to the pool. A case still running after RELEASE_AFTER_MS hands the rest back
// at once: its process goes on with that case alone, until its line or its timeout, while the rest runs elsewhere.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseResultLine } from './parse-result-line.ts';
import { MAX_LINE_BYTES, runProgram, type InFlight, type ProgramResult, type ProgramRun } from './run-program.ts';

// A case as the pool knows it: a name to report and the case file whose object program.ts is given.
export type BatchCase = { name: string; file: string };

// What the program did with one case. `beforeAnyCase`: the process failed before its first case (it does not
// load, or prints something else first), so every case of its batch gets the same outcome. `calling`: the call
// the case was making when its process timed out or died, or 'none' when the program reports its calls and none
// of this case's had started (absent when it is not known: a program.ts that reports no calls).
export type CaseOutcome = (
  | { kind: 'results'; results: unknown[] }
  | { kind: 'bad-line'; reason: string }
  | { kind: 'exited'; code: number | null; signal: string | null }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'overflow'; limitBytes: number }
  | { kind: 'spawn-failed'; message: string }
) & { beforeAnyCase?: boolean; calling?: InFlight | 'none' };

// One case's outcome, its share of the output, and whether something ran before it in the same process.
export type CaseRun = { name: string; outcome: CaseOutcome; output: string; durationMs: number; shared: boolean };

// How long a case may run before the rest of its batch is handed back to run in another process.
export const RELEASE_AFTER_MS = 500;

// What a batch needs from its pool: how to run a process, who hears each case, and the pool's say on starting
// and on handing work back.
export type BatchContext = {
  run: Omit<ProgramRun, 'cases' | 'onLine'>;
  // Whether the process runs the startup probe first.
  probe: boolean;
  // What the probe asks program.ts's probe mode to observe (carried by the first line the process is given: the
  // startup probe, or a run's only case), and who hears what it observed (printed after the last result line).
  observe?: unknown;
  onObserved?: (observed: unknown) => void;
  onCase: (run: CaseRun) => void;
  onWarning: (warning: string) => void;
  // The process got through the probe (or, without one, printed a result line): the program loads.
  onLoaded: () => void;
  // Whether the rest of the batch may be handed back now (the pool bounds the processes left finishing a case).
  mayRelease: () => boolean;
};

// How a batch ended: its process is gone (`rest`: the cases after one that broke it, to run again); or it handed
// `rest` back while a slow case goes on (`lingering` settles once that case is reported and the process gone);
// or the program failed before its first case and nothing of the batch ran (`outcome` is every case's).
export type BatchEnd =
  | { kind: 'ran'; rest: BatchCase[] }
  | { kind: 'released'; rest: BatchCase[]; lingering: Promise<void> }
  | { kind: 'not-started'; outcome: CaseOutcome; output: string };

// A case with no calls, run first in a process that grades several cases or that is one of several: until its
// result line arrives nothing graded has run, so a failure before it is the program's, not any one case's.
const STARTUP_PROBE = fileURLToPath(new URL('./startup-probe.json', import.meta.url));

// Runs the batch; resolves when its process is gone, or as soon as it hands its rest back.
export async function runBatch(batch: BatchCase[], ctx: BatchContext): Promise<BatchEnd> {
  const probe = ctx.probe;
  const offset = probe ? 1 : 0;
  const cases = await Promise.all([...(probe ? [STARTUP_PROBE] : []), ...batch.map((c) => c.file)].map(caseLine));
  if (ctx.observe !== undefined) cases[0] = withObserve(cases[0]!, ctx.observe);
  let startupOutput = '';
  let startupFailure: string | undefined;
  let held: CaseRun | undefined;
  // The last case this process may report: lowered to the case in flight when the rest is handed back.
  let last = batch.length - 1;
  let released = false;
  let release: (end: BatchEnd) => void = () => {};
  const handedBack = new Promise<BatchEnd>((resolve) => (release = resolve));
  let timer: NodeJS.Timeout | undefined;
  const delay = Math.min(RELEASE_AFTER_MS, ctx.run.timeoutMs / 2);
  // Case k is in flight from now: if it is still running after `delay`, the cases after it go back to the pool.
  const watch = (k: number): void => {
    clearTimeout(timer);
    if (k >= last) return;
    const tryRelease = (): void => {
      if (!ctx.mayRelease()) {
        timer = setTimeout(tryRelease, delay / 4);
        return;
      }
      last = k;
      released = true;
      release({ kind: 'released', rest: batch.slice(k + 1), lingering: finished.then(() => {}) });
    };
    timer = setTimeout(tryRelease, delay);
  };

  const settle = (result: ProgramResult): BatchEnd => {
    clearTimeout(timer);
    if (result.warning !== undefined) ctx.onWarning(result.warning);
    const judged = Math.max(0, result.lines - offset);
    if (held !== undefined) {
      ctx.onCase({ ...held, output: held.output + result.output });
      return { kind: 'ran', rest: [] };
    }
    if (ctx.run.signal?.aborted === true) return { kind: 'ran', rest: [] };
    if (startupFailure !== undefined || (probe && result.lines === 0) || result.end.kind === 'spawn-failed') {
      const outcome: CaseOutcome =
        startupFailure !== undefined ? { kind: 'bad-line', reason: startupFailure } : endOutcome(result, false);
      return {
        kind: 'not-started',
        outcome: { ...outcome, beforeAnyCase: true },
        output: startupOutput + result.output,
      };
    }
    const after = (k: number): BatchCase[] => (released ? [] : batch.slice(k));
    if (result.end.kind === 'stopped') return { kind: 'ran', rest: after(judged) }; // a bad line: its case is judged
    const inFlight = batch[judged];
    if (inFlight === undefined || judged > last) return { kind: 'ran', rest: [] };
    const output = (judged === 0 ? startupOutput : '') + result.output;
    ctx.onCase({
      name: inFlight.name,
      outcome: endOutcome(result, true),
      output,
      durationMs: result.durationMs,
      shared: probe,
    });
    return { kind: 'ran', rest: after(judged + 1) };
  };

  const finished = runProgram({
    ...ctx.run,
    cases,
    ...(ctx.onObserved === undefined ? {} : { onObserved: ctx.onObserved }),
    onLine: (line) => {
      const parsed = parseResultLine(line.text);
      if (probe && line.index === 0) {
        // Output printed while loading belongs to the first case, as it would without the probe.
        startupOutput = line.output;
        if (!parsed.ok) {
          startupFailure = parsed.reason;
          return 'stop';
        }
        ctx.onLoaded();
        watch(0);
        return 'continue';
      }
      const k = line.index - offset;
      if (parsed.ok) ctx.onLoaded();
      const outcome: CaseOutcome = parsed.ok
        ? { kind: 'results', results: parsed.results }
        : { kind: 'bad-line', reason: parsed.reason };
      const output = (k === 0 ? startupOutput : '') + line.output;
      const run = { name: batch[k]!.name, outcome, output, durationMs: line.durationMs, shared: probe };
      watch(k + 1);
      // The last case waits for the exit: what the program prints after its last line is that case's too. A
      // process that handed its rest back is stopped there; the last of the whole batch exits on its own.
      if (k === last) held = run;
      else ctx.onCase(run);
      return !parsed.ok || (k === last && k < batch.length - 1) ? 'stop' : 'continue';
    },
  }).then(settle);
  return Promise.race([finished, handedBack]);
}

// A case file as the one line program.ts reads from stdin. JSON allows a line break only between tokens, so
// a file that is not JSON goes on one line too, and program.ts says what is wrong with it (the grader's own
// validation reports it as well, and stops the run).
async function caseLine(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch((error: Error) => `(cannot read ${file}: ${error.message})`);
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text.replace(/[\r\n]+/g, ' ');
  }
}

// The first line of a process with the probe's request in it (a line that is not a JSON object goes as it is).
function withObserve(line: string, observe: unknown): string {
  try {
    const value: unknown = JSON.parse(line);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return line;
    return JSON.stringify({ ...value, observe });
  } catch {
    return line;
  }
}

// The outcome of the case in flight when the process ended (`inCase`), or of a process that never got to one.
function endOutcome(result: ProgramResult, inCase: boolean): CaseOutcome {
  const end = result.end;
  const inFlight: CaseOutcome['calling'] = result.calling ?? (result.reportsCalls ? 'none' : undefined);
  const calling = inCase && inFlight !== undefined ? { calling: inFlight } : {};
  switch (end.kind) {
    case 'exited':
      return { kind: 'exited', code: end.code, signal: end.signal, ...calling };
    case 'timeout':
      return { kind: 'timeout', timeoutMs: end.limitMs, ...calling };
    case 'overflow':
      return { kind: 'overflow', limitBytes: MAX_LINE_BYTES };
    case 'spawn-failed':
      return { kind: 'spawn-failed', message: end.message };
    case 'stopped':
      return { kind: 'exited', code: null, signal: 'SIGKILL' };
  }
}

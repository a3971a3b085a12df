// Runs one batch of cases in one program process: the startup probe first (when the pool asks), then each case's
// result line as it arrives. What each line, the release timer and the process's end mean for the batch is
// batch-machine.ts's to decide; this file reads the case files, starts the process (run-program.ts), keeps the
// release timer and tells the pool.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startBatch, step, type BatchCase, type BatchEffect, type BatchEnd, type CaseRun } from './batch-machine.ts';
import { driveMachine } from './drive-machine.ts';
import { runProgram, type ProgramRun } from './run-program.ts';

export type { BatchCase, CaseRun };

// The cases to run in one process, and the course directory they run in.
type Batch = { dir: string; cases: BatchCase[] };

// What a batch needs from its pool: how to run a process, who hears each case, and the pool's say on starting
// and on handing work back.
export type BatchContext = {
  run: Omit<ProgramRun, 'dir' | 'cases' | 'onLine'>;
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

// A case with no calls, run first in a process that grades several cases or that is one of several: until its
// result line arrives nothing graded has run, so a failure before it is the program's, not any one case's.
const STARTUP_PROBE = fileURLToPath(new URL('./startup-probe.json', import.meta.url));

// Runs the batch; resolves when its process is gone, or as soon as it hands its rest back.
export async function runBatch(batch: Batch, ctx: BatchContext): Promise<BatchEnd> {
  const files = [...(ctx.probe ? [STARTUP_PROBE] : []), ...batch.cases.map((c) => c.file)];
  const lines = files.map(caseLine);
  if (ctx.observe !== undefined && lines[0] !== undefined) lines[0] = withObserve(lines[0], ctx.observe);
  const signal = ctx.run.signal;
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    // Whether the machine's answer to the line just given is to stop the process.
    let stop = false;
    const perform = (effect: BatchEffect): void => {
      switch (effect.type) {
        case 'loaded':
          return ctx.onLoaded();
        case 'arm-release':
          clearTimeout(timer);
          timer = setTimeout(() => machine.dispatch({ type: 'release-due', allowed: ctx.mayRelease() }), effect.ms);
          return;
        case 'disarm-release':
          return clearTimeout(timer);
        case 'report':
          return ctx.onCase(effect.run);
        case 'stop':
          stop = true;
          return;
        case 'hand-back':
          return resolve({ kind: 'released', rest: effect.rest, lingering: program });
        case 'warn':
          return ctx.onWarning(effect.warning);
        case 'finish':
          return resolve(effect.end);
      }
    };
    const machine = driveMachine(
      startBatch({ cases: batch.cases, probe: ctx.probe, timeoutMs: ctx.run.timeoutMs }),
      step,
      perform,
    );
    const onAbort = (): void => machine.dispatch({ type: 'abort' });
    if (signal?.aborted === true) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const program: Promise<void> = runProgram({
      ...ctx.run,
      dir: batch.dir,
      cases: lines,
      ...(ctx.onObserved === undefined ? {} : { onObserved: ctx.onObserved }),
      onLine: (line) => {
        stop = false;
        machine.dispatch({ type: 'line', line });
        return stop ? 'stop' : 'continue';
      },
    }).then((result) => {
      signal?.removeEventListener('abort', onAbort);
      machine.dispatch({ type: 'ended', result });
    });
  });
}

// A case file as the one line program.ts reads from stdin. JSON allows a line break only between tokens, so
// a file that is not JSON goes on one line too, and program.ts says what is wrong with it (the grader's own
// validation reports it as well, and stops the run). Read synchronously: a case file is small, and the process
// waits for all of its batch's; read through the thread pool, they queued behind the validation's and the
// snapshots' reads, which start at the same time (about 30 ms before a standby had its work, for 60 files).
function caseLine(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    text = `(cannot read ${file}: ${(error as Error).message})`;
  }
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

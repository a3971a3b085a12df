// Runs one program process: `node --import <tsx> program.ts dispatch <case files…>` in the course directory,
// reading result lines as they stream. The process gets its own process group (so it is killed with every
// child it started) and its own TMPDIR (so whatever it leaves there is removed with it).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { pathToFileURL } from 'node:url';
import { LineSplitter } from './line-splitter.ts';
import { trackGroup, untrackDir } from './live-groups.ts';
import { removeTree } from './remove-tree.ts';
import { TailBuffer } from './tail-buffer.ts';

// A result line longer than this is not a result: the process is killed rather than buffered without end.
export const MAX_LINE_BYTES = 8 * 1024 * 1024;
// Characters of stderr (and stray stdout) kept per case.
export const MAX_OUTPUT_CHARS = 64 * 1024;
// Added to the timeout of a process's first line: loading program.ts and compiling the student's code takes
// under a second on an idle machine but several on a busy one, and that is not the case's fault.
export const STARTUP_ALLOWANCE_MS = 10_000;
// After the last expected line, how long the process may take to exit before it is killed.
const EXIT_GRACE_MS = 2000;
// After the process exits, how long to wait for output still in the pipes (a child that left the process
// group could hold them open forever).
const DRAIN_MS = 500;

// One result line: its 0-based position, its text, and what the program printed to stderr before it.
export type ProgramLine = { index: number; text: string; output: string; durationMs: number };

// How the process ended.
export type ProgramEnd =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timeout' } // no line for timeoutMs (or no exit after the last line)
  | { kind: 'overflow' } // a line past MAX_LINE_BYTES
  | { kind: 'stopped' } // onLine said stop, or the run was aborted
  | { kind: 'spawn-failed'; message: string };

// The end, how many lines arrived, and the output after the last of them.
export type ProgramResult = { end: ProgramEnd; lines: number; output: string; durationMs: number };

// One process to run: the course dir, its case files, the per-case timeout, and who hears each line.
export type ProgramRun = {
  dir: string;
  caseFiles: string[];
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onLine: (line: ProgramLine) => 'continue' | 'stop';
};

// The file URL of the package's own tsx ESM loader: a student's directory needs no tsx of its own.
export function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
}

// Runs the program on the case files; settles once the process and its group are dead and its temp dir gone.
export async function runProgram(run: ProgramRun): Promise<ProgramResult> {
  const runDir = await mkdtemp(join(tmpdir(), 'theinference-run-'));
  try {
    const tmp = join(runDir, 'tmp');
    await mkdir(tmp);
    return await watchProcess(run, tmp, [await realpath(tmp), tmp], (pid) => trackGroup(pid, runDir));
  } finally {
    untrackDir(runDir);
    await removeTree(runDir);
  }
}

function watchProcess(
  run: ProgramRun,
  tmp: string,
  tmpSpellings: string[],
  started: (pid: number) => void,
): Promise<ProgramResult> {
  return new Promise((resolve) => {
    const args = ['--import', tsxLoaderUrl(), 'program.ts', 'dispatch', ...run.caseFiles];
    const child = spawn(process.execPath, args, {
      cwd: run.dir,
      // tsx would cache compiled files in TMPDIR, which is removed when the process ends: not worth writing.
      env: { ...run.env, TMPDIR: tmp, TSX_DISABLE_CACHE: '1' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) started(child.pid);
    const output = new TailBuffer(MAX_OUTPUT_CHARS);
    const decoder = new StringDecoder('utf8');
    const splitter = new LineSplitter(MAX_LINE_BYTES);
    let lines = 0;
    let since = performance.now();
    let end: ProgramEnd | undefined;
    let exit: ProgramEnd | undefined;
    let open = 2;
    let timer: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let settled = false;

    // The temp dir's path means nothing to a student and differs on every run.
    const take = (): string => tmpSpellings.reduce((text, p) => text.split(p).join('$TMPDIR'), output.take());
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => stop({ kind: 'timeout' }), ms);
    };
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const finish = (): void => {
      if (settled || exit === undefined || open > 0) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      run.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const durationMs = performance.now() - since;
      resolve({ end: end ?? exit, lines, output: take(), durationMs });
    };
    const stop = (why: ProgramEnd): void => {
      end ??= why;
      clearTimeout(timer);
      killGroup();
    };
    const onAbort = (): void => stop({ kind: 'stopped' });

    const onLine = (text: string): void => {
      if (lines >= run.caseFiles.length) {
        output.push(`${text}\n`); // stray stdout after the last case: shown, not graded
        return;
      }
      const now = performance.now();
      const line = { index: lines, text, output: take(), durationMs: now - since };
      since = now;
      lines += 1;
      arm(lines === run.caseFiles.length ? Math.min(run.timeoutMs, EXIT_GRACE_MS) : run.timeoutMs);
      if (run.onLine(line) === 'stop') stop({ kind: 'stopped' });
    };

    // Once the process is being stopped its stdout is read and dropped: nothing more is graded.
    child.stdout?.on('data', (chunk: Buffer) => {
      if (end !== undefined) return;
      const { lines: complete, overflow } = splitter.push(chunk);
      for (const text of complete) if (end === undefined) onLine(text);
      if (overflow) stop({ kind: 'overflow' });
    });
    // Stderr is attributed by arrival: what came in before line k (and after line k-1) is case k's.
    child.stderr?.on('data', (chunk: Buffer) => output.push(decoder.write(chunk)));
    child.stdout?.on('end', () => {
      const last = splitter.flush();
      if (end === undefined && last !== undefined) onLine(last);
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('close', () => {
        open -= 1;
        finish();
      });
    }
    child.on('error', (error) => {
      if (child.pid !== undefined) return; // a kill that failed; 'exit' still comes
      end ??= { kind: 'spawn-failed', message: error.message };
      exit = end;
      open = 0;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { kind: 'exited', code, signal };
      // Whatever it left running in its group goes with it.
      killGroup();
      drain = setTimeout(() => {
        open = 0;
        finish();
      }, DRAIN_MS);
      finish();
    });
    if (run.signal?.aborted) stop({ kind: 'stopped' });
    run.signal?.addEventListener('abort', onAbort, { once: true });
    arm(run.timeoutMs + STARTUP_ALLOWANCE_MS);
  });
}

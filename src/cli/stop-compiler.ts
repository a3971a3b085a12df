// tsx compiles through esbuild's service: a child process that tsx starts in the thread running its module hooks,
// and that esbuild unrefs, so Node exits without waiting for it. The child then outlives the grader for a moment
// and is handed to the system's init as a zombie (`<defunct>`), which a container's or a VM's init may never reap.
// So before it exits, the grader stops every esbuild child of its own and waits until the thread that started it
// has reaped it. A grader that compiled nothing (its compiled CLI, or tsx's cache) has no such child.
import { setTimeout as sleep } from 'node:timers/promises';
import { childrenOf, readStat } from '../process-table.ts';

// The service's command name, as /proc/<pid>/stat shows it.
const COMPILER = 'esbuild';
// A stopped service is reaped within milliseconds; past this, the grader exits anyway.
const REAPED_WITHIN_MS = 1000;

// Stops the compiler services this process started; resolves once they are reaped (or the wait has run out).
export async function stopCompiler(): Promise<void> {
  const ours = (pid: number): boolean => readStat(pid)?.ppid === process.pid;
  const compilers = childrenOf(process.pid).filter((pid) => readStat(pid)?.name === COMPILER);
  for (const pid of compilers) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // Gone already: reaped between the listing and the kill.
    }
  }
  const until = performance.now() + REAPED_WITHIN_MS;
  while (compilers.some(ours) && performance.now() < until) await sleep(5);
}

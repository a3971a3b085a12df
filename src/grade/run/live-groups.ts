// The running program processes and the grader's temp dirs for them (a process's own, a staged copy of a
// submission, a command's tsx cache). Programs run detached (in a sandbox, or in process groups of their own), so a
// grader that dies of an uncaught error, or exits on a signal its run did not stop at once, would leave them: on exit it
// takes them down and removes the dirs, synchronously (an exit handler cannot wait). A clean run never needs this:
// each run kills its processes and removes its dirs. (A sandbox also dies with the grader on its own, killed or
// not: bwrap --die-with-parent.)
import { rmSync } from 'node:fs';

const LIVE = new Map<object, { kill: () => void; dir: string | undefined }>();
let hooked = false;

// Remembers a running program (by any key): how to kill it, and its temp dir on the host, if it has one.
export function holdUntilExit(key: object, kill: () => void, dir?: string): void {
  if (!hooked) {
    process.once('exit', killAll);
    hooked = true;
  }
  LIVE.set(key, { kill, dir });
}

// Forgets a program once it is dead and its dir removed.
export function releaseAtExit(key: object): void {
  LIVE.delete(key);
}

function killAll(): void {
  for (const { kill } of LIVE.values()) kill();
  for (const { dir } of LIVE.values()) {
    try {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Undeletable (an immutable file): left, as a run would leave it with a warning.
    }
  }
}

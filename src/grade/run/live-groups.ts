// The process groups of running programs and their temp dirs. Programs run detached (in groups of their own),
// so a grader that dies of an uncaught error would leave them running: on exit it takes them down, synchronously
// (an exit handler cannot wait). A clean run never needs this: each run kills its group and removes its dir.
import { rmSync } from 'node:fs';

const LIVE = new Map<number, string>();
let hooked = false;

// Remembers a running program's group (its leader's pid) and temp dir.
export function trackGroup(pid: number, dir: string): void {
  if (!hooked) {
    process.once('exit', killAll);
    hooked = true;
  }
  LIVE.set(pid, dir);
}

// Forgets the program whose temp dir is `dir`, once it is dead and its dir removed.
export function untrackDir(dir: string): void {
  for (const [pid, d] of LIVE) if (d === dir) LIVE.delete(pid);
}

function killAll(): void {
  for (const [pid, dir] of LIVE) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // ESRCH: already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

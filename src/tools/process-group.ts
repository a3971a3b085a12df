// Process groups of commands still running, killed if this process exits first so none outlives it.
const running = new Set<number>();
let hooked = false;

// Kills every process in the group led by `pid`; a group that is already gone is not an error.
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group.
  }
}

// Remembers a running group until `release`; an 'exit' hook kills the ones still remembered.
export function track(pid: number): void {
  running.add(pid);
  if (!hooked) {
    hooked = true;
    process.once('exit', () => running.forEach(killGroup));
  }
}

// Forgets a group whose command has finished.
export function release(pid: number): void {
  running.delete(pid);
}

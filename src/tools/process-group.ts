// Commands run in process groups of their own (so a command and all it started can be killed together), which
// also puts them out of reach of whoever stops this process. So while any runs, this process kills them on its
// way out: at exit, and on the signals that stop it by default. SIGKILL cannot be caught; a command outlives a
// SIGKILLed caller until it ends.
const running = new Set<number>();
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

// Kills every process in the group led by `pid`; a group that is already gone is not an error.
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left in the group.
  }
}

// Remembers a running group until `release`, killing it if this process exits or is stopped first.
export function track(pid: number): void {
  if (running.size === 0) {
    process.on('exit', killAll);
    for (const signal of SIGNALS) process.on(signal, onSignal);
  }
  running.add(pid);
}

// Forgets a group whose command has finished; the hooks go when the last one does.
export function release(pid: number): void {
  if (!running.delete(pid) || running.size > 0) return;
  process.off('exit', killAll);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function killAll(): void {
  running.forEach(killGroup);
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  [...running].forEach(release);
  // Our listener stopped the default action; with no other listener deciding, stop as the signal asked.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

// How long the grader's own event loop has stood still, in total, since this process started watching: the time in
// which no process's output could be heard. A deadline of a program process counts only the time in which the
// grader could have heard it (supervise-process.ts): in a class, one submission's channel traffic blocks the loop
// that serves every submission, and its classmates' deadlines must not pay for it. Hand-written: a tick and a sum
// (perf_hooks' monitorEventLoopDelay gives a histogram, not the total a deadline needs).

// How often the loop is sampled, and how late a tick must be to count: a busy loop's usual lateness is not a stall.
const TICK_MS = 50;
const STALL_FROM_MS = 40;

let total = 0;
let last: number | undefined;

function lateness(now: number): number {
  const late = last === undefined ? 0 : now - last - TICK_MS;
  return late > STALL_FROM_MS ? late : 0;
}

// Starts watching (once; the tick keeps no process alive), and gives the total so far, in ms, a stall still
// under way included.
export function stalledMs(): number {
  const now = performance.now();
  if (last === undefined) {
    last = now;
    setInterval(() => {
      const at = performance.now();
      total += lateness(at);
      last = at;
    }, TICK_MS).unref();
  }
  return total + lateness(now);
}

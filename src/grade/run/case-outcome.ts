// What the program did with one case: the one outcome type of the run core. A process that ends on its own (or is
// killed for a timeout or a flood) ends in one of these words, and the case in flight gets that very word; the
// judge (src/grade/judge/) turns it into a verdict.

// The call a case was making when its process ended: its number (from 1, as its progress line said) and how
// long it had been running.
export type InFlight = { call: number; ms: number };

// How a program process ended, said as the outcome of the case it was running.
export type ProcessEnd =
  | { kind: 'exited'; code: number | null; signal: string | null }
  | { kind: 'timeout'; timeoutMs: number } // no line within timeoutMs (or no exit after the last line)
  | { kind: 'overflow'; limitBytes: number; channel?: true } // a line past limitBytes (channel: its channel past it)
  | { kind: 'overflow'; limitValues: number; channel: true } // its channel's messages held more JSON values than that
  | { kind: 'overflow'; limitUnread: number; channel: true } // a connection of its channel left more of its answers unread
  | { kind: 'cpu'; cpuMs: number } // its processes used more than cpuMs of CPU time in one case
  | { kind: 'memory'; memoryMiB: number; heldMiB: number } // its processes held heldMiB together, past memoryMiB
  | { kind: 'spawn-failed'; message: string };

// One case's outcome: its results, a line that is not a result, or how its process ended. `beforeAnyCase`: the
// process failed before its first case (it does not load, or prints something else first), so every case of its
// batch gets the same outcome. `calling`: the call the case was making when its process timed out or died, or
// 'none' when the program reports its calls and none of this case's had started (absent when it is not known: a
// program.ts that reports no calls).
export type CaseOutcome = (
  | { kind: 'results'; results: unknown[] }
  | { kind: 'bad-line'; reason: string }
  | ProcessEnd
) & { beforeAnyCase?: boolean; calling?: InFlight | 'none' };

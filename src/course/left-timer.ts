// The record the driver gives in place of a call's result when the call returned but left a timer of its own
// running (src/modes/dispatch/left-timers.ts): `{ [LEFT_TIMER]: { kind, ms }, result }`. No ToolOutput has this
// key. Its own file, apart from the dispatcher contract (dispatcher-contract.ts): the driver needs this, and the
// sandbox shows the driver's files, where the contract's table (which names reach which method with which keys)
// would be the stage's answer for a program to borrow. Pure.

export const LEFT_TIMER = 'left_timer';

// That record's timer, or undefined for any other result.
export function leftTimerOf(received: unknown): { kind: string; ms: number } | undefined {
  if (received === null || typeof received !== 'object') return undefined;
  const left = (received as Record<string, unknown>)[LEFT_TIMER];
  if (left === null || typeof left !== 'object') return undefined;
  const { kind, ms } = left as Record<string, unknown>;
  return typeof kind === 'string' && typeof ms === 'number' ? { kind, ms } : undefined;
}

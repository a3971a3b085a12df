// Which timer a call leaves running once it has returned, watched in-process: only one it made, still pending and
// keeping the process alive; never one it cleared, one that fired, one unref()ed, nor one made outside a watched
// call, even by a call running at the same time.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { watchTimers } from '../../../src/modes/dispatch/left-timers.ts';
import { LEFT_TIMER_ROWS, made } from '../../support/left-timer-rows.ts';

test.each(LEFT_TIMER_ROWS)('%s: %j', async (_, call, left) => {
  const watched = await watchTimers(call);
  for (const t of made.splice(0)) clearTimeout(t);
  expect(watched.left).toEqual(left);
});

test("the call's value comes back as it returned it, and its throw as it threw it", async () => {
  expect((await watchTimers(async () => 42)).value).toBe(42);
  await expect(watchTimers(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
});

test('a timer made outside a watched call is none of its business, even while one runs', async () => {
  const running = watchTimers(async () => sleep(5));
  const outside = setTimeout(() => undefined, 10_000);
  const watched = await running;
  clearTimeout(outside);
  expect(watched.left).toBeUndefined();
  // Two calls at once each see only their own.
  const [a, b] = await Promise.all([
    watchTimers(async () => void made.push(setTimeout(() => undefined, 1_000))),
    watchTimers(async () => sleep(2)),
  ]);
  for (const t of made.splice(0)) clearTimeout(t);
  expect([a.left, b.left]).toEqual([{ kind: 'setTimeout', ms: 1_000 }, undefined]);
});

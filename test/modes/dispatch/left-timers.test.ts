// Which timer a call leaves running once it has returned: only one it made, still pending and keeping the process
// alive; never one it cleared, one that fired, one unref()ed, nor one made outside a watched call.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { watchTimers } from '../../../src/modes/dispatch/left-timers.ts';

const made: NodeJS.Timeout[] = [];
// Each timer a row leaves is cleared after it, so the suite's process ends on time.
const keep = (t: NodeJS.Timeout) => {
  made.push(t);
  return t;
};

test.each([
  [
    'a watchdog raced and never cleared',
    async () => {
      await Promise.race([Promise.resolve('ok'), new Promise((r) => keep(setTimeout(r, 10_000)))]);
    },
    { kind: 'setTimeout', ms: 10_000 },
  ],
  [
    'an interval never cleared',
    async () => void keep(setInterval(() => undefined, 500)),
    { kind: 'setInterval', ms: 500 },
  ],
  [
    'a timer made after an await',
    async () => {
      await Promise.resolve();
      keep(setTimeout(() => undefined, 2_000));
    },
    { kind: 'setTimeout', ms: 2_000 },
  ],
  [
    'a watchdog cleared in a finally',
    async () => {
      const t = setTimeout(() => undefined, 10_000);
      try {
        await Promise.resolve();
      } finally {
        clearTimeout(t);
      }
    },
    undefined,
  ],
  ['a timer cleared by its id', async () => clearTimeout(Number(setTimeout(() => undefined, 10_000))), undefined],
  ['a timer that fired before the call returned', async () => new Promise<void>((r) => setTimeout(r, 5)), undefined],
  ['an unref()ed timer', async () => void keep(setTimeout(() => undefined, 10_000).unref()), undefined],
  ['no timer', async () => undefined, undefined],
])('%s: %j', async (_, call, left) => {
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
    watchTimers(async () => void keep(setTimeout(() => undefined, 1_000))),
    watchTimers(async () => sleep(2)),
  ]);
  for (const t of made.splice(0)) clearTimeout(t);
  expect([a.left, b.left]).toEqual([{ kind: 'setTimeout', ms: 1_000 }, undefined]);
});

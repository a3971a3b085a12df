// Left timers as the driver's own process watches them (`oneCallAtATime`, left-timers.ts): the same verdicts as
// in-process, with no AsyncLocalStorage ever run, whose promise hooks would slow every await of the process. The
// switch is turned off after, for the test files that share this worker's process.
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, expect, test, vi } from 'vitest';
import { oneCallAtATime, watchTimers } from '../../../src/modes/dispatch/left-timers.ts';
import { LEFT_TIMER_ROWS, made } from '../../support/left-timer-rows.ts';

const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
oneCallAtATime();
afterAll(() => {
  oneCallAtATime(false);
  run.mockRestore();
});

test.each(LEFT_TIMER_ROWS)('%s: %j', async (_, call, left) => {
  const watched = await watchTimers(call);
  for (const t of made.splice(0)) clearTimeout(t);
  expect(watched.left).toEqual(left);
});

test('a timer made between calls is no call of its own', async () => {
  await watchTimers(async () => undefined);
  const between = setTimeout(() => undefined, 10_000);
  const watched = await watchTimers(async () => undefined);
  clearTimeout(between);
  expect(watched.left).toBeUndefined();
});

test("the call's throw comes back as it threw it, and the next call is watched afresh", async () => {
  await expect(watchTimers(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  const watched = await watchTimers(async () => void made.push(setTimeout(() => undefined, 3_000)));
  for (const t of made.splice(0)) clearTimeout(t);
  expect(watched.left).toEqual({ kind: 'setTimeout', ms: 3_000 });
});

// Last: after every call above.
test('no AsyncLocalStorage ran for any of the calls above', () => {
  expect(run).not.toHaveBeenCalled();
});

// The calls whose left timers both ways of watching (in-process and one call at a time, left-timers.ts) must tell
// alike: each row's call, and the timer it leaves (undefined: none). Timers a row leaves go into `made`, for the
// test to clear after it, so that the suite's process ends on time.
import type { LeftTimer } from '../../src/modes/dispatch/left-timers.ts';

export const made: NodeJS.Timeout[] = [];
const keep = (t: NodeJS.Timeout) => {
  made.push(t);
  return t;
};

export const LEFT_TIMER_ROWS: [string, () => Promise<unknown>, LeftTimer | undefined][] = [
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
];

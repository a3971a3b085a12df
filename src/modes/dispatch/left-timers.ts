// The timers a call of execute leaves running once it has returned: a watchdog raced against the call
// (`Promise.race([run(), new Promise((r) => setTimeout(r, 8000))])`) whose timer is never cleared keeps the agent's
// process alive long after the call, though every result is right and no call is slow. Driver code: it runs in the
// program process, beside the student's modules.
//
// Why the globals are wrapped rather than async_hooks: a hook's `destroy` is reported late (batched after the
// tick), so it cannot say whether a timer is still pending the moment the call returns; and an `init` hook slows
// every promise of the process. The wrappers do nothing outside a call they watch, so the driver's own timers and
// the grader's, in-process, are untouched.
//
// Which call a timer is made in: in the driver's own process (`oneCallAtATime`), the call in flight, since the
// driver makes one at a time and nothing else of its runs meanwhile. In-process (the audit grades several
// dispatchers at once), AsyncLocalStorage follows each call through its awaits; it is never started in a program
// process because, on Node 20, its promise hooks slow every await of the process once it has run (by 10-20 % on a
// loop of awaited fs calls: about 7 % of a dispatch case's CPU in-process).
import { AsyncLocalStorage } from 'node:async_hooks';

// A timer the call left: which function made it and its delay, as the call asked.
export type LeftTimer = { kind: 'setTimeout' | 'setInterval'; ms: number };

type Timer = { hasRef?: () => boolean };
type Live = Map<Timer, LeftTimer>;

const calls = new AsyncLocalStorage<Live>();
// The live set each watched timer is in, and a timer by its id (clearTimeout takes either).
const owners = new WeakMap<Timer, Live>();
const byId = new Map<number, Timer>();
let installed = false;
// The call in flight, when calls are made one at a time (`oneCallAtATime`); undefined meanwhile as between calls.
let alone: { live: Live | undefined } | undefined;

// Says that this process makes one watched call at a time and runs nothing else during one: timers are then the
// call's in flight, without AsyncLocalStorage. The driver says so before its first case; never in-process (`false`
// says it no longer holds, for a test sharing its process with others).
export function oneCallAtATime(holds = true): void {
  alone = holds ? (alone ?? { live: undefined }) : undefined;
}

// Runs one call, and says which timer it made is still pending and keeps the process alive when it has settled
// (an `unref()`ed one does not); its value or throw as the call gave it.
export async function watchTimers<T>(call: () => Promise<T>): Promise<{ value: T; left?: LeftTimer }> {
  install();
  const live: Live = new Map();
  let value: T;
  if (alone === undefined) value = await calls.run(live, call);
  else {
    alone.live = live;
    try {
      value = await call();
    } finally {
      alone.live = undefined;
    }
  }
  const left = [...live].find(([timer]) => timer.hasRef?.() !== false)?.[1];
  return left === undefined ? { value } : { value, left };
}

function install(): void {
  if (installed) return;
  installed = true;
  const g = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const kind of ['setTimeout', 'setInterval'] as const) {
    const original = g[kind]!;
    const wrapped = function (this: unknown, callback: unknown, ms?: unknown, ...rest: unknown[]) {
      const live = alone === undefined ? calls.getStore() : alone.live;
      if (live === undefined || typeof callback !== 'function') return original.call(this, callback, ms, ...rest);
      let timer: Timer;
      const fire = (...args: unknown[]) => {
        if (kind === 'setTimeout') forget(timer);
        return (callback as (...a: unknown[]) => unknown)(...args);
      };
      timer = original.call(this, fire, ms, ...rest) as Timer;
      live.set(timer, { kind, ms: Number(ms) || 0 });
      owners.set(timer, live);
      const id = Number(timer);
      if (Number.isFinite(id)) byId.set(id, timer);
      return timer;
    };
    // util.promisify(setTimeout) and the like read the original's own properties.
    Object.assign(wrapped, original);
    g[kind] = wrapped;
  }
  for (const kind of ['clearTimeout', 'clearInterval'] as const) {
    const original = g[kind]!;
    g[kind] = function (this: unknown, timer: unknown) {
      const known = typeof timer === 'object' && timer !== null ? (timer as Timer) : byId.get(Number(timer));
      if (known !== undefined) forget(known);
      return original.call(this, timer);
    };
  }
}

function forget(timer: Timer): void {
  owners.get(timer)?.delete(timer);
  owners.delete(timer);
  const id = Number(timer);
  if (Number.isFinite(id)) byId.delete(id);
}

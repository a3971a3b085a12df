import { describe, expect, it } from 'vitest';
import { debounce, type Timers } from '../../../src/cli/watch/debounce.ts';

// A clock the test moves by hand: timers fire in due order as `advanceTo` passes them.
function manualClock(): Timers & { now: () => number; advanceTo: (t: number) => void } {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { at: number; fire: () => void }>();
  return {
    now: () => now,
    setTimeout(fire, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, fire });
      return id;
    },
    clearTimeout(handle) {
      pending.delete(handle as number);
    },
    advanceTo(t) {
      for (;;) {
        const due = [...pending.entries()]
          .filter(([, p]) => p.at <= t)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
        const first = due[0];
        if (first === undefined) break;
        pending.delete(first[0]);
        now = first[1].at;
        first[1].fire();
      }
      now = t;
    },
  };
}

type Row = {
  name: string;
  // [time in ms, item pushed]
  events: Array<[number, string]>;
  // [time in ms the burst fired, its items]
  fires: Array<[number, string[]]>;
  cancelAt?: number;
};

const rows: Row[] = [
  { name: 'one event fires once after the quiet time', events: [[0, 'a']], fires: [[100, ['a']]] },
  {
    name: 'an atomic save (temp write, rename, change) is one burst naming each path once, first seen first',
    events: [
      [0, 'src/.execute.ts.swp'],
      [3, 'src/execute.ts'],
      [5, 'src/execute.ts'],
    ],
    fires: [[105, ['src/.execute.ts.swp', 'src/execute.ts']]],
  },
  {
    name: 'each event restarts the quiet time',
    events: [
      [0, 'a'],
      [90, 'b'],
      [180, 'c'],
    ],
    fires: [[280, ['a', 'b', 'c']]],
  },
  {
    name: 'events after a fire start a new burst',
    events: [
      [0, 'a'],
      [150, 'a'],
    ],
    fires: [
      [100, ['a']],
      [250, ['a']],
    ],
  },
  {
    name: 'a stream that never goes quiet still fires at the ceiling, then starts over',
    events: [
      [0, 'a'],
      [80, 'b'],
      [160, 'c'],
      [240, 'd'],
      [320, 'e'],
      [400, 'f'],
      [480, 'g'],
      [560, 'h'],
    ],
    fires: [
      [300, ['a', 'b', 'c', 'd']],
      [620, ['e', 'f', 'g', 'h']],
    ],
  },
  {
    name: 'cancel drops a pending burst',
    events: [
      [0, 'a'],
      [50, 'b'],
    ],
    cancelAt: 60,
    fires: [],
  },
];

describe('debounce', () => {
  it.each(rows)('$name', ({ events, fires, cancelAt }) => {
    const clock = manualClock();
    const fired: Array<[number, string[]]> = [];
    const d = debounce<string>({ waitMs: 100, maxWaitMs: 300 }, (items) => fired.push([clock.now(), items]), clock);
    const steps: Array<[number, () => void]> = events.map(([t, item]) => [t, () => d.push(item)]);
    if (cancelAt !== undefined) steps.push([cancelAt, () => d.cancel()]);
    steps.sort((a, b) => a[0] - b[0]);
    for (const [t, act] of steps) {
      clock.advanceTo(t);
      act();
    }
    clock.advanceTo(10_000);
    expect(fired).toEqual(fires);
  });
});

// Turns a burst of file events into one call. An editor's save is rarely one event: it writes a temp file,
// renames it over the original, sometimes chmods it, and a formatter on save writes again. Grading once per
// burst, with every path the burst touched, is what the student means by "I saved".

// The timer functions the debouncer needs; tests pass a manual clock instead of waiting.
export type Timers = {
  setTimeout: (fire: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

// What the debouncer holds: `push` an item, `cancel` drops a pending burst (on quit).
export type Debounced<T> = {
  push: (item: T) => void;
  cancel: () => void;
};

// How long a burst lasts.
export type DebounceOptions = {
  // Quiet time after the last event before the burst fires.
  waitMs: number;
  // A stream of events that never goes quiet (a build writing into src/) still fires this long after its
  // first event, so the loop cannot be starved.
  maxWaitMs: number;
};

const realTimers: Timers = {
  setTimeout: (fire, ms) => setTimeout(fire, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

// Calls `fire` with the burst's distinct items, in the order they first arrived, once `waitMs` pass without
// a new item (or `maxWaitMs` after the burst began).
export function debounce<T>(
  options: DebounceOptions,
  fire: (items: T[]) => void,
  timers: Timers = realTimers,
): Debounced<T> {
  let items: T[] = [];
  let quiet: unknown;
  let ceiling: unknown;

  const clear = (): void => {
    if (quiet !== undefined) timers.clearTimeout(quiet);
    if (ceiling !== undefined) timers.clearTimeout(ceiling);
    quiet = undefined;
    ceiling = undefined;
  };
  const flush = (): void => {
    const burst = items;
    items = [];
    clear();
    if (burst.length > 0) fire(burst);
  };

  return {
    push(item) {
      if (!items.includes(item)) items.push(item);
      if (quiet !== undefined) timers.clearTimeout(quiet);
      quiet = timers.setTimeout(flush, options.waitMs);
      ceiling ??= timers.setTimeout(flush, options.maxWaitMs);
    },
    cancel() {
      items = [];
      clear();
    },
  };
}

// Drives a pure state machine (`step(state, event) -> [state, effects]`) from an adapter's callbacks: an event
// that arrives while effects are being carried out (a key pressed during a write) waits its turn, so each step
// sees the state the previous one left and effects run in the order they were asked for.
export type EventQueue<S, E> = { dispatch: (event: E) => void; state: () => S };

export function eventQueue<S, E, F>(
  initial: S,
  step: (state: S, event: E) => [S, F[]],
  perform: (effect: F) => void,
): EventQueue<S, E> {
  let state = initial;
  const queue: E[] = [];
  let stepping = false;
  const dispatch = (event: E): void => {
    queue.push(event);
    if (stepping) return;
    stepping = true;
    try {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const [after, effects] = step(state, next);
        state = after;
        for (const effect of effects) perform(effect);
      }
    } finally {
      stepping = false;
    }
  };
  return { dispatch, state: () => state };
}

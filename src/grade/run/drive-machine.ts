// Runs a pure `step(state, event) -> [state, effects]` against the world: each event's effects are carried out in
// order, and an event raised while they are (a line whose answer is "stop", a verdict that aborts the run) is
// handled right after them, before dispatch returns. So no effect list is ever interleaved with another's.

// A running machine: hand it events, read its state.
type Driven<S, E> = { dispatch: (event: E) => void; state: () => S };

// Starts a machine from its first state and effects (carried out at once).
export function driveMachine<S, E, F>(
  [first, effects]: [S, F[]],
  step: (state: S, event: E) => [S, F[]],
  perform: (effect: F) => void,
): Driven<S, E> {
  let state = first;
  const queue: E[] = [];
  let busy = false;
  const run = (todo: F[]): void => {
    busy = true;
    try {
      for (const effect of todo) perform(effect);
      for (let event = queue.shift(); event !== undefined; event = queue.shift()) {
        const [next, more] = step(state, event);
        state = next;
        for (const effect of more) perform(effect);
      }
    } finally {
      busy = false;
    }
  };
  const dispatch = (event: E): void => {
    queue.push(event);
    if (!busy) run([]);
  };
  run(effects);
  return { dispatch, state: () => state };
}

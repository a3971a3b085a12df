// The review of pending snapshots as a pure state machine: events in (a start, a key, a decision carried out or
// not), the next state and the effects to carry out; index.ts only performs them. A decision is carried out
// (the pending file renamed over the snapshot, or removed) before the next snapshot is shown, and keys pressed
// meanwhile wait their turn, so a fast typist's `a a r` decides three snapshots in order.

// What a key can ask of the review.
export type ReviewAction =
  | { type: 'accept' }
  | { type: 'reject' }
  | { type: 'skip' }
  | { type: 'accept-rest' }
  | { type: 'reject-rest' }
  | { type: 'skip-rest' }
  | { type: 'whole-diff' }
  | { type: 'quit' }
  // Ctrl-C: stop as `q` does, once a decision being carried out is done, and exit 130.
  | { type: 'interrupt' }
  | { type: 'unknown'; input: string }
  | { type: 'none' };

// What became of one pending snapshot.
export type Decision = 'accepted' | 'rejected' | 'skipped';

export type ReviewState = {
  phase: 'idle' | 'reviewing' | 'applying' | 'done';
  // The pending snapshots, in the order they are shown.
  names: string[];
  // The one shown.
  index: number;
  decisions: Record<string, Decision>;
  // Decisions asked for and not yet carried out, first one in progress.
  applying: { name: string; decision: 'accepted' | 'rejected' }[];
  // Keys pressed while a decision was carried out.
  held: ReviewAction[];
  interrupted: boolean;
};

export type ReviewEvent =
  | { type: 'start' }
  | { type: 'key'; action: ReviewAction }
  | { type: 'applied' }
  | { type: 'apply-failed'; message: string };

export type ReviewEffect =
  | { type: 'show-item'; index: number }
  | { type: 'show-whole-diff'; index: number }
  | { type: 'apply'; name: string; decision: 'accepted' | 'rejected' }
  | { type: 'show-decision'; name: string; decision: Decision }
  | { type: 'show-notice'; message: string }
  | { type: 'show-error'; message: string }
  | { type: 'show-summary'; decisions: Record<string, Decision>; left: string[] }
  | { type: 'exit'; code: number };

// Exit codes: every snapshot shown was decided; some are still pending; a decision could not be carried out;
// Ctrl-C.
export const REVIEW_EXIT = { decided: 0, left: 1, failed: 2, interrupted: 130 } as const;

export function initialReview(names: string[]): ReviewState {
  return { phase: 'idle', names, index: 0, decisions: {}, applying: [], held: [], interrupted: false };
}

// The next state and what to do, for one event.
export function step(state: ReviewState, event: ReviewEvent): [ReviewState, ReviewEffect[]] {
  if (state.phase === 'done') return [state, []];
  switch (event.type) {
    case 'start':
      if (state.names.length === 0) return finish(state);
      return [{ ...state, phase: 'reviewing', index: 0 }, [{ type: 'show-item', index: 0 }]];
    case 'key':
      if (state.phase === 'applying') {
        // Only the decision in progress is finished: the rest of an A or R is not carried out.
        if (event.action.type === 'interrupt')
          return [{ ...state, interrupted: true, held: [], applying: state.applying.slice(0, 1) }, []];
        return [{ ...state, held: [...state.held, event.action] }, []];
      }
      if (state.phase === 'idle')
        return event.action.type === 'interrupt' ? finish({ ...state, interrupted: true }) : [state, []];
      return onKey(state, event.action);
    case 'applied':
      return state.phase === 'applying' ? applied(state) : [state, []];
    case 'apply-failed': {
      const left = leftOf(state);
      const done: ReviewState = { ...state, phase: 'done', applying: [], held: [] };
      return [
        done,
        [
          { type: 'show-error', message: event.message },
          { type: 'show-summary', decisions: state.decisions, left },
          { type: 'exit', code: REVIEW_EXIT.failed },
        ],
      ];
    }
  }
}

function onKey(state: ReviewState, action: ReviewAction): [ReviewState, ReviewEffect[]] {
  const name = state.names[state.index] as string;
  const rest = state.names.slice(state.index);
  switch (action.type) {
    case 'accept':
      return apply(state, [{ name, decision: 'accepted' }]);
    case 'reject':
      return apply(state, [{ name, decision: 'rejected' }]);
    case 'accept-rest':
      return apply(
        state,
        rest.map((n) => ({ name: n, decision: 'accepted' as const })),
      );
    case 'reject-rest':
      return apply(
        state,
        rest.map((n) => ({ name: n, decision: 'rejected' as const })),
      );
    case 'skip': {
      const [next, effects] = advance(
        { ...state, decisions: { ...state.decisions, [name]: 'skipped' } },
        state.index + 1,
      );
      return [next, [{ type: 'show-decision', name, decision: 'skipped' }, ...effects]];
    }
    case 'skip-rest': {
      const decisions = { ...state.decisions };
      for (const n of rest) decisions[n] = 'skipped';
      const [next, effects] = finish({ ...state, decisions });
      return [
        next,
        [...rest.map((n) => ({ type: 'show-decision' as const, name: n, decision: 'skipped' as const })), ...effects],
      ];
    }
    case 'whole-diff':
      return [state, [{ type: 'show-whole-diff', index: state.index }]];
    case 'quit':
      return finish(state);
    case 'interrupt':
      return finish({ ...state, interrupted: true });
    case 'unknown':
      return [
        state,
        [
          {
            type: 'show-notice',
            message: `Unknown key ${JSON.stringify(action.input)}: a or Enter accepts, r rejects, s skips, A, R, S do so for all that remain, d shows the whole diff, q quits.`,
          },
        ],
      ];
    case 'none':
      return [state, []];
  }
}

function apply(state: ReviewState, queue: ReviewState['applying']): [ReviewState, ReviewEffect[]] {
  const first = queue[0];
  if (first === undefined) return [state, []];
  return [{ ...state, phase: 'applying', applying: queue }, [{ type: 'apply', ...first }]];
}

// The first decision in progress is done: the next one, or the next snapshot and the keys held meanwhile.
function applied(state: ReviewState): [ReviewState, ReviewEffect[]] {
  const [done, ...queue] = state.applying;
  if (done === undefined) return [state, []];
  const decisions = { ...state.decisions, [done.name]: done.decision };
  const shown: ReviewEffect = { type: 'show-decision', ...done };
  const next = queue[0];
  if (next !== undefined) return [{ ...state, decisions, applying: queue }, [shown, { type: 'apply', ...next }]];
  const index = state.names.indexOf(done.name) + 1;
  const settled: ReviewState = { ...state, phase: 'reviewing', decisions, applying: [], held: [] };
  if (state.interrupted) {
    const [end, effects] = finish({ ...settled, index });
    return [end, [shown, ...effects]];
  }
  let [current, effects] = advance(settled, index);
  effects = [shown, ...effects];
  for (const action of state.held) {
    const [after, more] = step(current, { type: 'key', action });
    current = after;
    effects.push(...more);
  }
  return [current, effects];
}

// Shows the snapshot at `index`, or ends the review past the last one.
function advance(state: ReviewState, index: number): [ReviewState, ReviewEffect[]] {
  if (index >= state.names.length) return finish({ ...state, index });
  return [{ ...state, phase: 'reviewing', index }, [{ type: 'show-item', index }]];
}

function finish(state: ReviewState): [ReviewState, ReviewEffect[]] {
  const left = leftOf(state);
  const code = state.interrupted ? REVIEW_EXIT.interrupted : left.length === 0 ? REVIEW_EXIT.decided : REVIEW_EXIT.left;
  return [
    { ...state, phase: 'done', held: [] },
    [
      { type: 'show-summary', decisions: state.decisions, left },
      { type: 'exit', code },
    ],
  ];
}

// The pending snapshots neither accepted nor rejected.
function leftOf(state: ReviewState): string[] {
  return state.names.filter((n) => state.decisions[n] !== 'accepted' && state.decisions[n] !== 'rejected');
}

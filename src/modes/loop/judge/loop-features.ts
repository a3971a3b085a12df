// Where in a loop case a mistake can first show. A loop's mistake is a rule it breaks (results split, is_error
// dropped), and a case shows it only where its script gives the rule something to do: a turn of parallel calls,
// an output with is_error. Each loop hint names the feature its mistake needs, so that a finding of the probe
// explains exactly the failing cases whose first difference is where that feature is. Pure.
import type { LoopCaseData, LoopTurn } from '../case.ts';
import type { Hint } from '../../../grade/judge/hints.ts';

// A loop hint: its text for this case and, for the probe (find-loop-mistakes.ts), the feature a case needs to show
// the mistake (none for what is not a mistake of the loop's rules: the stub) and its wording for any case that
// shows it, where the text speaks of this case's turns.
export type LoopHint = Hint & { shows?: Feature; general?: string };

// What a mistake needs to show, by where it shows first:
// - `first-request`: the first request (every case);
// - `first-turn`: what the loop does with the model's first turn (every case: request 2, or the end);
// - `later-request`: request 2, in a case of two turns or more;
// - `end`: the conversation runLoop returns, or a request it sends after the last turn (every case);
// - the turn that has it, for the rest: a turn that asks for tools, one that asks for two or more, one with text
//   and tools, one with a thinking block, one whose tool_use blocks end with another stop_reason, a tool whose
//   result has is_error (its output's, or its execute threw), one whose execute throws, one whose calls finish in
//   another order than they were made (their outputs' delay_ms), the second turn that asks for tools, one whose
//   output is empty, one that names a tool request.tools does not have, one that calls a tool twice or more with
//   outputs that differ, one whose results are all errors (each output is_error, or its execute threw).
export type Feature =
  | 'first-request'
  | 'first-turn'
  | 'later-request'
  | 'end'
  | 'tool-turn'
  | 'parallel-turn'
  | 'text-and-tool-turn'
  | 'thinking-turn'
  | 'tool-block-ending-turn'
  | 'error-output'
  | 'throwing-output'
  | 'out-of-order-turn'
  | 'second-tool-turn'
  | 'empty-output'
  | 'unknown-tool-turn'
  | 'same-tool-turn'
  | 'all-error-turn';

const blocksOf = (turn: LoopTurn, type: string): number => turn.message.content.filter((b) => b.type === type).length;
export const asksForTools = (turn: LoopTurn): boolean =>
  turn.message.stop_reason === 'tool_use' && blocksOf(turn, 'tool_use') > 0;

// Whether a turn has the feature (for the features of a turn).
const TURN_FEATURES: Record<string, (turn: LoopTurn, data: LoopCaseData) => boolean> = {
  'tool-turn': asksForTools,
  'parallel-turn': (turn) => asksForTools(turn) && blocksOf(turn, 'tool_use') > 1,
  'text-and-tool-turn': (turn) => asksForTools(turn) && blocksOf(turn, 'text') > 0,
  'thinking-turn': (turn) => blocksOf(turn, 'thinking') + blocksOf(turn, 'redacted_thinking') > 0,
  'tool-block-ending-turn': (turn) => turn.message.stop_reason !== 'tool_use' && blocksOf(turn, 'tool_use') > 0,
  // A throw is answered with an is_error result too.
  'error-output': (turn, data) =>
    outputsOf(turn, data).some((o) => o !== undefined && ('throws' in o || o.is_error === true)),
  'throwing-output': (turn, data) => outputsOf(turn, data).some((o) => o !== undefined && 'throws' in o),
  'out-of-order-turn': (turn, data) =>
    finishOrder(outputsOf(turn, data).map((o) => o?.delay_ms ?? 0)).some((k, j) => k !== j),
  'empty-output': (turn, data) =>
    outputsOf(turn, data).some((o) => o !== undefined && 'content' in o && o.content === ''),
  'unknown-tool-turn': (turn, data) => {
    const names = new Set(data.request.tools.map((t) => t.name));
    return asksForTools(turn) && turn.message.content.some((b) => b.type === 'tool_use' && !names.has(b.name));
  },
  'all-error-turn': (turn, data) => allErrors(turn, data),
  // Outputs that differ, as texts: only then does a loop that keeps one output per name show it.
  'same-tool-turn': (turn, data) => {
    const uses = asksForTools(turn) ? turn.message.content.filter((b) => b.type === 'tool_use') : [];
    return uses.some((b, k) =>
      uses.slice(k + 1).some((c) => {
        const [x, y] = [data.outputs?.[String(b.id)], data.outputs?.[String(c.id)]];
        return (
          c.name === b.name &&
          x !== undefined &&
          y !== undefined &&
          'content' in x &&
          'content' in y &&
          x.content !== y.content
        );
      }),
    );
  },
};

// A feature a turn with another always has: a throw is answered with an is_error result. Where two mistakes first
// show at one place, the one whose feature is narrower is the nearer cause: a loop that lets a throw out and drops
// is_error ended the case at the throw, not at the flag. (Only this pair: a turn of calls finishing out of order is
// also a turn of tools, yet a loop that reads outputs unawaited shows it there first, as its finding says.)
const IMPLIES: Partial<Record<Feature, Feature[]>> = {
  'throwing-output': ['error-output'],
};

// Below 0 when `a` is narrower than `b` (a turn with `a` always has `b`), above 0 the other way, else 0.
export function byNarrowness(a: Feature, b: Feature): number {
  if (IMPLIES[a]?.includes(b) === true) return -1;
  if (IMPLIES[b]?.includes(a) === true) return 1;
  return 0;
}

// The order calls made at once finish in, by their delays: the positions of the calls, soonest first (a tie in
// call order, as timers of the same delay fire).
export function finishOrder(delays: number[]): number[] {
  return delays
    .map((d, k) => [d, k] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, k]) => k);
}

// Whether a turn asks for tools and every one of them comes back an error: its output's is_error, or a throw.
export function allErrors(turn: LoopTurn, data: LoopCaseData): boolean {
  const outputs = outputsOf(turn, data);
  return outputs.length > 0 && outputs.every((o) => o !== undefined && ('throws' in o || o.is_error === true));
}

function outputsOf(turn: LoopTurn, data: LoopCaseData) {
  if (!asksForTools(turn)) return [];
  return turn.message.content.filter((b) => b.type === 'tool_use').map((b) => data.outputs?.[String(b.id)]);
}

// The position where a case first shows a mistake that needs `feature`, or undefined when it cannot show it. A
// position is a request's index (0 for the first; request k + 1 follows turn k), or the number of turns for the
// end: where compare-loop.ts puts a case's first difference.
export function positionOf(data: LoopCaseData, feature: Feature): number | undefined {
  const turns = data.turns.length;
  if (feature === 'first-request') return 0;
  if (feature === 'first-turn') return 1;
  if (feature === 'later-request') return turns >= 2 ? 1 : undefined;
  if (feature === 'end') return turns;
  if (feature === 'second-tool-turn') {
    const k = data.turns.map((turn, k) => (asksForTools(turn) ? k : -1)).filter((k) => k !== -1)[1];
    return k === undefined ? undefined : k + 1;
  }
  const has = TURN_FEATURES[feature]!;
  const k = data.turns.findIndex((turn) => has(turn, data));
  return k === -1 ? undefined : k + 1;
}

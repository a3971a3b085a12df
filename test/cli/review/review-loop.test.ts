// The review as a state machine: every interleaving of keys and decisions being carried out is a row.
import { describe, expect, it } from 'vitest';
import {
  initialReview,
  step,
  type ReviewAction,
  type ReviewEffect,
  type ReviewEvent,
  type ReviewState,
} from '../../../src/cli/review/review-loop.ts';

const key = (type: ReviewAction['type']): ReviewEvent => ({ type: 'key', action: { type } as ReviewAction });
const applied: ReviewEvent = { type: 'applied' };

// Runs events from the start and returns the final state and every effect, in order.
function run(names: string[], events: ReviewEvent[]): { state: ReviewState; effects: ReviewEffect[] } {
  let state = initialReview(names);
  const effects: ReviewEffect[] = [];
  for (const event of [{ type: 'start' } as ReviewEvent, ...events]) {
    const [next, more] = step(state, event);
    state = next;
    effects.push(...more);
  }
  return { state, effects };
}

const exitOf = (effects: ReviewEffect[]) => effects.find((e) => e.type === 'exit');
const applies = (effects: ReviewEffect[]) =>
  effects.flatMap((e) => (e.type === 'apply' ? [`${e.decision} ${e.name}`] : []));
const shown = (effects: ReviewEffect[]) => effects.flatMap((e) => (e.type === 'show-item' ? [e.index] : []));

describe('the review loop', () => {
  it('with nothing pending, says so and exits 0', () => {
    const { effects } = run([], []);
    expect(effects).toEqual([
      { type: 'show-summary', decisions: {}, left: [] },
      { type: 'exit', code: 0 },
    ]);
  });

  it.each([
    ['a accepts, then shows the next', ['a', 'b'], [key('accept'), applied], ['accepted a'], [0, 1], undefined],
    ['r rejects', ['a'], [key('reject'), applied], ['rejected a'], [0], 0],
    [
      's skips: nothing is carried out, and it is left pending',
      ['a', 'b'],
      [key('skip'), key('accept'), applied],
      ['accepted b'],
      [0, 1],
      1,
    ],
    [
      'A accepts every remaining one, one at a time',
      ['a', 'b', 'c'],
      [key('skip'), key('accept-rest'), applied, applied],
      ['accepted b', 'accepted c'],
      [0, 1],
      1,
    ],
    [
      'R rejects every remaining one',
      ['a', 'b'],
      [key('reject-rest'), applied, applied],
      ['rejected a', 'rejected b'],
      [0],
      0,
    ],
    ['S skips every remaining one', ['a', 'b'], [key('skip-rest')], [], [0], 1],
    ['q quits, leaving the rest pending', ['a', 'b'], [key('accept'), applied, key('quit')], ['accepted a'], [0, 1], 1],
    [
      'keys pressed while a decision is carried out wait their turn',
      ['a', 'b', 'c'],
      [key('accept'), key('reject'), key('skip'), applied, applied],
      ['accepted a', 'rejected b'],
      [0, 1, 2],
      1,
    ],
    [
      'a key before the first decision is done does not decide the same snapshot twice',
      ['a', 'b'],
      [key('accept'), key('accept'), applied, applied],
      ['accepted a', 'accepted b'],
      [0, 1],
      0,
    ],
  ])('%s', (_, names, events, decided, items, code) => {
    const { effects } = run(names, events);
    expect(applies(effects)).toEqual(decided);
    expect(shown(effects)).toEqual(items);
    expect(exitOf(effects)).toEqual(code === undefined ? undefined : { type: 'exit', code });
  });

  it('d shows the whole diff of the one on screen, and an unknown key is a notice; neither decides', () => {
    const { state, effects } = run(
      ['a'],
      [key('whole-diff'), { type: 'key', action: { type: 'unknown', input: 'x' } }],
    );
    expect(effects.map((e) => e.type)).toEqual(['show-item', 'show-whole-diff', 'show-notice']);
    expect(state.phase).toBe('reviewing');
  });

  it('Ctrl-C while a decision is carried out finishes that one, drops the rest of an A, and exits 130', () => {
    const { effects } = run(['a', 'b', 'c'], [key('accept-rest'), key('interrupt'), applied]);
    expect(applies(effects)).toEqual(['accepted a']);
    expect(effects.slice(-2)).toEqual([
      { type: 'show-summary', decisions: { a: 'accepted' }, left: ['b', 'c'] },
      { type: 'exit', code: 130 },
    ]);
  });

  it('Ctrl-C before the review starts exits 130', () => {
    const [, effects] = step(initialReview(['a']), key('interrupt'));
    expect(exitOf(effects)).toEqual({ type: 'exit', code: 130 });
  });

  it('a decision that cannot be carried out ends the review with exit 2 and says why', () => {
    const { state, effects } = run(
      ['a', 'b'],
      [key('accept'), { type: 'apply-failed', message: 'EACCES' }, key('accept')],
    );
    expect(effects.slice(-3)).toEqual([
      { type: 'show-error', message: 'EACCES' },
      { type: 'show-summary', decisions: {}, left: ['a', 'b'] },
      { type: 'exit', code: 2 },
    ]);
    expect(state.phase).toBe('done');
  });

  it('reports each decision as it is carried out, and the summary with what is left', () => {
    const { effects } = run(['a', 'b'], [key('skip'), key('reject'), applied]);
    expect(effects.filter((e) => e.type === 'show-decision' || e.type === 'show-summary')).toEqual([
      { type: 'show-decision', name: 'a', decision: 'skipped' },
      { type: 'show-decision', name: 'b', decision: 'rejected' },
      { type: 'show-summary', decisions: { a: 'skipped', b: 'rejected' }, left: ['a'] },
    ]);
  });
});

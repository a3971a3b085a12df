// Events dispatched while effects are carried out wait their turn: each step sees the state the last one left.
import { describe, expect, it } from 'vitest';
import { eventQueue } from '../../src/cli/event-queue.ts';

describe('eventQueue', () => {
  it('steps an event dispatched by an effect after the effects before it, in order', () => {
    const log: string[] = [];
    const q = eventQueue<number, string, string>(
      0,
      (n, e) => [n + 1, [`${e}@${n}`, ...(e === 'first' ? ['again'] : [])]],
      (effect) => {
        log.push(effect);
        if (effect === 'again') q.dispatch('second');
      },
    );
    q.dispatch('first');
    expect(log).toEqual(['first@0', 'again', 'second@1']);
    expect(q.state()).toBe(2);
  });
});

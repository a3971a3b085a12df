// How a pure machine is run: its effects in order, and an event raised by an effect handled after the rest of
// that event's effects, before dispatch returns.
import { describe, expect, it } from 'vitest';
import { driveMachine } from '../../../src/grade/run/drive-machine.ts';

// A counter whose every event has two effects: a note of the event, then the count.
type Event = { type: 'add'; n: number };
const step = (count: number, event: Event): [number, string[]] => [
  count + event.n,
  [`add ${event.n}`, `count ${count + event.n}`],
];

describe('driveMachine', () => {
  it('carries out the first effects at once, then each event’s in order', () => {
    const done: string[] = [];
    const machine = driveMachine([0, ['start']], step, (effect) => done.push(effect));
    machine.dispatch({ type: 'add', n: 2 });
    expect([done, machine.state()]).toEqual([['start', 'add 2', 'count 2'], 2]);
  });

  it('handles an event raised by an effect after the rest of the effects, before dispatch returns', () => {
    const done: string[] = [];
    const machine = driveMachine([0, []], step, (effect) => {
      done.push(effect);
      if (effect === 'add 1') machine.dispatch({ type: 'add', n: 10 });
    });
    machine.dispatch({ type: 'add', n: 1 });
    expect(done).toEqual(['add 1', 'count 1', 'add 10', 'count 11']);
    expect(machine.state()).toBe(11);
  });

  it('goes on after an effect that threw', () => {
    const machine = driveMachine([0, []], step, (effect) => {
      if (effect === 'count 1') throw new Error('boom');
    });
    expect(() => machine.dispatch({ type: 'add', n: 1 })).toThrow('boom');
    machine.dispatch({ type: 'add', n: 1 });
    expect(machine.state()).toBe(2);
  });
});

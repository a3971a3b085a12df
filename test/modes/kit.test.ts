// What both driver modes share (src/modes/kit.ts): here, how a throw is worded. The code under test chooses what it
// throws, so wording it must never throw in turn: a throw out of the wording ended the driver's process, blamed on
// the case's seeding ("cannot seed case"), and cost every case after it a new process.
import { describe, expect, it } from 'vitest';
import { describeThrow, jsonValues } from '../../src/modes/kit.ts';

const hostile = new Proxy(
  {},
  {
    get() {
      throw new Error('get');
    },
    getPrototypeOf() {
      throw new Error('getPrototypeOf');
    },
  },
);

describe('describeThrow', () => {
  it.each([
    ['an Error', new TypeError('bad input'), 'TypeError: bad input'],
    ['a string', 'plain', 'plain'],
    ['undefined', undefined, 'undefined'],
    ['an object', { code: 1 }, '[object Object]'],
    ['a Proxy whose every trap throws', hostile, 'a thrown value that cannot be described'],
    [
      'an object whose toString throws',
      {
        toString() {
          throw new Error('no');
        },
      },
      'a thrown value that cannot be described',
    ],
    [
      'an Error whose message is a getter that throws',
      Object.defineProperty(new Error('x'), 'message', {
        get() {
          throw new Error('no');
        },
      }),
      'a thrown value that cannot be described',
    ],
  ])('words %s', (_, error, words) => {
    expect(describeThrow(error)).toBe(words);
  });
});

describe('jsonValues', () => {
  it.each([
    ['a string', 'text', 1],
    ['null', null, 1],
    ['an empty object', {}, 1],
    ['an array of three numbers', [1, 2, 3], 4],
    ['an object of an array of empty objects', { a: [{}, {}] }, 4],
  ])('counts %s: itself and every value below it', (_, value, count) => {
    expect(jsonValues(value)).toBe(count);
  });

  it('counts a value nested deeper than a call stack reaches', () => {
    const deep = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(jsonValues(deep)).toBe(200_000);
  });
});

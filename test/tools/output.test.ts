import { describe, expect, it } from 'vitest';
import { fail, guard, isFailure } from '../../src/tools/output.ts';

describe('guard', () => {
  it('passes a result through', async () => {
    expect(await guard('view', async () => ({ content: 'ok' }))).toEqual({ content: 'ok' });
  });

  it('turns a throw into an error result naming the method', async () => {
    const result = await guard('view', async () => {
      throw new TypeError('boom');
    });
    expect(result).toEqual({ content: 'Internal error in view: boom', is_error: true });
  });
});

describe('isFailure', () => {
  const rows: Array<[string, unknown, boolean]> = [
    ['an error result', fail('x'), true],
    ['a string', 'x', false],
    ['a number', 1, false],
    ['a Buffer', Buffer.from('x'), false],
    ['undefined', undefined, false],
    ['a success result', { content: 'x' }, false],
  ];
  it.each(rows)('%s: %s', (_name, value, expected) => {
    expect(isFailure(value)).toBe(expected);
  });
});

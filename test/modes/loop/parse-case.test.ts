// Reading a loop case's JSON: its `api_error`, taken as written, or refused with what is wrong with it.
import { describe, expect, it } from 'vitest';
import { parseLoopCase } from '../../../src/modes/loop/parse-case.ts';

const base = {
  request: { model: 'm', max_tokens: 10, tools: [], messages: [{ role: 'user', content: 'Hi.' }] },
  turns: [{ message: { content: [{ type: 'text', text: 'Hello.' }], stop_reason: 'end_turn' } }],
};
const parse = (api_error: unknown) => () => parseLoopCase(JSON.stringify({ ...base, api_error }));

describe('parseLoopCase: api_error', () => {
  it('keeps an API error as written', () => {
    const api_error = { status: 529, type: 'overloaded_error', message: 'Overloaded' };
    expect(parse(api_error)().api_error).toEqual(api_error);
  });

  it.each([
    ['not an object', 529, /^"api_error" must be \{ "status": an HTTP error status/],
    [
      'a status below 400',
      { status: 200, type: 'x', message: '' },
      /^"api_error"\.status must be a whole number from 400 to 599 .*, not 200$/,
    ],
    ['a status above 599', { status: 600, type: 'x', message: '' }, /^"api_error"\.status .*, not 600$/],
    [
      'a status that is no whole number',
      { status: '529', type: 'x', message: '' },
      /^"api_error"\.status .*, not "529"$/,
    ],
    ['an empty type', { status: 529, type: '', message: '' }, /^"api_error"\.type must be the API's error type/],
    ['no message', { status: 529, type: 'overloaded_error' }, /^"api_error"\.message must be a string, not undefined$/],
    ['a key of its own', { status: 529, type: 'x', message: '', retry: true }, /: it has "retry" too$/],
  ])('refuses %s', (_, api_error, error) => {
    expect(parse(api_error)).toThrow(error);
  });
});

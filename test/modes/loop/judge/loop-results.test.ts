// Reading the loop mode's results back: the requests, and how the loop ended.
import { describe, expect, it } from 'vitest';
import {
  requestOf,
  returnedOf,
  splitLoopResults,
  threwOf,
  unaskedCallsOf,
  wholeRequests,
  withoutUnasked,
} from '../../../../src/modes/loop/judge/loop-results.ts';

describe('splitLoopResults', () => {
  it('splits the requests from the end', () => {
    const r = { request: { model: 'm' } };
    expect(splitLoopResults([r, { other: 'GET /x' }, { returned: [] }])).toEqual({
      requests: [r, { other: 'GET /x' }],
      end: { returned: [] },
    });
    expect(splitLoopResults([{ threw: 'Error: x' }])).toEqual({ requests: [], end: { threw: 'Error: x' } });
  });

  it('has no end when the last entry is not one', () => {
    expect(splitLoopResults([{ request: {} }])).toEqual({ requests: [{ request: {} }], end: undefined });
  });
});

describe('requestOf, returnedOf, threwOf', () => {
  it('read their entry, and nothing of another', () => {
    expect(requestOf({ request: { a: 1 } })).toEqual({ a: 1 });
    expect(requestOf({ other: 'GET /x' })).toBeUndefined();
    expect(returnedOf({ returned: [1] })).toEqual([1]);
    expect(returnedOf({ returned: null })).toBeUndefined();
    expect(threwOf({ threw: 'E' })).toBe('E');
    expect(threwOf({ returned: [] })).toBeUndefined();
  });
});

describe('wholeRequests', () => {
  it('expands a field sent as before and the new messages from the request before, and leaves a whole one as it is', () => {
    const first = { request: { model: 'm', tools: [1], messages: ['a'] } };
    expect(
      wholeRequests([
        first,
        { other: 'GET /x' },
        { request: { as_before: ['model', 'tools'], new_messages: ['b', 'c'] } },
        { request: { as_before: ['model'], messages: ['z'] } },
      ]),
    ).toEqual([
      first,
      { other: 'GET /x' },
      { request: { model: 'm', tools: [1], messages: ['a', 'b', 'c'] } },
      { request: { model: 'm', messages: ['z'] } },
    ]);
  });
});

describe('unaskedCallsOf, withoutUnasked', () => {
  it('read the calls an end names, and leave the rest of it', () => {
    const end = { returned: [], request_changed: { model: 'x' }, unasked_calls: [{ tool: 'ls' }, 'ls', 3] };
    expect(unaskedCallsOf(end)).toEqual([{ tool: 'ls' }]);
    expect(unaskedCallsOf({ returned: [] })).toBeUndefined();
    expect(withoutUnasked(end)).toEqual({ returned: [], request_changed: { model: 'x' } });
    expect(withoutUnasked('x')).toBe('x');
  });
});

// A case's API error as the loop judges say it: the requests the reference sends, whether its run can be the
// snapshot, and how a loop that kept the error in went another way.
import { describe, expect, it } from 'vitest';
import { apiErrorDifference, apiErrorSaid, requestsFor, unfitEnd } from '../../../../src/modes/loop/judge/api-error.ts';
import { splitLoopResults } from '../../../../src/modes/loop/judge/loop-results.ts';
import {
  apiErrorCase,
  apiErrorExpected,
  assistant1,
  expected,
  loopCase,
  prompt,
  request,
  results1,
} from './loop-fixture.ts';

const data = apiErrorCase.data;
const want = splitLoopResults(apiErrorExpected);
const words = { entry: 'runLoop', asked: 'request 2' };
const returned = { returned: [prompt, assistant1, results1] };

describe('requestsFor', () => {
  it('counts one request per turn, and the one the API error answers', () => {
    expect([requestsFor(loopCase.data), requestsFor(data)]).toEqual([2, 2]);
  });
});

describe('apiErrorSaid', () => {
  it('says the error by its status and type, and nothing for a case without one', () => {
    expect([apiErrorSaid(data), apiErrorSaid(loopCase.data)]).toEqual(['HTTP 529 overloaded_error', undefined]);
  });
});

describe('unfitEnd', () => {
  it.each([
    ['a case without an API error, returned after one request per turn', loopCase.data, expected, undefined],
    ['a case with one, thrown after the request it answers', data, apiErrorExpected, undefined],
    [
      'a case with one, returned',
      data,
      [...apiErrorExpected.slice(0, 2), returned],
      'the reference loop did not throw the API error of request 2: {"returned":[',
    ],
    [
      'a case with one, thrown before the request it answers',
      data,
      [apiErrorExpected[0], apiErrorExpected[2]],
      'the reference loop sent 1 requests for 1 turns and the API error of request 2',
    ],
  ])('%s', (_, scripted, results, unfit) => {
    const said = unfitEnd(scripted, splitLoopResults(results));
    if (unfit === undefined) expect(said).toBeUndefined();
    else expect(said?.startsWith(unfit)).toBe(true);
  });
});

describe('apiErrorDifference', () => {
  it('says a loop that returned where the error should have left it', () => {
    const got = splitLoopResults([...apiErrorExpected.slice(0, 2), returned]);
    expect(apiErrorDifference(data, want, got, 'end', words)).toBe(
      'runLoop returned where the API error should have left it: request 2 was answered with HTTP 529 overloaded_error, which the SDK throws',
    );
  });

  it('says a loop that sent another request after the error', () => {
    const retried = request([prompt, assistant1, results1]);
    const got = splitLoopResults([...apiErrorExpected.slice(0, 2), retried, { threw: 'BadRequestError: 400 …' }]);
    expect(apiErrorDifference(data, want, got, 'extra', words)).toMatch(
      /^runLoop sent another request after the API error: request 2 was answered with HTTP 529 overloaded_error, which the SDK throws; that error leaves runLoop, and no request follows it$/,
    );
  });

  it('says a loop that threw an error of its own in its place', () => {
    const got = splitLoopResults([...apiErrorExpected.slice(0, 2), { threw: 'Error: the model is busy' }]);
    expect(apiErrorDifference(data, want, got, 'end', words)).toMatch(
      /^runLoop threw "Error: the model is busy", not the API error as the SDK threw it: request 2 was answered/,
    );
  });

  it('says nothing of a case without an API error', () => {
    const got = splitLoopResults([...expected.slice(0, 2), { threw: 'Error: x' }]);
    expect(apiErrorDifference(loopCase.data, splitLoopResults(expected), got, 'end', words)).toBeUndefined();
  });
});

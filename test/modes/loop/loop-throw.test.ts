// A loop's throw as its end says it: an API error by its class, status and body, whatever words the SDK version
// that threw it gave its message; any other throw as every mode says one.
import { APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { describeLoopThrow } from '../../../src/modes/loop/loop-throw.ts';

const BODY = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };
const SAID = `OverloadedError: 529 ${JSON.stringify(BODY)}`;

describe('describeLoopThrow', () => {
  it('says an API error of this SDK by its class, status and body', () => {
    expect(describeLoopThrow(APIError.generate(529, BODY, undefined, new Headers()))).toBe(SAID);
  });

  it('says the same of an API error a later SDK words otherwise', () => {
    class OverloadedError extends Error {
      status = 529;
      error = BODY;
    }
    const later = new OverloadedError('529 Overloaded (path: /v1/messages, type: overloaded_error)');
    later.name = 'OverloadedError';
    expect(describeLoopThrow(later)).toBe(SAID);
  });

  it('says any other throw by its name and message', () => {
    expect(describeLoopThrow(new TypeError('x is not a function'))).toBe('TypeError: x is not a function');
    expect(describeLoopThrow('a string')).toBe('a string');
  });
});

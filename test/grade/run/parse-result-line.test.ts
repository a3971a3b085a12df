// A stdout line of program.ts dispatch: a result line, or the reason it is not one.
import { describe, expect, it } from 'vitest';
import { parseCallingLine, parseObservedLine, parseResultLine } from '../../../src/grade/run/parse-result-line.ts';

describe('parseResultLine', () => {
  it.each([
    ['{"results":[]}', []],
    ['{"results":[{"content":"1: A"}]}', [{ content: '1: A' }]],
    ['  {"results":[1,"x",null]}\r', [1, 'x', null]],
    [
      `{"results":[{"content":"ok"},${'['.repeat(100_000)}${']'.repeat(100_000)}]}`,
      [{ content: 'ok' }, { tooLarge: 'nested 100000 deep' }],
    ],
  ])('reads %s', (text, results) => {
    expect(parseResultLine(text)).toEqual({ ok: true, results });
  });

  it.each([
    ['', 'printed an empty line where a result line was expected'],
    ['debug: here', 'printed a line that is not JSON: "debug: here"'],
    ['{"result":[]}', 'printed JSON without a "results" array: "{\\"result\\":[]}"'],
    ['[{"results":[]}]', 'printed JSON without a "results" array: "[{\\"results\\":[]}]"'],
    ['{"results":{}}', 'printed JSON without a "results" array: "{\\"results\\":{}}"'],
    ['null', 'printed JSON without a "results" array: "null"'],
    [`${'y'.repeat(300)}`, `printed a line that is not JSON: "${'y'.repeat(200)}…"`],
  ])('explains %j', (text, reason) => {
    expect(parseResultLine(text)).toEqual({ ok: false, reason });
  });
});

describe('parseCallingLine', () => {
  it('reads the number of the call a progress line says is about to run', () => {
    expect(parseCallingLine('{"calling":{"call":2,"of":3,"tool":"echo"}}')).toBe(2);
  });

  it.each([
    '{"results":[]}',
    '{"calling":{"call":0,"of":3,"tool":"echo"}}',
    '{"calling":{"call":1.5}}',
    '{"calling":{"call":"2"}}',
    '{"calling":2}',
    '{"calling":{"call":2}',
    ' {"calling":{"call":2}}',
    'calling call 2',
  ])('is not a progress line: %s', (text) => {
    expect(parseCallingLine(text)).toBeUndefined();
  });

  it('leaves a line that looks like progress but is not to be read as a bad result line', () => {
    expect(parseResultLine('{"calling":2}')).toEqual({
      ok: false,
      reason: 'printed JSON without a "results" array: "{\\"calling\\":2}"',
    });
  });
});

describe('parseObservedLine', () => {
  it('reads an observation', () => {
    expect(parseObservedLine('{"observed":[{"calls":[],"result":{"content":"x"}}]}')).toEqual({
      observed: [{ calls: [], result: { content: 'x' } }],
    });
  });

  it('takes an observation nested past what its readers can walk as none', () => {
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    expect(parseObservedLine(`{"observed":[{"calls":[],"result":${deep}}]}`)).toEqual({ observed: undefined });
  });

  it('is not a line that starts otherwise', () => {
    expect(parseObservedLine('{"results":[]}')).toBeUndefined();
  });
});

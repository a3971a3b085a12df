// The refused calls the loop's end names: those whose answer is in nothing the loop sent or returned.
import { describe, expect, it } from 'vitest';
import { callText, type ExecuteCallMade, unaskedCalls } from '../../../src/modes/loop/unasked-calls.ts';

const refusal = (call: ExecuteCallMade) => ({
  call,
  answer: `theinference's scripted execute: ${callText(call)} was called, but no tool_use is waiting for a result`,
});
const ls = refusal({ tool: 'Bash', input: { command: 'ls' } });
const result = (content: unknown) => ({ type: 'tool_result', tool_use_id: 'toolu_a', content, is_error: true });
const sent = (content: unknown) => [{ request: { messages: [{ role: 'user', content: [result(content)] }] } }];

describe('unaskedCalls', () => {
  it.each([
    ['as it came, in a request', sent(ls.answer)],
    ['with text put in front of it', sent(`Error: ${ls.answer}`)],
    ['as JSON writes it (JSON.stringify of the output)', sent(JSON.stringify({ content: ls.answer, is_error: true }))],
    ['as the whole output, in the conversation returned', [{ returned: [{ role: 'user', content: [result(ls)] }] }]],
    ['in what runLoop threw', [{ threw: `Error: ${ls.answer}` }]],
  ])('leaves out a call whose answer went out %s', (_, seen) => {
    expect(unaskedCalls([ls], seen)).toEqual([]);
  });

  it('names each call whose answer is nowhere, in the order they were made', () => {
    const cat = refusal({ tool: 'Bash', input: { command: 'cat a.txt' } });
    expect(unaskedCalls([ls, cat], [{ returned: [] }])).toEqual([ls.call, cat.call]);
    expect(unaskedCalls([ls, cat], sent(cat.answer))).toEqual([ls.call]);
  });

  it('names none when execute refused nothing', () => {
    expect(unaskedCalls([], [{ returned: [] }])).toEqual([]);
  });
});

describe('callText', () => {
  it.each([
    [{ tool: 'Bash', input: { command: 'ls' } }, 'execute("Bash", {"command":"ls"})'],
    [{ tool: 'a "b"' }, 'execute("a \\"b\\"", undefined)'],
    [{ tool: 7, input: [1, 2] }, 'execute(7, [1,2])'],
  ])('%j is %s', (call, text) => {
    expect(callText(call)).toBe(text);
  });
});

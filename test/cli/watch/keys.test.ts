import { describe, expect, it } from 'vitest';
import { actionForKey, actionsForLine, splitKeys, type KeyAction } from '../../../src/cli/watch/keys.ts';

describe('splitKeys', () => {
  it.each<[string, string, string[]]>([
    ['one key', 'a', ['a']],
    ['a paste of several keys', 'af', ['a', 'f']],
    ['an arrow key is one key', '\u001b[A', ['\u001b[A']],
    ['an arrow between letters', 'a\u001b[Dq', ['a', '\u001b[D', 'q']],
    ['an SS3 function key', '\u001bOP', ['\u001bOP']],
    ['a lone Escape', '\u001b', ['\u001b']],
    ['CRLF is one Enter', '\r\n', ['\r\n']],
    ['an astral character is one key', 'x😀', ['x', '😀']],
  ])('%s', (_name, chunk, keys) => {
    expect(splitKeys(chunk)).toEqual(keys);
  });
});

describe('actionForKey, no prompt open', () => {
  it.each<[string, string, KeyAction]>([
    ['a re-runs all', 'a', { type: 'run-all' }],
    ['Enter (CR) re-runs all', '\r', { type: 'run-all' }],
    ['Enter (LF) re-runs all', '\n', { type: 'run-all' }],
    ['f re-runs the failed cases', 'f', { type: 'run-failed' }],
    ['p opens the filter prompt', 'p', { type: 'open-filter' }],
    ['q quits', 'q', { type: 'quit' }],
    ['Ctrl-C interrupts', '\u0003', { type: 'interrupt' }],
    ['Ctrl-D quits', '\u0004', { type: 'quit' }],
    ['an unbound letter is reported', 'x', { type: 'unknown', input: 'x' }],
    ['capitals are not the lowercase keys', 'A', { type: 'unknown', input: 'A' }],
    ['an arrow key does nothing', '\u001b[A', { type: 'none' }],
    ['Escape does nothing', '\u001b', { type: 'none' }],
  ])('%s', (_name, key, action) => {
    expect(actionForKey(key, undefined)).toEqual(action);
  });
});

describe('actionForKey, filter prompt open', () => {
  it.each<[string, string, string, KeyAction]>([
    ['a letter is typed, not a command', 'rea', 'q', { type: 'edit-filter', text: 'reaq' }],
    ['Enter applies the draft', 'read', '\r', { type: 'apply-filter', text: 'read' }],
    ['Enter on an empty draft applies empty (clears the filter)', '', '\n', { type: 'apply-filter', text: '' }],
    ['Backspace deletes the last character', 'read', '\u007f', { type: 'edit-filter', text: 'rea' }],
    ['Backspace deletes a whole astral character', 'a😀', '\b', { type: 'edit-filter', text: 'a' }],
    ['Backspace on an empty draft stays empty', '', '\u007f', { type: 'edit-filter', text: '' }],
    ['Escape closes the prompt', 'read', '\u001b', { type: 'cancel-filter' }],
    ['Ctrl-C still interrupts', 'read', '\u0003', { type: 'interrupt' }],
    ['an arrow key is ignored', 'read', '\u001b[C', { type: 'none' }],
  ])('%s', (_name, draft, key, action) => {
    expect(actionForKey(key, draft)).toEqual(action);
  });
});

describe('actionsForLine', () => {
  it.each<[string, string, string | undefined, KeyAction[]]>([
    ['a', 'a', undefined, [{ type: 'run-all' }]],
    ['an empty line is Enter', '', undefined, [{ type: 'run-all' }]],
    ['f', 'f', undefined, [{ type: 'run-failed' }]],
    ['q', 'q', undefined, [{ type: 'quit' }]],
    ['surrounding spaces and a CR are ignored', ' q \r', undefined, [{ type: 'quit' }]],
    ['p opens the prompt', 'p', undefined, [{ type: 'open-filter' }]],
    [
      'p with text applies it in one line',
      'p read-*',
      undefined,
      [{ type: 'open-filter' }, { type: 'apply-filter', text: 'read-*' }],
    ],
    ['an unknown word is reported whole', 'quit', undefined, [{ type: 'unknown', input: 'quit' }]],
    ['with the prompt open, the line is the filter', 'q', 'x', [{ type: 'apply-filter', text: 'q' }]],
    ['with the prompt open, an empty line clears', '', '', [{ type: 'apply-filter', text: '' }]],
  ])('%s', (_name, line, draft, actions) => {
    expect(actionsForLine(line, draft)).toEqual(actions);
  });
});

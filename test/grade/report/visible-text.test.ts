// A student's text made visible: what a terminal or a reader would act on is shown instead.
import { describe, expect, it } from 'vitest';
import { visibleLine, visibleText } from '../../../src/grade/report/visible-text.ts';

describe('visibleText', () => {
  it.each([
    ['plain text, tabs and newlines as they are', 'a\tb\nc ✓ 日本', 'a\tb\nc ✓ 日本'],
    ['CRLF read as a newline', 'a\r\nb', 'a\nb'],
    ['a lone CR shown', 'a\rb', 'a␍b'],
    [
      'ESC, BEL, BS, NUL, VT, FF, DEL shown as control pictures',
      '\u001b[2J\u0007\b\u0000\u000b\u000c\u007f',
      '␛[2J␇␈␀␋␌␡',
    ],
    ['C1 controls escaped (NEL, CSI)', '\u0085\u009b', '\\u0085\\u009b'],
    ['separators escaped', '\u2028\u2029', '\\u2028\\u2029'],
    ['bidirectional controls escaped', '\u202e\u2066\u200f', '\\u202e\\u2066\\u200f'],
  ])('%s', (_, text, shown) => {
    expect(visibleText(text)).toBe(shown);
  });
});

describe('visibleLine', () => {
  it('shows each line break as \\n, so that a quoted thrown error starts no line of its own', () => {
    expect(visibleLine('Error: x\n::add-mask::hunter2\r\n115 passed, 0 failed\u2028y')).toBe(
      'Error: x\\n::add-mask::hunter2\\n115 passed, 0 failed\\u2028y',
    );
  });
});

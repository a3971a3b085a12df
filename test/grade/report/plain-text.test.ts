import { describe, expect, it } from 'vitest';
import { cut, oneLine, plainText } from '../../../src/grade/report/plain-text.ts';

describe('plainText', () => {
  it.each([
    ['keeps ordinary text, tabs and newlines', 'a\tb\nc ✓ 日本 🎉', 'a\tb\nc ✓ 日本 🎉'],
    ['strips SGR colour', '\u001b[31mred\u001b[0m', 'red'],
    ['strips other CSI sequences', '\u001b[2K\u001b[1Gline', 'line'],
    ['strips the one-byte C1 CSI', '\u009b31mred', 'red'],
    ['strips OSC hyperlinks', '\u001b]8;;https://x.test\u0007link\u001b]8;;\u001b\\', 'link'],
    ['keeps the text after an unterminated OSC', '\u001b]0;title\nnext', '\nnext'],
    ['turns CRLF into LF', 'a\r\nb', 'a\nb'],
    ['turns a lone CR into LF', 'a\rb', 'a\nb'],
    ['shows C0 controls as control pictures', 'a\u0000b\u0007c\u000bd', 'a\u2400b\u2407c\u240bd'],
    ['shows a lone ESC as a control picture', 'a\u001b', 'a\u241b'],
    ['shows DEL as a control picture', '\u007f', '\u2421'],
    ['turns NEL, LS and PS into LF', 'a\u0085b\u2028c\u2029d', 'a\nb\nc\nd'],
    ['replaces C1 controls', 'a\u0080b\u009fc', 'a\ufffdb\ufffdc'],
    ['replaces lone surrogates', 'a\ud800b\udc00', 'a\ufffdb\ufffd'],
    ['keeps surrogate pairs', '\ud83c\udf89', '🎉'],
    ['replaces XML noncharacters', '\ufffe\uffff', '\ufffd\ufffd'],
    ['shows the bidirectional controls as escapes', 'a\u202eb\u2066c\u061cd', 'a\\u202eb\\u2066c\\u061cd'],
  ])('%s', (_, input, output) => {
    expect(plainText(input)).toBe(output);
  });
});

describe('oneLine', () => {
  it('turns line breaks and tabs into spaces', () => {
    expect(oneLine('a\nb\r\nc\td')).toBe('a b c d');
  });
});

describe('cut', () => {
  it.each([
    ['leaves short text alone', 'abc', 5, 'abc'],
    ['cuts at the limit', 'abcdef', 4, 'abcd'],
    ['never splits a surrogate pair', 'ab🎉', 3, 'ab'],
  ])('%s', (_, text, max, out) => {
    expect(cut(text, max)).toBe(out);
  });
});

import { Parser, type Result } from 'tap-parser';
import { describe, expect, it } from 'vitest';
import { yamlLiteral, yamlString, yamlValue } from '../../../src/grade/report/yaml-text.ts';

// YAML lines read back as the diagnostic of a TAP test point, the way TAP consumers read them.
function diagnostic(lines: string[]): Record<string, unknown> {
  let diag: Record<string, unknown> | null = null;
  const extra: string[] = [];
  const parser = new Parser();
  parser.on('assert', (r: Result) => (diag = r.diag));
  parser.on('extra', (e: string) => extra.push(e));
  parser.end(['TAP version 14', '1..1', 'not ok 1 - x', '  ---', ...lines, '  ...', ''].join('\n'));
  expect(extra).toEqual([]);
  return diag ?? {};
}

describe('yamlValue', () => {
  it.each([
    ['an object', { content: '1: A', is_error: true, exit_code: 0 }],
    ['an array', [1, 'two', null]],
    ['a string with YAML syntax', '- [a]: {b} # c & *d !e |f >g'],
    ['a string with control characters', '\u001b[31mred\u0000\r\n'],
    ['a string with characters YAML rejects raw', '\u0085 \u2028 \u2029 \ufeff \ufffe \u007f'],
    ['unicode', 'café 日本語 🎉'],
    ['a number', 42],
    ['null', null],
  ])('%s reads back unchanged', (_, value) => {
    expect(diagnostic([`  v: ${yamlValue(value)}`]).v).toEqual(value);
  });

  it('escapes DEL, which YAML does not print raw', () => {
    expect(yamlValue('a\u007fb')).toBe('"a\\u007fb"');
  });

  it('writes undefined as null', () => {
    expect(yamlValue(undefined)).toBe('null');
  });

  it('escapes the bidirectional controls, as every other format does, and reads back the same', () => {
    const value = { content: 'a\u202eb\u2066c\u200fd\u061ce' };
    expect(yamlValue(value)).toBe('{"content":"a\\u202eb\\u2066c\\u200fd\\u061ce"}');
    expect(diagnostic([`  v: ${yamlValue(value)}`]).v).toEqual(value);
  });
});

describe('yamlString', () => {
  it('reads back as the plain text', () => {
    expect(diagnostic([`  s: ${yamlString('a: b # c\u001b[1m\u0007')}`]).s).toBe('a: b # c\u2407');
  });
});

describe('yamlLiteral', () => {
  it.each([
    ['one line', 'hello'],
    ['several lines', 'a\nb\nc'],
    ['a first line indented', '    indented\nnot'],
    ['blank lines inside', 'a\n\n\nb'],
    ['TAP and YAML markers', '...\n---\nnot ok 2 - fake\n# comment\nkey: value'],
    ['tabs', '\ta\tb'],
  ])('%s reads back unchanged', (_, text) => {
    expect(diagnostic(yamlLiteral('d', text, '  ')).d).toBe(text);
  });

  it('drops trailing newlines', () => {
    expect(diagnostic(yamlLiteral('d', 'a\n\n', '  ')).d).toBe('a');
  });
});

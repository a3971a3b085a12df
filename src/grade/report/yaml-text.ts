// YAML for TAP's diagnostic blocks, by hand rather than through a YAML library: every value is written as JSON (a
// YAML 1.2 flow node) or a literal block, the two forms whose escaping this file must get exactly right for a strict
// TAP parser (tap-parser, tested), and a library's choice of styles would vary with the value.
import { unicodeEscape, unseenClass } from '../../unseen-characters.ts';
import { plainText } from './plain-text.ts';

// YAML 1.2 is a superset of JSON, so a JSON value is a YAML flow node. JSON.stringify leaves a few characters
// raw that YAML parsers reject or read as line breaks (DEL, C1 controls, U+2028/9, a BOM, noncharacters), and the
// bidirectional controls that reorder what a log viewer shows (as every other format escapes them); they only occur
// inside strings, where a \uXXXX escape means the same thing to both.
const NOT_YAML_PRINTABLE = unseenClass(['del', 'c1', 'bidi', 'separators'], 'g', '\\ufeff\\ufffe\\uffff');

// Any JSON value as a one-line YAML flow node (`undefined` becomes null); strings inside keep every character.
export function yamlValue(value: unknown): string {
  return escapeJsonText(JSON.stringify(value) ?? 'null');
}

// JSON text with those characters escaped as \uXXXX: the same value, and no line break a log reader would see.
export function escapeJsonText(json: string): string {
  return json.replace(NOT_YAML_PRINTABLE, unicodeEscape);
}

// Text as a double-quoted YAML scalar, made plain first (no colour, visible control characters).
export function yamlString(text: string): string {
  return yamlValue(plainText(text));
}

// `key: |2-` and the text as a literal block scalar whose lines are indented two spaces deeper than `indent`
// (the key's own indentation). The explicit indentation indicator keeps a first line that starts with spaces
// from being taken as the block's indentation; blank lines keep the indentation so a line-oriented reader
// (TAP's YAML block) still sees them as part of the block. Trailing newlines are dropped (`-`).
export function yamlLiteral(key: string, text: string, indent: string): string[] {
  const lines = plainText(text).replace(/\n+$/, '').split('\n');
  return [`${indent}${key}: |2-`, ...lines.map((line) => `${indent}  ${line}`)];
}

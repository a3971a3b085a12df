// Text that may come from a student's program, made safe for every CI format: no colour, one line-break
// convention, and no character that XML, YAML or a log viewer would reject or act on.
import { unicodeEscape, unseenClass } from '../../unseen-characters.ts';

// CSI (`ESC [ … final`, or the one-byte C1 CSI), OSC (`ESC ] … BEL|ST`) and two-byte escapes (`ESC x`).
const ANSI_ESCAPE =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u001b[@-_]/g;

// C0 controls except tab and newline, and DEL: shown as their Unicode Control Pictures (U+2400 + code, U+2421).
const C0_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

// Every other line break: a lone `\r` (a .NET log reader ends a line there), NEL, and U+2028/9 (JavaScript's
// `.` stops at them, so line-oriented parsers such as tap-parser split there).
const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g;

// C1 controls, lone surrogates, and the noncharacters XML 1.0 excludes.
const UNREPRESENTABLE =
  /[\u0080-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// The bidirectional controls, which reorder what a log viewer shows ("Trojan Source"): shown as `\uXXXX` escapes,
// as the terminal shows them (visible-text.ts).
const BIDI = unseenClass(['bidi'], 'g');

// Strips colour and other terminal escapes, writes every line break as `\n`, and makes the remaining control
// characters visible instead of passing them through.
export function plainText(text: string): string {
  return text
    .replace(ANSI_ESCAPE, '')
    .replace(LINE_BREAK, '\n')
    .replace(C0_CONTROL, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0))))
    .replace(UNREPRESENTABLE, '\ufffd')
    .replace(BIDI, unicodeEscape);
}

// Plain text on one line: line breaks and tabs become spaces (for names, titles and TAP descriptions).
export function oneLine(text: string): string {
  return plainText(text).replace(/[\n\t]/g, ' ');
}

// The first `max` UTF-16 units of `text`, never splitting a surrogate pair.
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, Math.max(0, end));
}

// Text a student's program printed, made safe to show after a prefix such as `[your_program] `: every character
// that could move the cursor, clear the screen, end the line early or reorder what follows is shown as a visible
// stand-in instead of acting. Pure.
import { unicodeEscape, unseenClass } from '../../unseen-characters.ts';

// C0 controls but tab and newline (ESC, BEL, backspace, a lone CR, VT, FF …), and DEL: shown as their Unicode
// Control Pictures (U+2400 + code, U+2421 for DEL), so `\u001b[2J` reads `␛[2J`.
const C0_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

// C1 controls (NEL, the one-character CSI U+009B), line and paragraph separators, and the bidirectional controls
// that reorder what a terminal or log viewer shows ("Trojan Source"): shown as `\uXXXX` escapes.
const INVISIBLE_BREAK = unseenClass(['c1', 'bidi', 'separators'], 'g');

// The text with `\r\n` read as `\n` and every other control or separator made visible; `\n` and tab stay.
export function visibleText(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(C0_CONTROL, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0))))
    .replace(INVISIBLE_BREAK, unicodeEscape);
}

// Text that is one line by contract (a verdict's message, a hint) but may quote the program (a thrown error's
// message, a key of its result): made visible as above, and each line break shown as `\n`, so that nothing the
// program wrote starts a line of the report (GitHub Actions reads every line of a step's log for commands).
export function visibleLine(text: string): string {
  return visibleText(text).replace(/\n/g, '\\n');
}

// A submission's name (a directory's, which a course may take from students) as every report writes it: made
// visible as above, each line break as `\n`, so that a name never starts a line of its own, nor a row of a CSV.
export function nameText(name: string): string {
  return visibleLine(name);
}

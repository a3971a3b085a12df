// The characters that must not reach a terminal, a log, a report or a file name raw, named once: each writer
// (visible-text, the diff, TAP's YAML, safe JSON, a report's file name, a pasted shell word) builds its own class
// from these parts, since each has its own way to show them (a control picture, a `\uXXXX` escape, `$'…'`, `_`).

// Sources of regular-expression character classes, to be joined inside `[…]`.
export const UNSEEN = {
  // C0 controls: ESC starts a terminal's commands, CR and backspace overwrite what was shown.
  c0: '\\u0000-\\u001f',
  del: '\\u007f',
  // C1 controls: NEL breaks a line, U+009B is a one-character CSI.
  c1: '\\u0080-\\u009f',
  // The bidirectional controls that reorder what is shown ("Trojan Source"): ALM, LRM, RLM, the embeddings and
  // overrides, the isolates.
  bidi: '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069',
  // The line and paragraph separators: line breaks to many readers, none to others.
  separators: '\\u2028\\u2029',
  // Characters that take no space: zero-width space, joiners, word joiner, invisible operators, the BOM.
  zeroWidth: '\\u200b-\\u200d\\u2060-\\u2065\\ufeff',
} as const;

// A character class (`[…]`) of the named parts and any `extra` characters (a class's source, escaped).
export function unseenClass(parts: (keyof typeof UNSEEN)[], flags = '', extra = ''): RegExp {
  return new RegExp(`[${parts.map((part) => UNSEEN[part]).join('')}${extra}]`, flags);
}

// A character as a `\uXXXX` escape, as JSON, YAML and JavaScript read it back.
export function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

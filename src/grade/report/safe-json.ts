// JSON text that holds, raw, no character that acts on a terminal or hides in a log: DEL, the C1 controls, the
// line and paragraph separators, and the bidirectional and invisible format characters are written as `\uXXXX`
// escapes (JSON.stringify escapes C0 controls itself). The data read back is the same; only its text differs. Pure.

const UNSAFE_IN_JSON = /[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// JSON text that holds, raw, no character that acts on a terminal or hides in a log: DEL, the C1 controls, the
// line and paragraph separators, and the bidirectional and invisible format characters are written as `\uXXXX`
// escapes (JSON.stringify escapes C0 controls itself). The data read back is the same; only its text differs. Pure.

import { unicodeEscape, unseenClass } from '../../unseen-characters.ts';

const UNSAFE_IN_JSON = unseenClass(['del', 'c1', 'bidi', 'separators', 'zeroWidth'], 'g');

export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_IN_JSON, unicodeEscape);
}

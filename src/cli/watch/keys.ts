// What a key means in watch mode, as data. The same table serves a terminal in raw mode (one key at a time) and
// piped stdin (one line at a time), so scripts and tests drive watch mode with the keys a person presses.

// Everything a key can ask of the watch loop.
export type KeyAction =
  | { type: 'run-all' }
  | { type: 'run-failed' }
  | { type: 'open-filter' }
  | { type: 'edit-filter'; text: string }
  | { type: 'apply-filter'; text: string }
  | { type: 'cancel-filter' }
  | { type: 'quit' }
  // Ctrl-C: quit as `q` does, but exit 130 (interrupted) whatever the last verdict, as every command does.
  | { type: 'interrupt' }
  | { type: 'unknown'; input: string }
  | { type: 'none' };

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const ESCAPE = '\u001b';
const BACKSPACES = new Set(['\u007f', '\b']);
const ENTERS = new Set(['\r', '\n', '\r\n']);

// Splits one chunk read in raw mode into keys: a paste or a fast typist delivers several at once, and an
// arrow key arrives as one escape sequence that must not be read as Escape followed by letters.
export function splitKeys(chunk: string): string[] {
  const keys: string[] = [];
  // CSI (ESC [ params final) and SS3 (ESC O x) sequences, CRLF, or one code point.
  const pattern = /\u001b\[[0-?]*[ -/]*[@-~]|\u001bO.|\r\n|[\s\S]/gu;
  for (const match of chunk.matchAll(pattern)) keys.push(match[0]);
  return keys;
}

// The action for one key pressed in raw mode. `draft` is the filter being typed when the filter prompt is
// open (then keys edit it), undefined otherwise.
export function actionForKey(key: string, draft: string | undefined): KeyAction {
  if (key === CTRL_C) return { type: 'interrupt' };
  if (draft !== undefined) {
    if (ENTERS.has(key)) return { type: 'apply-filter', text: draft };
    if (key === ESCAPE) return { type: 'cancel-filter' };
    if (BACKSPACES.has(key)) return { type: 'edit-filter', text: [...draft].slice(0, -1).join('') };
    if (isPrintable(key)) return { type: 'edit-filter', text: draft + key };
    return { type: 'none' };
  }
  if (ENTERS.has(key) || key === 'a') return { type: 'run-all' };
  if (key === 'f') return { type: 'run-failed' };
  if (key === 'p') return { type: 'open-filter' };
  if (key === 'q' || key === CTRL_D) return { type: 'quit' };
  if (isPrintable(key)) return { type: 'unknown', input: key };
  return { type: 'none' };
}

// The actions for one line of piped stdin. With the filter prompt open the whole line is the filter; otherwise
// the line is a key (`a`, `f`, `p`, `q`; an empty line is Enter), and `p <text>` opens and applies a filter
// in one line for scripts.
export function actionsForLine(line: string, draft: string | undefined): KeyAction[] {
  const text = line.replace(/\r$/, '');
  if (draft !== undefined) return [{ type: 'apply-filter', text }];
  const word = text.trim();
  const filter = /^p\s+(.+)$/su.exec(word);
  if (filter?.[1] !== undefined) return [{ type: 'open-filter' }, { type: 'apply-filter', text: filter[1] }];
  if (word === '') return [{ type: 'run-all' }];
  if ([...word].length !== 1) return [{ type: 'unknown', input: word }];
  return [actionForKey(word, undefined)];
}

function isPrintable(key: string): boolean {
  return [...key].length === 1 && !/\p{Cc}/u.test(key);
}

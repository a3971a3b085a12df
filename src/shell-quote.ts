// Words printed as commands for a student to paste into a POSIX shell.
import { unseenClass } from './unseen-characters.ts';

// A word as a POSIX shell reads it back unchanged.
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (!UNSEEN.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  // A control or invisible character would act on the terminal that shows the command, or hide in it: bash's and
  // zsh's $'…' quoting writes each as an escape that reads back as the character.
  const escaped = [...word].map((c) => {
    if (c === '\\' || c === "'") return `\\${c}`;
    if (!UNSEEN.test(c)) return c;
    const code = c.codePointAt(0)!;
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return `$'${escaped.join('')}'`;
}

// Controls (a line break among them), and the characters that reorder or hide text: what a pasted word must not
// hold raw.
const UNSEEN = unseenClass(['c0', 'del', 'c1', 'bidi', 'separators', 'zeroWidth'], 'u');

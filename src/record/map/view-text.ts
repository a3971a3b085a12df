// What a file view shows, read back from its text in any of the numbering styles agents use: Claude Code's
// `     N→line`, `cat -n`'s `     N\tline`, the course's `N: line`, or no numbers at all. Claude Code appends
// `<system-reminder>` blocks to results; they are the harness talking, not the file, and are removed first.

// One shown line: its number (undefined when the text carries none) and its text.
export type ShownLine = { n?: number; text: string };

// A view's lines, and the numbering style they came in.
export type ShownFile = { style: 'arrow' | 'tab' | 'colon' | 'plain'; lines: ShownLine[] };

const STYLES = [
  { style: 'arrow', pattern: /^ *(\d+)→(.*)$/s },
  { style: 'tab', pattern: /^ *(\d+)\t(.*)$/s },
  { style: 'colon', pattern: /^(\d+): (.*)$/s },
] as const;

// Text with every `<system-reminder>…</system-reminder>` block removed, and the blank lines they leave at the end.
export function withoutReminders(text: string): string {
  if (!text.includes('<system-reminder>')) return text;
  return text.replace(/\n*<system-reminder>[\s\S]*?<\/system-reminder>\n*/g, '\n').replace(/\n+$/, '');
}

// Claude Code's result for an empty file, and the course's.
const EMPTY_FILE =
  /^\s*(?:<system-reminder>\s*Warning: the file exists but the contents are empty\.?\s*<\/system-reminder>|\(empty file\))\s*$/;

// Whether a view's text says the file is empty.
export function showsEmptyFile(text: string): boolean {
  return EMPTY_FILE.test(text);
}

// The shown lines of a view's text. A style is used only when every line carries it (an empty text is no lines).
// Line breaks after the last numbered line are the message's, not the file's: a file's empty line is still
// numbered (`     3→`). A Read result without Claude Code's reminder (`claude -p`'s stream-json) may end in one.
export function readShownFile(raw: string): ShownFile {
  const text = withoutReminders(raw);
  if (text === '' || showsEmptyFile(raw)) return { style: 'plain', lines: [] };
  const rows = text.replace(/\n+$/, '').split('\n');
  for (const { style, pattern } of STYLES) {
    const parsed = rows.map((row) => pattern.exec(row));
    if (parsed.every((m) => m !== null)) {
      return { style, lines: parsed.map((m) => ({ n: Number(m?.[1]), text: m?.[2] ?? '' })) };
    }
  }
  return { style: 'plain', lines: text.split('\n').map((row) => ({ text: row })) };
}

// The file's text from a complete view of it. Claude Code's Read shows a last, empty line after a final newline
// (it splits on `\n`), so its lines joined by `\n` are the file exactly; the course's view shows no such line,
// so a final newline is assumed, which every later view of the file shows the same either way.
export function fileTextFromView(shown: ShownFile): string {
  const text = shown.lines.map((l) => l.text).join('\n');
  if (shown.style === 'arrow' || shown.lines.length === 0) return text;
  // Unnumbered text as read (Gemini CLI's read_file) shows its final newline itself.
  if (shown.style === 'plain' && shown.lines.length > 1 && shown.lines.at(-1)?.text === '') return text;
  return `${text}\n`;
}

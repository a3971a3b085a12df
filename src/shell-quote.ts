// Words printed as commands for a student to paste into a POSIX shell.

// A word as a POSIX shell reads it back unchanged.
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

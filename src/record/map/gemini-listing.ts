// Gemini CLI's list_directory result read back: `Directory listing for /p/src:`, then one entry a row, directories
// as `[DIR] name`, one level only (and, after a blank row, how many entries its ignore files left out); `Directory
// /p/src is empty.` for none. The course's view of the directory shows these as its first level.

// The entries it lists (`lib/`, `a.ts`), or undefined when the text is no such listing.
export function readGeminiListing(content: string): string[] | undefined {
  if (/^Directory .* is empty\.$/.test(content.trim())) return [];
  const rows = content.split('\n');
  if (!/^Directory listing for .*:$/.test(rows[0] ?? '')) return undefined;
  const entries: string[] = [];
  for (const row of rows.slice(1)) {
    if (row === '') break;
    entries.push(row.startsWith('[DIR] ') ? `${row.slice('[DIR] '.length)}/` : row);
  }
  return entries;
}

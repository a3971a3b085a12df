const NEWLINE = 0x0a;

// The lines of a text as view and grep show them: a final newline ends the last line rather than
// starting an empty one, and the `\r` of a `\r\n` is dropped.
export function splitLines(text: string): string[] {
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const lines = parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (last !== '') lines.push(last);
  return lines;
}

// How many lines a file has, counted as splitLines counts them (bytes, so binary-safe edits agree with view).
export function countLines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE ? count + 1 : count;
}

// The byte offset just past the newline ending line `line` (1-based); 0 for line 0, the end when it has none.
export function offsetAfterLine(bytes: Buffer, line: number): number {
  let offset = 0;
  for (let n = 0; n < line; n++) {
    const at = bytes.indexOf(NEWLINE, offset);
    if (at === -1) return bytes.length;
    offset = at + 1;
  }
  return offset;
}

// The 1-based line on which the byte at `offset` sits.
export function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(NEWLINE); at !== -1 && at < offset; at = bytes.indexOf(NEWLINE, at + 1)) line++;
  return line;
}

// "1 line", "3 lines": how error texts say a file's length.
export function lineTally(count: number): string {
  return `${count} ${count === 1 ? 'line' : 'lines'}`;
}

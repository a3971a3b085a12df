// Splits a byte stream into lines as chunks arrive, whatever the chunk boundaries (a line, or a UTF-8
// character, may span several), and refuses to buffer a line past a limit. Pure.
export class LineSplitter {
  private pending: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  // The lines completed by `chunk` (without their `\n`); `overflow` when the unfinished line is past the limit.
  push(chunk: Buffer): { lines: string[]; overflow: boolean } {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      lines.push(Buffer.concat([...this.pending, chunk.subarray(start, nl)]).toString('utf8'));
      this.pending = [];
      this.bytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.bytes += chunk.length - start;
    }
    return { lines, overflow: this.bytes > this.maxLineBytes };
  }

  // The unfinished line, if any, once the stream has ended: a last line without its newline is still a line.
  flush(): string | undefined {
    if (this.bytes === 0) return undefined;
    const text = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.bytes = 0;
    return text;
  }
}

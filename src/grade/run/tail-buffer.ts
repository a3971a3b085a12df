// Keeps the last `max` characters of a stream of text, counting what it dropped: a program that prints a
// gigabyte costs the grader a few kilobytes, and the end of a crash (where the error is) survives.
export class TailBuffer {
  private text = '';
  private dropped = 0;

  constructor(private readonly max: number) {}

  // Appends text, dropping the oldest characters past the limit.
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.max) {
      this.dropped += this.text.length - this.max;
      this.text = this.text.slice(-this.max);
    }
  }

  // Everything kept since the last take (with a note of what was dropped), and starts afresh.
  take(): string {
    const note = this.dropped > 0 ? `[… ${this.dropped} earlier characters not kept …]\n` : '';
    const text = note + this.text;
    this.text = '';
    this.dropped = 0;
    return text;
  }
}

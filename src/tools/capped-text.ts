import { StringDecoder } from 'node:string_decoder';
import { cut } from './text-limit.ts';

// Decodes a byte stream as UTF-8 while it arrives, keeping only the first `limit` characters and counting
// the rest, so a command that prints a gigabyte costs no more memory than one that prints a line.
export class CappedText {
  private readonly decoder = new StringDecoder('utf8');
  private kept = '';
  private dropped = 0;

  constructor(private readonly limit: number) {}

  write(chunk: Buffer): void {
    this.add(this.decoder.write(chunk));
  }

  // The text kept, then `\n[output truncated: C more characters]` when some was dropped.
  end(): string {
    this.add(this.decoder.end());
    return this.dropped === 0 ? this.kept : `${this.kept}\n[output truncated: ${this.dropped} more characters]`;
  }

  private add(text: string): void {
    if (this.dropped > 0) {
      this.dropped += text.length;
      return;
    }
    const head = cut(text, this.limit - this.kept.length);
    this.kept += head;
    this.dropped += text.length - head.length;
  }
}

// Keeps the last `max` characters of a stream of text, counting what it dropped: a program that prints a
// gigabyte costs the grader a few kilobytes, and the end of a crash (where the error is) survives.

// The kept text and how many characters before it were dropped, as a value (the program machine keeps one).
export type Tail = { text: string; dropped: number };

export const EMPTY_TAIL: Tail = { text: '', dropped: 0 };

// `tail` with `chunk` appended, the oldest characters past `max` dropped.
export function appendTail(tail: Tail, chunk: string, max: number): Tail {
  const text = tail.text + chunk;
  if (text.length <= max) return { text, dropped: tail.dropped };
  return { text: text.slice(-max), dropped: tail.dropped + text.length - max };
}

// What `tail` holds, with a note of what was dropped.
export function tailText(tail: Tail): string {
  const note = tail.dropped > 0 ? `[… ${tail.dropped} earlier characters not kept …]\n` : '';
  return note + tail.text;
}

// The same as an object that is filled and emptied.
export class TailBuffer {
  private tail = EMPTY_TAIL;

  constructor(private readonly max: number) {}

  // Appends text, dropping the oldest characters past the limit.
  push(chunk: string): void {
    this.tail = appendTail(this.tail, chunk, this.max);
  }

  // Everything kept since the last take (with a note of what was dropped), and starts afresh.
  take(): string {
    const text = tailText(this.tail);
    this.tail = EMPTY_TAIL;
    return text;
  }
}

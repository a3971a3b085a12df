import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readKeys, type KeyInputEvent } from '../../../src/cli/watch/key-input.ts';

// A stream that says it is a terminal, recording what raw mode it was put in.
function fakeTerminal(): PassThrough & { isTTY: boolean; setRawMode: (raw: boolean) => void; modes: boolean[] } {
  const stream = new PassThrough() as PassThrough & {
    isTTY: boolean;
    setRawMode: (raw: boolean) => void;
    modes: boolean[];
  };
  stream.isTTY = true;
  stream.modes = [];
  stream.setRawMode = (raw) => void stream.modes.push(raw);
  return stream;
}

// Lets the stream deliver what was written to it.
const drain = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('readKeys from a pipe', () => {
  const bytes = Buffer.from('p réad\n');
  const split = bytes.indexOf(0xc3) + 1; // between the two bytes of é
  it.each<[string, Array<string | Buffer>, string[]]>([
    ['one line per key', ['a\nf\nq\n'], ['a', 'f', 'q']],
    ['lines split across chunks', ['a', '\nf', '\n'], ['a', 'f']],
    ['an empty line is kept (it is Enter)', ['\n'], ['']],
    ['a line without its newline waits for it', ['a\nq'], ['a']],
    ['a character split across chunks arrives whole', [bytes.subarray(0, split), bytes.subarray(split)], ['p réad']],
  ])('%s', async (_name, chunks, lines) => {
    const stdin = new PassThrough();
    const seen: KeyInputEvent[] = [];
    const input = readKeys(stdin, (e) => seen.push(e));
    for (const chunk of chunks) stdin.write(chunk);
    await drain();
    input.close();
    expect(seen).toEqual(lines.map((line) => ({ kind: 'line', line })));
  });

  it('reports nothing after close', async () => {
    const stdin = new PassThrough();
    const seen: KeyInputEvent[] = [];
    readKeys(stdin, (e) => seen.push(e)).close();
    stdin.write('q\n');
    await drain();
    expect(seen).toEqual([]);
  });
});

describe('readKeys from a terminal', () => {
  it('puts the terminal in raw mode and reports each key of a chunk', async () => {
    const stdin = fakeTerminal();
    const seen: KeyInputEvent[] = [];
    const input = readKeys(stdin, (e) => seen.push(e));
    stdin.write('a\u001b[Aq');
    await drain();
    expect(stdin.modes).toEqual([true]);
    expect(seen).toEqual([
      { kind: 'key', key: 'a' },
      { kind: 'key', key: '\u001b[A' },
      { kind: 'key', key: 'q' },
    ]);
    input.close();
  });

  it('restores the terminal on close', () => {
    const stdin = fakeTerminal();
    readKeys(stdin, () => {}).close();
    expect(stdin.modes).toEqual([true, false]);
  });
});

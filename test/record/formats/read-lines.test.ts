// The line reader: a file read in chunks gives the same lines as the text in memory, whatever falls on a chunk
// boundary, and a line over the limit is reported by its length, not held.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Line, linesOfFile, linesOfText, looksBinary } from '../../../src/record/formats/read-lines.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-lines-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function fileLines(text: string | Uint8Array, maxLineBytes?: number): Promise<Line[]> {
  const file = join(dir, 'lines.txt');
  await writeFile(file, text);
  const lines: Line[] = [];
  for await (const line of linesOfFile(file, maxLineBytes === undefined ? {} : { maxLineBytes })) lines.push(line);
  return lines;
}

const MiB = 1024 * 1024;

describe('linesOfFile and linesOfText', () => {
  it.each([
    ['lines with and without a final newline', 'a\nb\n\nc'],
    ['CRLF', 'a\r\nb\r\n'],
    ['a multi-byte character on the 1 MiB chunk boundary', `${'x'.repeat(MiB - 1)}é\n${'y'.repeat(3 * MiB)}\nz\n`],
    ['a newline exactly at the chunk boundary', `${'x'.repeat(MiB - 1)}\n${'y'.repeat(MiB)}\n`],
  ])('%s', async (_, text) => {
    const expected = [...linesOfText(text)];
    expect(await fileLines(text)).toEqual(expected);
    expect(expected.map((l) => ('text' in l ? l.text : '')).join('\n')).toBe(
      text.replaceAll('\r\n', '\n').replace(/\n$/, ''),
    );
  });

  it('reports a line over the limit by its byte length, and goes on with the next', async () => {
    const text = `short\n${'é'.repeat(600)}\nafter\n`;
    const expected = [
      { line: 1, text: 'short' },
      { line: 2, tooLong: 1200 },
      { line: 3, text: 'after' },
    ];
    expect(await fileLines(text, 1000)).toEqual(expected);
    expect([...linesOfText(text, { maxLineBytes: 1000 })]).toEqual(expected);
  });

  it('a line over the limit across several chunks', async () => {
    const lines = await fileLines(`${'x'.repeat(3 * MiB + 5)}\nend`, 2 * MiB);
    expect(lines).toEqual([
      { line: 1, tooLong: 3 * MiB + 5 },
      { line: 2, text: 'end' },
    ]);
  });

  it('invalid UTF-8 becomes U+FFFD rather than an error', async () => {
    expect(await fileLines(new Uint8Array([0x61, 0xff, 0x62, 0x0a]))).toEqual([{ line: 1, text: 'a\uFFFDb' }]);
  });
});

describe('looksBinary', () => {
  it('is true for a NUL byte near the start, false for text', () => {
    expect(looksBinary(new Uint8Array([1, 2, 0, 3]))).toBe(true);
    expect(looksBinary('{"type":"user"}\n')).toBe(false);
    expect(looksBinary(`${'x'.repeat(9000)}\0`)).toBe(false);
  });
});

describe('a byte order mark', () => {
  it('is dropped from the start of the first line only, from a file as from text', async () => {
    const text = '\uFEFF{"a":1}\n\uFEFFb\n';
    const expected = [
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '\uFEFFb' },
    ];
    expect([...linesOfText(text)]).toEqual(expected);
    expect(await fileLines(text)).toEqual(expected);
  });
});

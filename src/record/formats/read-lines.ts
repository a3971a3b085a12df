// A transcript as a stream of lines, from a file or from text in memory, with the same limits either way: a file
// is never read into one string (transcripts reach hundreds of megabytes), and one line is held only up to a limit.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import { createGunzip } from 'node:zlib';

// One line of a transcript (1-based), or the fact that it was longer than the limit (its text is not kept).
export type Line = { line: number; text: string } | { line: number; tooLong: number };

// How long one line may be. Claude Code lines reach a few megabytes (an Edit's `originalFile`); this is far above
// any real line and keeps a runaway line (a binary or corrupted file) from taking the memory.
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

// How much of the start is checked for NUL bytes: text transcripts never hold one, binary files almost always do.
const BINARY_PROBE_BYTES = 8000;
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export type LineLimits = { maxLineBytes?: number };

// Whether the start of a file looks binary (a NUL byte), as git decides it.
export function looksBinary(start: Uint8Array | string): boolean {
  if (typeof start === 'string') return start.slice(0, BINARY_PROBE_BYTES).includes('\0');
  return start.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

// Whether bytes start as gzip does (RFC 1952's magic number): such a file is read through gunzip.
export function isGzip(start: Uint8Array): boolean {
  return start[0] === 0x1f && start[1] === 0x8b;
}

// The first bytes of a file, for the binary check, without reading the rest; of a gzip file, the first bytes
// it decompresses to.
export async function readStart(file: string): Promise<Uint8Array> {
  const raw = await readRawStart(file);
  if (!isGzip(raw)) return raw;
  const parts: Uint8Array[] = [];
  let held = 0;
  for await (const chunk of chunksOf(file, true)) {
    parts.push(chunk.slice(0, BINARY_PROBE_BYTES - held));
    held += parts.at(-1)?.length ?? 0;
    if (held >= BINARY_PROBE_BYTES) break;
  }
  return Buffer.concat(parts);
}

async function readRawStart(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = new Uint8Array(BINARY_PROBE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BINARY_PROBE_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

// The lines of a file, read in 1 MiB chunks. A trailing "\r" is dropped (CRLF files), invalid UTF-8 becomes U+FFFD,
// a byte order mark is dropped.
export async function* linesOfFile(file: string, limits: LineLimits = {}): AsyncGenerator<Line> {
  const max = limits.maxLineBytes ?? MAX_LINE_BYTES;
  const gzip = isGzip(await readRawStart(file));
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let parts: Uint8Array[] = [];
  let held = 0;
  let overflow = 0;
  let line = 1;
  const take = (): Line => {
    const text = overflow > 0 ? '' : decode(decoder, parts, held);
    const done: Line =
      overflow > 0
        ? { line, tooLong: overflow }
        : { line, text: line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text };
    parts = [];
    held = 0;
    overflow = 0;
    line += 1;
    return done;
  };
  const hold = (bytes: Uint8Array): void => {
    if (overflow > 0) overflow += bytes.length;
    else if (held + bytes.length > max) {
      overflow = held + bytes.length;
      parts = [];
      held = 0;
    } else if (bytes.length > 0) {
      parts.push(bytes.slice());
      held += bytes.length;
    }
  };
  for await (const bytes of chunksOf(file, gzip)) {
    let from = 0;
    for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, from)) {
      hold(bytes.subarray(from, at));
      yield take();
      from = at + 1;
    }
    hold(bytes.subarray(from));
  }
  if (held > 0 || overflow > 0) yield take();
}

// A file's bytes in chunks of up to 1 MiB (a chunk is valid until the next is asked for), decompressed when
// `gzip`. A gzip stream that does not decompress throws its zlib error (code Z_…).
async function* chunksOf(file: string, gzip: boolean): AsyncGenerator<Uint8Array> {
  if (gzip) {
    const source = createReadStream(file, { highWaterMark: CHUNK_BYTES });
    const gunzip = createGunzip({ chunkSize: 64 * 1024 });
    source.on('error', (error) => gunzip.destroy(error));
    try {
      for await (const chunk of source.pipe(gunzip)) yield chunk as Buffer;
    } finally {
      source.destroy();
      gunzip.destroy();
    }
    return;
  }
  const handle = await open(file, 'r');
  try {
    const chunk = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      yield chunk.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

function decode(decoder: TextDecoder, parts: Uint8Array[], held: number): string {
  let bytes: Uint8Array;
  if (parts.length === 1) bytes = parts[0] as Uint8Array;
  else {
    bytes = new Uint8Array(held);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
  }
  const text = decoder.decode(bytes);
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

// The lines of text already in memory, under the same limit (measured in UTF-8 bytes, as for a file).
export function* linesOfText(text: string, limits: LineLimits = {}): Generator<Line> {
  const max = limits.maxLineBytes ?? MAX_LINE_BYTES;
  let line = 1;
  let from = text.startsWith('\uFEFF') ? 1 : 0;
  while (from < text.length) {
    const at = text.indexOf('\n', from);
    const end = at === -1 ? text.length : at;
    let piece = text.slice(from, end);
    if (piece.endsWith('\r')) piece = piece.slice(0, -1);
    const bytes = piece.length > max / 3 ? Buffer.byteLength(piece) : piece.length;
    yield bytes > max ? { line, tooLong: bytes } : { line, text: piece };
    line += 1;
    from = end + 1;
  }
}

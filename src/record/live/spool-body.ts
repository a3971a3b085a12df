// One HTTP body on its way to the capture: decompressed when the upstream compressed it, decoded as UTF-8, keys
// redacted and JSON-escaped chunk by chunk into a spool file, so a long stream costs disk, never memory. What
// reaches the spool is the inside of a JSON string literal, ready to be copied between two quotes.
import { createWriteStream, type WriteStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { streamRedactor } from './redact-secrets.ts';

// A body being spooled: feed it raw bytes as they pass, then `end()`.
export type BodySpool = {
  // False when the disk is behind: the caller waits for `drained()` before feeding more, so memory stays flat.
  write: (chunk: Buffer) => boolean;
  drained: () => Promise<void>;
  // Resolves once everything is on disk; `omitted` says why the body is not in the capture, when it is not.
  end: () => Promise<{ bytes: number; omitted?: string }>;
};

const TEXT_TYPE = /^(text\/|application\/([\w.+-]*json|x-ndjson|javascript|xml|x-www-form-urlencoded))/i;

// Starts spooling a body with these headers into `file`.
export function spoolBody(
  file: string,
  headers: { contentType: string | undefined; contentEncoding: string | undefined },
): BodySpool {
  const out = createWriteStream(file);
  let bytes = 0;
  const type = headers.contentType ?? '';
  // A body without a content type is a request's JSON more often than not; anything declared non-text is left out.
  const omitted = type !== '' && !TEXT_TYPE.test(type) ? `a ${type.split(';')[0]} body is not text` : undefined;
  const decode = omitted === undefined ? textSink(out) : undefined;
  const inflate = decode === undefined ? undefined : decompressor(headers.contentEncoding);
  let failed: string | undefined =
    inflate === null ? `content-encoding ${headers.contentEncoding} cannot be decoded` : omitted;
  if (inflate) {
    inflate.on('data', (c: Buffer) => decode?.push(c));
    inflate.on(
      'error',
      (e: Error) => (failed = `the ${headers.contentEncoding} body does not decompress (${e.message})`),
    );
  }
  return {
    write(chunk) {
      bytes += chunk.length;
      if (failed !== undefined) return true;
      if (inflate) inflate.write(chunk);
      else decode?.push(chunk);
      return !out.writableNeedDrain && !(inflate?.writableNeedDrain ?? false);
    },
    drained: () =>
      Promise.all(
        [out, inflate].map(
          (stream) =>
            new Promise<void>((done) => (stream?.writableNeedDrain === true ? stream.once('drain', done) : done())),
        ),
      ).then(() => {}),
    async end() {
      if (inflate && failed === undefined) {
        await new Promise<void>((done) => {
          inflate.once('end', done).once('error', () => done());
          inflate.end();
        });
      }
      decode?.end();
      await new Promise<void>((done, fail) => out.end((e?: Error | null) => (e ? fail(e) : done())));
      return failed === undefined ? { bytes } : { bytes, omitted: failed };
    },
  };
}

// undefined: nothing to undo; null: an encoding Node cannot decode (zstd on Node 20).
function decompressor(encoding: string | undefined): Transform | undefined | null {
  const name = (encoding ?? '').trim().toLowerCase();
  if (name === '' || name === 'identity') return undefined;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'br') return createBrotliDecompress();
  if (name === 'deflate') return createInflate();
  return null;
}

// UTF-8 decoding that survives a character split across chunks, then redaction, then JSON string escaping.
function textSink(out: WriteStream): { push: (chunk: Buffer) => void; end: () => void } {
  const decoder = new StringDecoder('utf8');
  const redactor = streamRedactor();
  const emit = (text: string): void => {
    if (text !== '') out.write(JSON.stringify(text).slice(1, -1));
  };
  return {
    push: (chunk) => emit(redactor.push(decoder.write(chunk))),
    end: () => emit(redactor.push(decoder.end()) + redactor.end()),
  };
}

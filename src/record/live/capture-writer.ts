// The capture file the live proxy tees into: JSONL, one line per record (src/record/live/capture-format.ts). Each
// exchange spools its two bodies to files of their own while it runs, and becomes one line when it ends, appended
// whole under a lock, so exchanges that overlap never interleave and a finished exchange is on disk at once.
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExchangeLine, RequestHead, ResponseHead } from './capture-format.ts';
import { spoolBody, type BodySpool } from './spool-body.ts';

// An exchange being captured, fed by the proxy as bytes pass.
export type ExchangeCapture = {
  readonly id: number;
  requestBody: BodySpool;
  // Called once the response's head is known (the upstream's, or the proxy's own 502).
  respond: (head: ResponseHead) => void;
  responseBody: () => BodySpool | undefined;
  // Ends the exchange: `problem` says why it did not complete (upstream unreachable, client gone, proxy stopped).
  finish: (problem?: { error?: string; aborted?: string }) => Promise<void>;
};

export type CaptureWriter = {
  readonly file: string;
  // Appends one whole line (the session header, the workspace snapshot, the end record).
  writeLine: (record: object) => Promise<void>;
  begin: (request: RequestHead) => ExchangeCapture;
  // How many exchanges are on disk.
  exchanges: () => number;
  // Waits for every exchange already finished to be on disk, then closes the file.
  close: () => Promise<void>;
};

// Opens `file` for appending; `spoolDir` holds the bodies of exchanges still running.
export async function openCapture(file: string, spoolDir: string): Promise<CaptureWriter> {
  const handle = await open(file, 'a');
  let tail: Promise<void> = Promise.resolve();
  let nextId = 1;
  let written = 0;
  // Appends run one after another; a failed append must not block the ones after it.
  const serially = (task: () => Promise<void>): Promise<void> => {
    const run = tail.then(task);
    tail = run.catch(() => {});
    return run;
  };
  return {
    file,
    writeLine: (record) => serially(() => handle.write(`${JSON.stringify(record)}\n`).then(() => {})),
    begin(request) {
      const id = nextId++;
      const startedAt = new Date().toISOString();
      const requestFile = join(spoolDir, `${id}.request`);
      const responseFile = join(spoolDir, `${id}.response`);
      const requestBody = spoolBody(requestFile, {
        contentType: request.headers['content-type'],
        contentEncoding: request.headers['content-encoding'],
      });
      let response: { head: ResponseHead; body: BodySpool } | undefined;
      let finished: Promise<void> | undefined;
      return {
        id,
        requestBody,
        respond(head) {
          response ??= {
            head,
            body: spoolBody(responseFile, {
              contentType: head.headers['content-type'],
              contentEncoding: head.headers['content-encoding'],
            }),
          };
        },
        responseBody: () => response?.body,
        finish(problem = {}) {
          finished ??= (async () => {
            const req = await requestBody.end();
            const res = response === undefined ? undefined : { head: response.head, ...(await response.body.end()) };
            const line: ExchangeLine = {
              type: 'exchange',
              id,
              startedAt,
              endedAt: new Date().toISOString(),
              request: {
                ...request,
                body: '',
                bytes: req.bytes,
                ...(req.omitted === undefined ? {} : { omitted: req.omitted }),
              },
              ...(res === undefined
                ? {}
                : {
                    response: {
                      ...res.head,
                      body: '',
                      bytes: res.bytes,
                      ...(res.omitted === undefined ? {} : { omitted: res.omitted }),
                    },
                  }),
              ...problem,
            };
            await serially(() =>
              appendExchange(
                handle,
                line,
                req.omitted === undefined ? requestFile : undefined,
                res && res.omitted === undefined ? responseFile : undefined,
              ),
            );
            written += 1;
            await Promise.all([rm(requestFile, { force: true }), rm(responseFile, { force: true })]);
          })();
          return finished;
        },
      };
    },
    exchanges: () => written,
    async close() {
      await serially(async () => {});
      await handle.close();
    },
  };
}

// Writes the line with each body's spooled text copied between the quotes of its empty `"body":""`.
async function appendExchange(
  handle: FileHandle,
  line: ExchangeLine,
  requestFile?: string,
  responseFile?: string,
): Promise<void> {
  const text = JSON.stringify(line);
  const marker = '"body":""';
  const first = text.indexOf(marker);
  const second = text.indexOf(marker, first + 1);
  const cut = (at: number): number => at + marker.length - 1;
  const pieces: Array<string | { file: string | undefined }> =
    second === -1
      ? [text.slice(0, cut(first)), { file: requestFile }, `${text.slice(cut(first))}\n`]
      : [
          text.slice(0, cut(first)),
          { file: requestFile },
          text.slice(cut(first), cut(second)),
          { file: responseFile },
          `${text.slice(cut(second))}\n`,
        ];
  for (const piece of pieces) {
    if (typeof piece === 'string') await handle.write(piece);
    else if (piece.file !== undefined)
      for await (const chunk of createReadStream(piece.file)) await handle.write(chunk as Buffer);
  }
}

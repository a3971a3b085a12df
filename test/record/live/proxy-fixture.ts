// What the proxy tests share: a proxy in front of a fake upstream, teeing into a capture in a scratch dir, and a
// raw HTTP client (node:http, so bodies arrive as the bytes on the wire, compressed or not, chunk by chunk).
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCapture, type CaptureWriter } from '../../../src/record/live/capture-writer.ts';
import type { CaptureLine, ExchangeLine } from '../../../src/record/live/capture-format.ts';
import { startProxy, type LiveProxy } from '../../../src/record/live/start-proxy.ts';
import { startFakeUpstream, type FakeUpstream, type Handler } from './fake-upstream.ts';

export type Rig = {
  upstream: FakeUpstream;
  proxy: LiveProxy;
  capture: CaptureWriter;
  problems: string[];
  spool: string;
  // Stops the proxy and the upstream, closes the capture and returns its lines.
  finish: () => Promise<CaptureLine[]>;
  // Finishes (once), then returns the capture's exchange lines.
  exchanges: () => Promise<ExchangeLine[]>;
  remove: () => Promise<void>;
};

// A proxy in front of a fake upstream answering with `handler`; `upstreamPath` is a base path on the upstream.
export async function startRig(handler: Handler, upstreamPath = ''): Promise<Rig> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-live-test-'));
  const spool = join(dir, 'spool');
  await mkdir(spool);
  const upstream = await startFakeUpstream(handler);
  const capture = await openCapture(join(dir, 'capture.jsonl'), spool);
  const problems: string[] = [];
  const proxy = await startProxy({
    upstream: upstream.url + upstreamPath,
    capture,
    onProblem: (p) => problems.push(p),
  });
  const lines = async (): Promise<CaptureLine[]> =>
    (await readFile(capture.file, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as CaptureLine);
  let finished: Promise<void> | undefined;
  const finish = async (): Promise<CaptureLine[]> => {
    await (finished ??= (async () => {
      await proxy.close();
      await upstream.close();
      await capture.close();
      if ((await readdir(spool)).length > 0)
        throw new Error(`spool files left behind: ${(await readdir(spool)).join(', ')}`);
    })());
    return lines();
  };
  return {
    upstream,
    proxy,
    capture,
    problems,
    spool,
    finish,
    exchanges: async () => (await finish()).filter((l): l is ExchangeLine => l.type === 'exchange'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export type RawResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  error?: Error;
};

// Sends one request and collects the raw response; `onChunk` sees each chunk as it arrives, `signal` aborts.
export function rawRequest(
  url: string,
  o: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    onChunk?: (chunk: Buffer) => void;
    signal?: AbortSignal;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: o.method ?? 'POST', headers: o.headers ?? {}, ...(o.signal ? { signal: o.signal } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        const settle = (error?: Error): void =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ...(error ? { error } : {}),
          });
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          o.onChunk?.(c);
        });
        res.on('end', () => settle());
        res.on('error', (e) => settle(e));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

// A promise with its resolve function outside, for a test to say when something happened.
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

// A fake Messages API for the live proxy's tests and bench: a local HTTP server on 127.0.0.1 whose answers each
// test writes as a handler, with helpers to send a JSON body or an SSE stream event by event. It keeps every
// request it received and knows which responses were cut short by the other side.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type ReceivedRequest = { method: string; url: string; headers: IncomingMessage['headers']; body: string };

export type FakeUpstream = {
  url: string;
  requests: ReceivedRequest[];
  // Requests whose response was still being written when the connection closed.
  cutShort: number;
  close: () => Promise<void>;
};

export type Handler = (req: ReceivedRequest, res: ServerResponse) => void | Promise<void>;

// The fixtures of test/fixtures/live/messages/ by file name.
export function messagesFixture(name: string): string {
  return readFileSync(join(fileURLToPath(new URL('../../fixtures/live/messages/', import.meta.url)), name), 'utf8');
}

// Starts the fake upstream; every request's body is read whole before the handler runs.
export async function startFakeUpstream(handler: Handler): Promise<FakeUpstream> {
  const upstream: FakeUpstream = { url: '', requests: [], cutShort: 0, close: async () => {} };
  const server = createServer({ noDelay: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      upstream.requests.push(received);
      res.on('close', () => {
        if (!res.writableFinished) upstream.cutShort++;
      });
      void Promise.resolve(handler(received, res)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return upstream;
}

// Sends a JSON body with a status and extra headers.
export function sendJson(res: ServerResponse, body: string, status = 200, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

// The events of an SSE text, each with its blank line: what an upstream writes one at a time.
export function sseEvents(text: string): string[] {
  return text.split(/(?<=\n\n)/).filter((e) => e !== '');
}

// Streams `events` as text/event-stream, one write each; `before(i)` runs before event i is written (a test waits
// there for the client to have received the previous event), and the stream ends after the last.
export async function sendSse(
  res: ServerResponse,
  events: string[],
  before?: (i: number) => Promise<void>,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'request-id': 'req_011CFakeUpstream',
  });
  res.flushHeaders();
  for (const [i, event] of events.entries()) {
    await before?.(i);
    if (res.destroyed) return;
    res.write(event);
  }
  res.end();
}

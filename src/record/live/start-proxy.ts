// The live proxy: an HTTP server on 127.0.0.1 that forwards every request to one configured upstream and streams
// each response back as it arrives (each chunk written the moment it comes, status and end-to-end headers
// unchanged), while a CaptureWriter records the exchange beside it. It never forwards anywhere else: a request for
// another host (an absolute URL, CONNECT) is refused. Stopping it aborts what is still running and records it so.
import {
  createServer,
  request as httpRequest,
  Agent as HttpAgent,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { HarnessError } from '../../errors.ts';
import type { CaptureWriter, ExchangeCapture } from './capture-writer.ts';
import { endToEndHeaders, upstreamRequestHeaders } from './forward-headers.ts';
import { redactHeaders, redactPath } from './redact-secrets.ts';

// The Anthropic API, where requests go unless `--upstream` says otherwise.
export const DEFAULT_UPSTREAM = 'https://api.anthropic.com';

export type ProxyOptions = {
  upstream: string;
  // 0 or absent: an ephemeral port.
  port?: number;
  capture?: CaptureWriter;
  // Told about each exchange that went wrong (upstream unreachable, a client gone mid-stream), one line each.
  onProblem?: (message: string) => void;
};

export type LiveProxy = {
  // The base URL agents are pointed at, e.g. http://127.0.0.1:41234.
  url: string;
  port: number;
  // Stops listening, aborts the exchanges still running (recorded as aborted), and resolves once all are captured.
  close: () => Promise<void>;
};

const LOOPBACK = '127.0.0.1';

// Checks an upstream URL: http or https, no credentials, no query. Misuse is a HarnessError saying how to fix it.
export function parseUpstream(upstream: string): URL {
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new HarnessError(
      'BAD_FLAG',
      `--upstream ${upstream} is not a URL: give the API's base URL, e.g. ${DEFAULT_UPSTREAM}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HarnessError(
      'BAD_FLAG',
      `--upstream ${upstream} must be an http:// or https:// URL, e.g. ${DEFAULT_UPSTREAM}`,
    );
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new HarnessError(
      'BAD_FLAG',
      `--upstream ${upstream} must be a plain base URL without credentials, query or fragment`,
    );
  }
  return url;
}

// Starts the proxy; resolves once it listens.
export async function startProxy(options: ProxyOptions): Promise<LiveProxy> {
  const upstream = parseUpstream(options.upstream);
  const secure = upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const running = new Set<(reason: string) => void>();
  const settling = new Set<Promise<void>>();
  const server = createServer({ noDelay: true }, (req, res) => {
    const done = forward(req, res, { ...options, upstream, secure, agent, running });
    settling.add(done);
    void done.finally(() => settling.delete(done));
  });
  // A forward proxy's verbs: this proxy forwards to its upstream only.
  const refuse = (_req: IncomingMessage, socket: Socket): void => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  };
  server.on('connect', refuse);
  server.on('upgrade', refuse);
  await new Promise<void>((listening, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        error.code === 'EADDRINUSE'
          ? new HarnessError(
              'BAD_FLAG',
              `--port ${options.port}: the port is in use; pick another or leave --port out for a free one`,
            )
          : error,
      ),
    );
    server.listen(options.port ?? 0, LOOPBACK, () => listening());
  });
  const port = (server.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${LOOPBACK}:${port}`,
    port,
    close: () =>
      (closed ??= (async () => {
        const stopped = new Promise<void>((done) => server.close(() => done()));
        for (const abort of running)
          abort('the proxy stopped before the response ended (the agent exited or was interrupted)');
        await Promise.all(settling);
        server.closeAllConnections();
        await stopped;
        agent.destroy();
      })()),
  };
}

type Forwarding = Omit<ProxyOptions, 'upstream'> & {
  upstream: URL;
  secure: boolean;
  agent: HttpAgent;
  running: Set<(reason: string) => void>;
};

// One exchange: forwards the request, streams the response back, captures both; resolves once captured.
function forward(req: IncomingMessage, res: ServerResponse, o: Forwarding): Promise<void> {
  const target = req.url ?? '';
  if (!target.startsWith('/')) {
    sendError(
      res,
      400,
      `theinference's live proxy forwards only to ${o.upstream.href}: send requests to its base URL (ANTHROPIC_BASE_URL), not to ${target}`,
    );
    return Promise.resolve();
  }
  const capture: ExchangeCapture | undefined = o.capture?.begin({
    method: req.method ?? 'GET',
    path: redactPath(target),
    headers: redactHeaders(req.headers),
  });
  return new Promise<void>((settled) => {
    let ended = false;
    const end = (problem?: { error?: string; aborted?: string }): void => {
      if (ended) return;
      ended = true;
      o.running.delete(abort);
      if (problem !== undefined)
        o.onProblem?.(`${req.method} ${redactPath(target)}: ${problem.error ?? problem.aborted}`);
      void (capture?.finish(problem) ?? Promise.resolve()).then(settled, settled);
    };
    const abort = (reason: string): void => {
      upstreamReq.destroy();
      if (!res.headersSent) sendError(res, 502, reason);
      else res.destroy();
      end({ aborted: reason });
    };
    o.running.add(abort);

    const basePath = o.upstream.pathname.replace(/\/$/, '');
    const upstreamReq = (o.secure ? httpsRequest : httpRequest)({
      protocol: o.upstream.protocol,
      hostname: o.upstream.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: o.upstream.port,
      method: req.method,
      path: basePath + target,
      headers: upstreamRequestHeaders(req.headers, o.upstream),
      agent: o.agent,
    });
    upstreamReq.on('socket', (socket) => socket.setNoDelay(true));
    req.on('data', (chunk: Buffer) => capture?.requestBody.write(chunk));
    req.pipe(upstreamReq);

    upstreamReq.on('response', (up) => {
      const headers = endToEndHeaders(up.headers);
      res.writeHead(up.statusCode ?? 502, up.statusMessage, headers);
      res.flushHeaders();
      capture?.respond({ status: up.statusCode ?? 502, headers: redactHeaders(up.headers) });
      const body = capture?.responseBody();
      up.on('data', (chunk: Buffer) => {
        const toClient = res.write(chunk);
        const toDisk = body?.write(chunk) ?? true;
        // The client reads, or the capture writes, slower than the upstream sends: hold the upstream rather than
        // buffer without end.
        if (!toClient || !toDisk) {
          up.pause();
          const client = toClient ? Promise.resolve() : new Promise<void>((done) => res.once('drain', done));
          void Promise.all([client, body?.drained()]).then(() => up.resume());
        }
      });
      up.on('end', () => res.end(() => end()));
      up.on('error', (error) => {
        res.destroy();
        end({ error: `the upstream's response broke off: ${error.message}` });
      });
    });
    upstreamReq.on('error', (error: NodeJS.ErrnoException) => {
      if (ended) return;
      const why = `the upstream ${o.upstream.origin} could not be reached (${error.code ?? error.message})`;
      if (res.headersSent) {
        res.destroy();
        end({ error: `the upstream's response broke off: ${error.code ?? error.message}` });
        return;
      }
      const head = sendError(res, 502, `theinference's live proxy: ${why}; check --upstream and the network`);
      capture?.respond(head.head);
      capture?.responseBody()?.write(Buffer.from(head.body));
      end({ error: why });
    });
    // The client went away before the response ended: stop asking the upstream for it.
    res.on('close', () => {
      if (!res.writableFinished && !ended) {
        upstreamReq.destroy();
        end({ aborted: 'the client disconnected before the response ended' });
      }
    });
  });
}

// Answers with an error in the Anthropic API's own shape, which the OpenAI SDKs read as well (`error.message`).
function sendError(
  res: ServerResponse,
  status: number,
  message: string,
): { head: { status: number; headers: Record<string, string> }; body: string } {
  const body = `${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n`;
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-theinference-proxy': 'error',
  };
  res.writeHead(status, headers);
  res.end(body);
  return { head: { status, headers }, body };
}

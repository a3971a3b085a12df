// The live proxy against a fake upstream on 127.0.0.1: responses pass through byte for byte as they arrive, the
// capture holds each exchange with its credentials redacted, and every fault ends in a response the agent can read
// (or a connection cut as the upstream cut it), a capture line saying what happened, and a proxy that keeps going.
import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { messagesFixture, sendJson, sendSse, sseEvents } from './fake-upstream.ts';
import { startProxy } from '../../../src/record/live/start-proxy.ts';
import { deferred, rawRequest, startRig, type Rig } from './proxy-fixture.ts';

const KEY = 'sk-ant-api03-TESTKEY0123456789abcdefghijklmnopqrstuvwxyz';
const AUTH = { 'content-type': 'application/json', 'x-api-key': KEY, 'anthropic-version': '2023-06-01' };
const REQUEST = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'hi' }],
});

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.finish().catch(() => {});
  await rig?.remove();
  rig = undefined;
});

describe('startProxy: passing through', () => {
  it('forwards a request under the upstream base path and returns status, headers and body unchanged', async () => {
    const body = messagesFixture('tool-use.json');
    rig = await startRig(
      (_req, res) =>
        sendJson(res, body, 200, { 'request-id': 'req_1', 'anthropic-ratelimit-requests-remaining': '49' }),
      '/gateway/anthropic',
    );
    const response = await rawRequest(`${rig.proxy.url}/v1/messages?beta=true`, { headers: AUTH, body: REQUEST });
    expect(response.status).toBe(200);
    expect(response.body.toString('utf8')).toBe(body);
    expect(response.headers['request-id']).toBe('req_1');
    expect(response.headers['anthropic-ratelimit-requests-remaining']).toBe('49');
    const [received] = rig.upstream.requests;
    expect(received?.url).toBe('/gateway/anthropic/v1/messages?beta=true');
    expect(received?.body).toBe(REQUEST);
    // The agent's key reaches the upstream: only the capture is redacted.
    expect(received?.headers['x-api-key']).toBe(KEY);
    expect(received?.headers.host).toBe(new URL(rig.upstream.url).host);
  });

  it('writes each SSE event to the client before the upstream sends the next', async () => {
    const events = sseEvents(messagesFixture('parallel-tool-calls.sse'));
    const got = events.map(() => deferred());
    let received = '';
    rig = await startRig((_req, res) => sendSse(res, events, async (i) => (i === 0 ? undefined : got[i - 1]?.promise)));
    const response = await rawRequest(`${rig.proxy.url}/v1/messages`, {
      headers: AUTH,
      body: REQUEST,
      onChunk: (chunk) => {
        received += chunk.toString('utf8');
        // The upstream waits for this before it writes event i + 1: a proxy that buffered would hang here.
        events.forEach((_, i) => {
          if (received.length >= events.slice(0, i + 1).join('').length) got[i]?.resolve();
        });
      },
    });
    expect(response.body.toString('utf8')).toBe(events.join(''));
    expect(response.headers['content-type']).toBe('text/event-stream');
  });

  it('captures a streamed response and a max_tokens cut mid tool input exactly as sent', async () => {
    const streams = [messagesFixture('parallel-tool-calls.sse'), messagesFixture('max-tokens-cut.sse')];
    let n = 0;
    rig = await startRig((_req, res) => sendSse(res, sseEvents(streams[n++] ?? '')));
    for (const text of streams) {
      const response = await rawRequest(`${rig.proxy.url}/v1/messages`, { headers: AUTH, body: REQUEST });
      expect(response.body.toString('utf8')).toBe(text);
    }
    const exchanges = await rig.exchanges();
    expect(exchanges.map((e) => e.response?.body)).toEqual(streams);
    expect(exchanges.map((e) => [e.request.method, e.request.path, e.request.body, e.response?.status])).toEqual([
      ['POST', '/v1/messages', REQUEST, 200],
      ['POST', '/v1/messages', REQUEST, 200],
    ]);
  });

  it('passes a gzip body through compressed and captures it decompressed', async () => {
    const body = messagesFixture('tool-use.json');
    const zipped = gzipSync(body);
    rig = await startRig((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': String(zipped.length),
      });
      res.end(zipped);
    });
    const response = await rawRequest(`${rig.proxy.url}/v1/messages`, {
      headers: { ...AUTH, 'accept-encoding': 'gzip' },
      body: REQUEST,
    });
    expect(response.body.equals(zipped)).toBe(true);
    expect(rig.upstream.requests[0]?.headers['accept-encoding']).toBe('gzip');
    const [exchange] = await rig.exchanges();
    expect(exchange?.response?.body).toBe(body);
    expect(exchange?.response?.bytes).toBe(zipped.length);
  });
});

describe('startProxy: redaction before the disk', () => {
  it('keeps no credential header, cookie, key-bearing query or key-shaped string of a body in the capture', async () => {
    const sseWithKey = `event: content_block_delta\ndata: {"text":"export KEY=${KEY.slice(0, 20)}`;
    rig = await startRig(async (_req, res) => {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'set-cookie': 'session=abc123secret; HttpOnly',
        'anthropic-organization-id': 'org-uuid-1234',
      });
      // The key arrives split across two writes.
      res.write(sseWithKey);
      await new Promise((r) => setTimeout(r, 20));
      res.end(`${KEY.slice(20)}"}\n\n`);
    });
    const headers = {
      ...AUTH,
      authorization: 'Bearer tok_secret_value',
      cookie: 'session=abc123secret',
      'openai-organization': 'org-secret',
    };
    const body = JSON.stringify({ messages: [{ role: 'user', content: `my key is ${KEY}` }] });
    const response = await rawRequest(`${rig.proxy.url}/v1/messages?key=AIzaSECRETQUERYKEY`, { headers, body });
    expect(response.body.toString('utf8')).toContain(KEY);
    await rig.finish();
    const text = await readFile(rig.capture.file, 'utf8');
    for (const secret of [
      KEY,
      KEY.slice(0, 20),
      KEY.slice(20),
      'tok_secret_value',
      'abc123secret',
      'org-secret',
      'org-uuid-1234',
      'AIzaSECRETQUERYKEY',
    ]) {
      expect(text).not.toContain(secret);
    }
    const [exchange] = await rig.exchanges();
    expect(exchange?.request.headers['x-api-key']).toBe('[redacted]');
    expect(exchange?.request.headers['anthropic-version']).toBe('2023-06-01');
    expect(exchange?.request.path).toBe('/v1/messages?key=[redacted]');
    expect(exchange?.request.body).toBe(
      JSON.stringify({ messages: [{ role: 'user', content: 'my key is [redacted]' }] }),
    );
    expect(exchange?.response?.body).toBe(`event: content_block_delta\ndata: {"text":"export KEY=[redacted]"}\n\n`);
  });
});

describe('startProxy: faults', () => {
  it('passes 5xx and 429 responses through and keeps going', async () => {
    const overloaded = messagesFixture('overloaded.json');
    const replies = [
      () => ({ status: 529, body: overloaded, headers: {} }),
      () => ({
        status: 429,
        body: '{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}',
        headers: { 'retry-after': '7' },
      }),
      () => ({ status: 200, body: messagesFixture('tool-use.json'), headers: {} }),
    ];
    let n = 0;
    rig = await startRig((_req, res) => {
      const r = (replies[n++] ?? replies[2])!();
      sendJson(res, r.body, r.status, r.headers);
    });
    const got = [];
    for (let i = 0; i < 3; i++)
      got.push(await rawRequest(`${rig.proxy.url}/v1/messages`, { headers: AUTH, body: REQUEST }));
    expect(got.map((r) => r.status)).toEqual([529, 429, 200]);
    expect(got[0]?.body.toString()).toBe(overloaded);
    expect(got[1]?.headers['retry-after']).toBe('7');
    expect((await rig.exchanges()).map((e) => e.response?.status)).toEqual([529, 429, 200]);
  });

  it('answers 502 with a clear body naming the upstream when it cannot be reached', async () => {
    rig = await startRig((_req, res) => sendJson(res, messagesFixture('tool-use.json')));
    const { port } = new URL(rig.upstream.url);
    await rig.upstream.close();
    const down = await rawRequest(`${rig.proxy.url}/v1/messages`, { headers: AUTH, body: REQUEST });
    expect(down.status).toBe(502);
    const error = JSON.parse(down.body.toString()) as { type: string; error: { type: string; message: string } };
    expect(error.type).toBe('error');
    expect(error.error.message).toMatch(
      new RegExp(`upstream http://127\\.0\\.0\\.1:${port} could not be reached \\(ECONNREFUSED\\).*--upstream`),
    );
    expect(rig.problems).toEqual([expect.stringContaining('could not be reached (ECONNREFUSED)')]);
    const [exchange] = await rig.exchanges();
    expect(exchange?.error).toMatch(/could not be reached \(ECONNREFUSED\)/);
    expect(exchange?.response?.status).toBe(502);
    expect(exchange?.request.body).toBe(REQUEST);
  });

  it('aborts the upstream request when the client disconnects mid-stream', async () => {
    const events = sseEvents(messagesFixture('parallel-tool-calls.sse'));
    const firstArrived = deferred();
    const never = new Promise<void>(() => {});
    const upstreamSawClose = deferred();
    rig = await startRig((_req, res) => {
      res.on('close', () => upstreamSawClose.resolve());
      return sendSse(res, events, async (i) => (i < 2 ? undefined : never));
    });
    const abort = new AbortController();
    const pending = rawRequest(`${rig.proxy.url}/v1/messages`, {
      headers: AUTH,
      body: REQUEST,
      signal: abort.signal,
      onChunk: () => firstArrived.resolve(),
    });
    pending.catch(() => {});
    await firstArrived.promise;
    abort.abort();
    await upstreamSawClose.promise;
    expect(rig.upstream.cutShort).toBe(1);
    await rig.finish();
    const [exchange] = await rig.exchanges();
    expect(exchange?.aborted).toBe('the client disconnected before the response ended');
    expect(exchange?.response?.body).toBe(events.slice(0, 2).join(''));
  });

  it('cuts the client off when the upstream breaks off mid-stream, and records the partial body', async () => {
    const events = sseEvents(messagesFixture('parallel-tool-calls.sse'));
    rig = await startRig(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(events[0]);
      await new Promise((r) => setTimeout(r, 20));
      res.socket?.destroy();
    });
    const response = await rawRequest(`${rig.proxy.url}/v1/messages`, { headers: AUTH, body: REQUEST });
    expect(response.error?.message).toMatch(/aborted|socket hang up/);
    expect(response.body.toString()).toBe(events[0]);
    await rig.finish();
    const [exchange] = await rig.exchanges();
    expect(exchange?.error).toMatch(/^the upstream's response broke off/);
    expect(exchange?.response?.body).toBe(events[0]);
  });

  it('records an exchange still streaming when the proxy stops as aborted, and leaves no socket open', async () => {
    const firstArrived = deferred();
    rig = await startRig((_req, res) =>
      sendSse(res, sseEvents(messagesFixture('parallel-tool-calls.sse')), async (i) =>
        i < 1 ? undefined : new Promise(() => {}),
      ),
    );
    const pending = rawRequest(`${rig.proxy.url}/v1/messages`, {
      headers: AUTH,
      body: REQUEST,
      onChunk: () => firstArrived.resolve(),
    });
    await firstArrived.promise;
    const lines = await rig.finish();
    expect((await pending).error).toBeDefined();
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'exchange',
        aborted: expect.stringMatching(/^the proxy stopped before the response ended/),
      }),
    ]);
    await expect(rawRequest(`${rig.proxy.url}/v1/messages`, { body: REQUEST })).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('startProxy: where it listens and forwards', () => {
  it('says how to fix a --port that is taken', async () => {
    rig = await startRig((_req, res) => sendJson(res, '{}'));
    await expect(startProxy({ upstream: rig.upstream.url, port: rig.proxy.port })).rejects.toThrow(
      `--port ${rig.proxy.port}: the port is in use; pick another or leave --port out for a free one`,
    );
  });

  it('listens on 127.0.0.1 only', async () => {
    rig = await startRig((_req, res) => sendJson(res, '{}'));
    expect(new URL(rig.proxy.url).hostname).toBe('127.0.0.1');
    const otherAddress = await new Promise<string>((done) => {
      const socket = connect({ host: '127.0.0.2', port: rig!.proxy.port });
      socket.on('connect', () => {
        socket.destroy();
        done('connected');
      });
      socket.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? 'error'));
    });
    expect(otherAddress).toBe('ECONNREFUSED');
  });

  it.each([
    [
      'an absolute-form request for another host',
      'GET http://example.com/steal HTTP/1.1\r\nhost: example.com\r\n\r\n',
      /^HTTP\/1\.1 400/,
    ],
    ['CONNECT to another host', 'CONNECT example.com:443 HTTP/1.1\r\nhost: example.com:443\r\n\r\n', /^HTTP\/1\.1 405/],
  ])('refuses %s and forwards nothing', async (_name, raw, status) => {
    rig = await startRig((_req, res) => sendJson(res, '{}'));
    const reply = await new Promise<string>((done) => {
      const socket = connect({ host: '127.0.0.1', port: rig!.proxy.port }, () => socket.write(raw));
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('close', () => done(text));
      setTimeout(() => socket.end(), 200);
    });
    expect(reply).toMatch(status);
    expect(rig.upstream.requests).toEqual([]);
  });
});

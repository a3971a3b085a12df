// Which headers cross the proxy. Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message, so
// they stop at the proxy; everything else passes unchanged, but for `host`, which names the upstream.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

// The end-to-end headers of a message, without the hop-by-hop ones and those its `Connection` header lists.
export function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const listed = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !listed.has(name)) out[name] = value;
  }
  return out;
}

// The headers of a request forwarded to `upstream`: end to end, with `host` the upstream's.
export function upstreamRequestHeaders(headers: IncomingHttpHeaders, upstream: URL): OutgoingHttpHeaders {
  return { ...endToEndHeaders(headers), host: upstream.host };
}

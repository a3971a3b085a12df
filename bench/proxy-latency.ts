// `npm run bench -- --only proxy`: what the live proxy costs a streamed response. A fake upstream in this process
// streams SSE events at a steady pace; a client in this process reads them, straight from the upstream and through
// the proxy (bench/live-proxy-process.ts, a process of its own, capturing to disk as in a real recording), in
// alternating rounds. Each event's latency is the time from the upstream's write to the client having the whole
// event; the proxy's cost is the difference. Then one long stream through the proxy while its resident set is
// sampled from /proc: the capture spools to disk, so memory must stay flat.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type ProxyBench = {
  // Per-event latencies in milliseconds, every round pooled.
  direct: number[];
  proxied: number[];
  // The proxy's resident set (kB) sampled through the long stream, and how much went through.
  memoryKb: number[];
  streamedMb: number;
  streamSeconds: number;
};

type Options = {
  packageRoot: string;
  tsx: string;
  rounds: number;
  events?: number;
  gapMs?: number;
  longStreamMb?: number;
};

const PADDING = 'x'.repeat(120);

// Runs the whole measurement; the proxy process is stopped whatever happens.
export async function measureProxy(o: Options): Promise<ProxyBench> {
  const sent = new Map<string, number[]>();
  const upstream = await startUpstream(sent);
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const proxy = await startProxyProcess(o, upstreamUrl);
  try {
    const bench: ProxyBench = { direct: [], proxied: [], memoryKb: [], streamedMb: 0, streamSeconds: 0 };
    const events = o.events ?? 500;
    const gapMs = o.gapMs ?? 2;
    if (process.env.BENCH_DEBUG) console.error('proxy up', proxy.url, upstreamUrl);
    for (let round = 0; round < o.rounds; round++) {
      // Alternate which goes first, so neither always runs on a warmer machine.
      const order = round % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
      for (const via of order) {
        const base = via === 'direct' ? upstreamUrl : proxy.url;
        bench[via].push(...(await paced(base, `${via}-${round}`, events, gapMs, sent)));
      }
    }
    const long = await longStream(proxy.url, proxy.child.pid ?? 0, o.longStreamMb ?? 200);
    return { ...bench, memoryKb: long.samples, streamedMb: long.mb, streamSeconds: long.seconds };
  } finally {
    await stopProcess(proxy.child);
    await new Promise<void>((done) => {
      upstream.closeAllConnections();
      upstream.close(() => done());
    });
  }
}

// The fake upstream: `/paced/<id>?events=N&gap=ms` streams N small events `gap` ms apart, noting when it wrote each;
// `/long?mb=N` streams N MB of 16 KB events as fast as the reader takes them.
async function startUpstream(sent: Map<string, number[]>): Promise<Server> {
  const server = createServer({ noDelay: true }, (req, res) => {
    req.resume();
    const url = new URL(req.url ?? '/', 'http://upstream');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    void (async () => {
      if (url.pathname.startsWith('/paced/')) {
        const times: number[] = [];
        sent.set(url.pathname.slice('/paced/'.length), times);
        const count = Number(url.searchParams.get('events'));
        const gap = Number(url.searchParams.get('gap'));
        for (let i = 0; i < count; i++) {
          await new Promise((r) => setTimeout(r, gap));
          times[i] = performance.now();
          res.write(`event: content_block_delta\ndata: {"i":${i},"pad":"${PADDING}"}\n\n`);
        }
      } else {
        const event = `event: content_block_delta\ndata: {"text":"${'y'.repeat(16 * 1024 - 60)}"}\n\n`;
        const count = Math.ceil((Number(url.searchParams.get('mb')) * 1024 * 1024) / event.length);
        for (let i = 0; i < count; i++) {
          if (!res.write(event)) await new Promise((r) => res.once('drain', r));
        }
      }
      res.end();
    })();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

// One paced stream read from `base`: each event's latency, from its write to its last byte here.
function paced(
  base: string,
  id: string,
  events: number,
  gapMs: number,
  sent: Map<string, number[]>,
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let pending = '';
    const req = request(`${base}/paced/${id}?events=${events}&gap=${gapMs}`, { method: 'POST' }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const now = performance.now();
        pending += text;
        const complete = pending.split('\n\n');
        pending = complete.pop() ?? '';
        for (const event of complete) {
          const i = Number(/"i":(\d+)/.exec(event)?.[1]);
          const at = sent.get(id)?.[i];
          if (at !== undefined) latencies.push(now - at);
        }
      });
      res.on('end', () => resolve(latencies));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

// One long stream through the proxy, read as fast as it comes, while the proxy's resident set is sampled.
async function longStream(
  base: string,
  pid: number,
  mb: number,
): Promise<{ samples: number[]; mb: number; seconds: number }> {
  const samples: number[] = [];
  const timer = setInterval(() => void rssKb(pid).then((kb) => kb > 0 && samples.push(kb)), 100);
  const start = performance.now();
  let bytes = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request(`${base}/long?mb=${mb}`, { method: 'POST' }, (res) => {
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', resolve);
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end('{}');
    });
  } finally {
    clearInterval(timer);
  }
  return { samples, mb: bytes / 1024 / 1024, seconds: (performance.now() - start) / 1000 };
}

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function startProxyProcess(o: Options, upstream: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ['--import', o.tsx, join(o.packageRoot, 'bench', 'live-proxy-process.ts'), upstream],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench: the proxy process exited (${code}) before it listened`)));
  });
  return { child, url };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await exited;
}

// The value at a quantile (0..1) of a list of samples, nearest rank.
export function quantile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

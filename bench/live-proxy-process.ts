// The live proxy alone in a process of its own, as `theinference record --live` runs it beside an agent: forwarding
// to the upstream given on the command line and teeing into a capture in a temp dir. Prints its URL on stdout; on
// SIGTERM it closes, removes the temp dir and exits. Started by bench/proxy-latency.ts.
//
//   node --import tsx bench/live-proxy-process.ts <upstream>
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCapture } from '../src/record/live/capture-writer.ts';
import { startProxy } from '../src/record/live/start-proxy.ts';

const upstream = process.argv[2];
if (upstream === undefined) throw new Error('usage: live-proxy-process.ts <upstream>');
const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-proxy-'));
await mkdir(join(dir, 'spool'));
const capture = await openCapture(join(dir, 'capture.jsonl'), join(dir, 'spool'));
const proxy = await startProxy({ upstream, capture });
process.stdout.write(`${proxy.url}\n`);
process.once('SIGTERM', () => {
  void (async () => {
    await proxy.close();
    await capture.close();
    await rm(dir, { recursive: true, force: true });
    process.exit(0);
  })();
});

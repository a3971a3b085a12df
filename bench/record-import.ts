// The recorder's import (parse and pair, before mapping and replay) of real transcripts: how long the 3.4 MB spotter
// session takes, and how much memory a 200 MB transcript made by repeating it takes to stream; and how long the
// redactor's secret search takes on one 8 MB line (the session repeated, its line breaks made spaces). Each measurement runs
// the compiled importer (dist/, built by `npm run bench`) in a fresh node process, which reports its own time and
// peak resident set (getrusage's maxrss), so neither tsx nor the bench itself is counted.
import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCommand } from './run-command.ts';
import { sharedDir } from './shared-dir.ts';
import { summarise, type Summary } from './stats.ts';

const SESSION = 'transcripts/claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl';
const BIG_BYTES = 200 * 1000 * 1000;
const LINE_BYTES = 8 * 1000 * 1000;

// What one import in a fresh process reported.
type ImportRun = { calls: number; coldMs: number; warmMs: number[]; peakRssKb: number };

export type ImportBench = {
  session: { bytes: number; calls: number; coldMs: number[]; warm: Summary };
  // `same ids`: the session repeated as it is, so Claude Code's own rule (a call logged twice is one call) keeps
  // one copy of each call. `unique ids`: each copy's tool_use ids renamed, so every copy's calls are kept.
  repeated: Array<{
    variant: 'same ids' | 'unique ids';
    copies: number;
    bytes: number;
    calls: number;
    ms: number;
    peakRssKb: number;
  }>;
  // findSecrets on one line of LINE_BYTES characters.
  oneLine: { chars: number; ms: number };
};

// Runs the import measurements; undefined (with a note) when ../shared/transcripts is absent.
export async function measureImport(options: {
  packageRoot: string;
  runs: number;
  log: (line?: string) => void;
}): Promise<ImportBench | undefined> {
  const { packageRoot, runs, log } = options;
  const session = resolve(sharedDir(packageRoot), SESSION);
  if (!existsSync(session)) {
    log(`import: skipped, ${session} is absent`);
    return undefined;
  }
  const importer = pathToFileURL(join(packageRoot, 'dist', 'record', 'import-transcript.js')).href;
  const text = await readFile(session, 'utf8');
  const bytes = Buffer.byteLength(text);
  log(`import (parse + pair, compiled importer, each measured in fresh node processes):`);
  const sessionRuns: ImportRun[] = [];
  for (let i = 0; i < runs; i++) sessionRuns.push(await importInChild(importer, session, 5, packageRoot));
  const warm = summarise(sessionRuns.flatMap((r) => r.warmMs));
  const calls = sessionRuns[0]?.calls ?? 0;
  log(
    `  spotter session, ${mb(bytes)} + subagents, ${calls} calls: first import in a process ${ms(summarise(sessionRuns.map((r) => r.coldMs)))}, then ${ms(warm)}`,
  );

  const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-import-'));
  try {
    const copies = Math.ceil(BIG_BYTES / bytes);
    const repeated: ImportBench['repeated'] = [];
    for (const variant of ['same ids', 'unique ids'] as const) {
      const file = join(dir, `${variant.replace(' ', '-')}.jsonl`);
      const written = await repeatInto(file, text, copies, variant === 'unique ids');
      const run = await importInChild(importer, file, 0, packageRoot);
      repeated.push({ variant, copies, bytes: written, calls: run.calls, ms: run.coldMs, peakRssKb: run.peakRssKb });
      log(
        `  ${mb(written)} (${copies} copies, ${variant}), ${run.calls} calls: ${(run.coldMs / 1000).toFixed(2)} s, peak RSS ${(run.peakRssKb / 1024).toFixed(0)} MB`,
      );
    }
    const oneLine = await secretsInChild(packageRoot, session);
    log(
      `  secrets searched in one line of ${mb(oneLine.chars)} (the session on one line): ${(oneLine.ms / 1000).toFixed(2)} s`,
    );
    log();
    return { session: { bytes, calls, coldMs: sessionRuns.map((r) => r.coldMs), warm }, repeated, oneLine };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Writes `copies` copies of a transcript; with `uniqueIds`, each copy's tool_use ids get the copy's number.
async function repeatInto(file: string, text: string, copies: number, uniqueIds: boolean): Promise<number> {
  const out = createWriteStream(file);
  let written = 0;
  for (let i = 0; i < copies; i++) {
    const copy = uniqueIds ? text.replaceAll('toolu_', `toolu_c${i}_`) : text;
    written += Buffer.byteLength(copy);
    if (!out.write(copy)) await new Promise<void>((done) => out.once('drain', () => done()));
  }
  await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())));
  return written;
}

// Imports a file in a fresh node process: once cold, then `warmRuns` more times; its own peak RSS at the end.
async function importInChild(importer: string, file: string, warmRuns: number, cwd: string): Promise<ImportRun> {
  const script = `
    const { importTranscript } = await import(${JSON.stringify(importer)});
    const timed = async () => { const t0 = performance.now(); const r = await importTranscript(${JSON.stringify(file)}); return [r, performance.now() - t0]; };
    const [first, coldMs] = await timed();
    if (!('calls' in first)) throw new Error(JSON.stringify(first));
    const warmMs = [];
    for (let i = 0; i < ${warmRuns}; i++) warmMs.push((await timed())[1]);
    console.log(JSON.stringify({ calls: first.calls.length, coldMs, warmMs, peakRssKb: process.resourceUsage().maxRSS }));
  `;
  const { stdout } = await runCommand(process.execPath, ['--input-type=module', '-e', script], { cwd });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ImportRun;
}

// findSecrets, compiled, on the transcript repeated into one line of LINE_BYTES characters, in a fresh process.
async function secretsInChild(packageRoot: string, file: string): Promise<ImportBench['oneLine']> {
  const rules = pathToFileURL(join(packageRoot, 'dist', 'record', 'map', 'secret-rules.js')).href;
  const script = `
    const { readFileSync } = await import('node:fs');
    const { findSecrets } = await import(${JSON.stringify(rules)});
    const one = readFileSync(${JSON.stringify(file)}, 'utf8').replace(/\\n/g, ' ');
    const line = one.repeat(Math.ceil(${LINE_BYTES} / one.length)).slice(0, ${LINE_BYTES});
    const t0 = performance.now();
    findSecrets(line);
    console.log(JSON.stringify({ chars: line.length, ms: performance.now() - t0 }));
  `;
  const { stdout } = await runCommand(process.execPath, ['--input-type=module', '-e', script], { cwd: packageRoot });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ImportBench['oneLine'];
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (s: Summary): string => `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)}, n=${s.n})`;

// The recorder end to end: `theinference record` of the 3.4 MB spotter session (import, mapping, replay of every
// call through the reference in worker processes, snapshots, files written into a fresh course directory), timed
// from spawn to exit of the real CLI; and the yield over every real transcript in ../shared/transcripts/: how
// many of all their tool calls end up in replay-verified cases.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCommand } from './run-command.ts';
import { sharedDir } from './shared-dir.ts';
import { summarise, type Summary } from './stats.ts';

const SESSION = 'claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl';
const ALL = [
  'claude-code/claude-reliability/hello-world-script/transcript.jsonl',
  'claude-code/claude-reliability/python-to-rust-port/transcript.jsonl',
  SESSION,
  'claude-code/spotter/short.jsonl',
  'claude-code/spotter/tool_heavy.jsonl',
];
const YIELD = /^yield: (\d+) of (\d+) calls/m;

export type RecordBench = { sessionMs: number[]; session: Summary; kept: number; seen: number; cases: number };

// Runs the record measurements; undefined (with a note) when ../shared/transcripts is absent.
export async function measureRecord(options: {
  packageRoot: string;
  runs: number;
  log: (line?: string) => void;
}): Promise<RecordBench | undefined> {
  const { packageRoot, runs, log } = options;
  const shared = resolve(sharedDir(packageRoot), 'transcripts');
  if (!existsSync(join(shared, SESSION))) {
    log(`record: skipped, ${shared} is absent`);
    return undefined;
  }
  const bin = join(packageRoot, 'bin', 'theinference.js');
  const record = async (files: string[]): Promise<{ ms: number; stdout: string }> => {
    const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-record-'));
    try {
      return await runCommand(process.execPath, [bin, 'record', ...files, '--stage', 'register-tools', '--dir', dir], {
        cwd: dir,
        expect: YIELD,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  log('record (`theinference record` into a fresh course directory, the compiled CLI, wall time from spawn to exit):');
  await record([join(shared, SESSION)]); // warm-up: the tsx cache for the reference, the file cache for the transcript
  const sessionMs: number[] = [];
  for (let i = 0; i < runs; i++) sessionMs.push((await record([join(shared, SESSION)])).ms);
  const session = summarise(sessionMs);
  log(
    `  spotter session (3.4 MB + subagents): ${(session.median / 1000).toFixed(2)} s (${(session.min / 1000).toFixed(2)}–${(session.max / 1000).toFixed(2)})`,
  );
  const all = await record(ALL.map((f) => join(shared, f)));
  const [, kept = '0', seen = '0'] = YIELD.exec(all.stdout) ?? [];
  const cases = all.stdout.split('\n').filter((l) => l.startsWith('added ')).length;
  log(
    `  every real transcript (${ALL.length}): ${kept} of ${seen} calls in ${cases} replay-verified cases (${((100 * Number(kept)) / Number(seen)).toFixed(1)} %), ${(all.ms / 1000).toFixed(2)} s`,
  );
  log();
  return { sessionMs, session, kept: Number(kept), seen: Number(seen), cases };
}

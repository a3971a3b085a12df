// The recorder's cost with commands that hang: `theinference record --dry-run` of a Claude Code session whose N
// commands each change the sandbox and then run past the replay's bound (a dev server started in the foreground),
// between two Reads that reproduce. Each hanging command must wait out its bound once: N commands cost about
// N × the bound (REPLAY_BASH_MS), not the N²/2 × the bound of replaying a window again without each dropped one.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPLAY_BASH_MS } from '../src/record/record-transcripts.ts';
import { runCommand } from './run-command.ts';

const HANGING_COUNTS = [2, 4, 8] as const;
const YIELD = /^yield: (\d+) of (\d+) calls/m;

export type HangingSample = { commands: number; ms: number; kept: number; seen: number };

// Records the session with 2, 4 and 8 hanging commands, once each (a run is its timeouts, a few seconds each).
export async function measureRecordHangs(options: {
  packageRoot: string;
  log: (line?: string) => void;
}): Promise<HangingSample[]> {
  const { packageRoot, log } = options;
  const bin = join(packageRoot, 'bin', 'theinference.js');
  const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-record-hangs-'));
  const samples: HangingSample[] = [];
  log(
    `record with hanging commands (\`record --dry-run\`, the compiled CLI; each command changes the sandbox and hangs past the ${REPLAY_BASH_MS / 1000} s bound):`,
  );
  try {
    for (const commands of HANGING_COUNTS) {
      const transcript = join(dir, `hanging-${commands}.jsonl`);
      await writeFile(transcript, session(commands));
      const run = await runCommand(
        process.execPath,
        [bin, 'record', transcript, '--stage', 'register-tools', '--dir', dir, '--dry-run'],
        { cwd: dir, expect: YIELD },
      );
      const [, kept = '0', seen = '0'] = YIELD.exec(run.stdout) ?? [];
      samples.push({ commands, ms: run.ms, kept: Number(kept), seen: Number(seen) });
      const bound = commands * REPLAY_BASH_MS;
      log(
        `  ${String(commands).padStart(2)} hanging commands: ${(run.ms / 1000).toFixed(1)} s (${(run.ms / bound).toFixed(2)} × N × the bound; replaying each window again would be about ${((((commands * (commands + 1)) / 2) * REPLAY_BASH_MS) / 1000).toFixed(0)} s), ${kept} of ${seen} calls kept`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  log();
  return samples;
}

// A Claude Code session in /home/bench/app: a Read, N commands that each touch a file and then never end, a Read.
function session(commands: number): string {
  const cwd = '/home/bench/app';
  const lines: unknown[] = [];
  let n = 0;
  const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const call = (name: string, input: Record<string, unknown>, result: string, details?: unknown) => {
    n += 1;
    const id = `toolu_bench${String(n).padStart(4, '0')}`;
    const base = { cwd, sessionId: '0b0b0b0b-0000-4000-8000-000000000000', version: '2.1.39', timestamp: at() };
    lines.push({
      ...base,
      type: 'assistant',
      uuid: `a${n}`,
      message: { id: `msg_${n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
    lines.push({
      ...base,
      type: 'user',
      uuid: `u${n}`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] },
      ...(details === undefined ? {} : { toolUseResult: details }),
    });
  };
  const read = () =>
    call('Read', { file_path: `${cwd}/README.md` }, '     1→# app\n     2→', {
      type: 'text',
      file: { filePath: `${cwd}/README.md`, content: '# app\n', numLines: 2, startLine: 1, totalLines: 2 },
    });
  read();
  for (let k = 0; k < commands; k++)
    call('Bash', { command: `touch ${cwd}/server-${k}.log && sleep 600`, description: 'Start the server' }, 'ready');
  read();
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

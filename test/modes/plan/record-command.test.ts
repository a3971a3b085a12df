// `theinference record --stage plan-todos` on a real Claude Code session with TodoWrite calls makes again, byte for
// byte, the recorded cases and snapshots this repository holds from it (the real binary, its report on stdout).
import { join } from 'node:path';
import { execa } from 'execa';
import { expect, test } from 'vitest';
import { REPO } from '../../support/reference-course.ts';

const SESSION = join(REPO, '..', 'shared', 'transcripts', 'claude-code', 'entire', 'eb-f4-bd19c39902-0.jsonl');

test('records a real session as the plan-todos cases held here, unchanged', { timeout: 300_000 }, async () => {
  const { exitCode, stdout } = await execa(
    'node',
    [
      join(REPO, 'bin', 'theinference.js'),
      'record',
      SESSION,
      '--stage',
      'plan-todos',
      '--name',
      'recorded-entire-f4',
      '--dry-run',
    ],
    { cwd: REPO, reject: false, env: { NO_COLOR: '1' } },
  );
  expect(exitCode).toBe(0);
  const statuses = stdout.split('\n').filter((line) => line.includes('cases/plan-todos/'));
  expect(statuses).toEqual(
    ['01', '02', '03'].map(
      (n) =>
        `unchanged     cases/plan-todos/recorded-entire-f4-${n}.json, snapshots/plan-todos/recorded-entire-f4-${n}.json`,
    ),
  );
});

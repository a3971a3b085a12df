// docs/recording.md's worked example runs in a fresh clone: the transcript its first command records is a file
// this repository commits, not one kept beside it, and the case it shows is the one committed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/reference-course.ts';

const page = readFileSync(join(REPO, 'docs', 'recording.md'), 'utf8');
const example = page.slice(page.indexOf('## A worked example'), page.indexOf('## Loop cases'));
const committed = new Set(execFileSync('git', ['ls-files'], { cwd: REPO, encoding: 'utf8' }).split('\n'));

describe("recording.md's worked example", () => {
  const command = /npx theinference record (\S+) --stage (\S+)/.exec(example);

  it('records a transcript the repository commits', () => {
    expect(command?.[1]).toBeDefined();
    expect(committed.has(command?.[1] ?? '')).toBe(true);
  });

  it('shows a case the repository commits, from that transcript', () => {
    const name = /cases\/register-tools\/(recorded-[\w-]+)\.json`/.exec(example)?.[1];
    const file = `cases/${command?.[2]}/${name}.json`;
    expect(committed.has(file)).toBe(true);
    const source = JSON.parse(readFileSync(join(REPO, file), 'utf8')).source;
    expect(source.transcript).toBe(command?.[1]?.split('/').at(-1));
  });
});

// `theinference snapshot --review`, the real binary of an installed copy of this package, under a pseudo-
// terminal: a person walks the pending snapshots with the keys, each shown within the terminal's 80×24, then the
// files are as decided. Also a plain terminal (TERM=dumb: not one escape sequence), and a pipe.
import { cp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeInstalledCourse, REPO, useScratch } from '../../grade/course-fixture.ts';
import { underTerminal } from '../../support/pseudo-terminal.ts';

const scratch = useScratch();
const STAGE = 'register-tools';
const CASES = ['course-glob-everything', 'course-read-seeded-file', 'story-every-name-in-order'];
const MENU = ' quit ›';
const STALE = '{\n  "results": [\n    {\n      "content": "b.txt"\n    }\n  ]\n}\n';
const EMPTY = '{\n  "results": []\n}\n';
let pkg: string;
let bin: string;

const committed = (name: string) => readFile(join(REPO, 'snapshots', STAGE, `${name}.json`), 'utf8');
const snapshotFile = (file: string) => join(pkg, 'snapshots', STAGE, file);
const env = (extra: Record<string, string> = {}) => ({ TMPDIR: scratch.tmp, TSX_DISABLE_CACHE: '1', ...extra });

let pending: Map<string, string>;

// A package whose stage holds three cases: one stale by its wording, one with no snapshot, and one whose snapshot
// lost every result (a long diff, long lines, many calls); then `snapshot` writes their pending files. Each test
// starts from the files as that run left them.
beforeAll(async () => {
  const course = await makeInstalledCourse(scratch);
  pkg = join(course.dir, 'node_modules', 'theinference');
  bin = course.bin;
  // A course repository: the package as installed, plus what a checkout holds and the package handed to students
  // does not: the reference (snapshot replays it) and an install of its own.
  await cp(join(REPO, 'src', 'execute.ts'), join(pkg, 'src', 'execute.ts'));
  await symlink(join(REPO, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  for (const dir of ['cases', 'snapshots']) {
    for (const f of await readdir(join(pkg, dir, STAGE))) {
      if (!CASES.some((c) => f === `${c}.json`)) await rm(join(pkg, dir, STAGE, f));
    }
  }
  await rm(snapshotFile('course-read-seeded-file.json'));
  await writeFile(snapshotFile('course-glob-everything.json'), STALE);
  await writeFile(snapshotFile('story-every-name-in-order.json'), EMPTY);
  const run = await execa('node', [bin, 'snapshot', '--stage', STAGE], {
    cwd: pkg,
    env: env({ NO_COLOR: '1' }),
    reject: false,
  });
  expect(run.exitCode, `${run.stdout}${run.stderr}`).toBe(0);
  const files = (await readdir(join(pkg, 'snapshots', STAGE))).sort();
  expect(files.filter((f) => f.endsWith('.new'))).toEqual(CASES.map((c) => `${c}.json.new`));
  pending = new Map(await Promise.all(files.map(async (f) => [f, await readFile(snapshotFile(f), 'utf8')] as const)));
});

beforeEach(async () => {
  for (const f of await readdir(join(pkg, 'snapshots', STAGE))) await rm(snapshotFile(f));
  for (const [f, text] of pending) await writeFile(snapshotFile(f), text);
});

const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

// Each pending snapshot as shown: from its header to the menu under it.
function screens(text: string): string[] {
  return visible(text)
    .split(/(?=── \d+ of \d+ · )/)
    .filter((s) => s.startsWith('── '))
    .map((s) => s.slice(0, s.indexOf(MENU) + MENU.length));
}

// Runs the review at an 80×24 terminal whose TERM is `term`, typing each key once the menu has been shown one
// more time (the key before it was carried out).
async function review(term: string, keys: string[]) {
  const t = underTerminal(['node', bin, 'snapshot', '--stage', STAGE, '--review'], {
    cwd: pkg,
    env: env({ TERM: term }),
    columns: 80,
    rows: 24,
  });
  for (const [k, key] of keys.entries()) {
    await t.waitFor(MENU, k + 1);
    t.type(key);
  }
  return t.ended();
}

describe('theinference snapshot --review under a terminal', () => {
  it('walks the pending snapshots with a, s and r, each within 80×24, and leaves the files as decided', async () => {
    const { exitCode, screen } = await review('xterm-256color', ['a', 's', 'r']);

    expect(exitCode).toBe(1);
    expect(screen).toContain('\u001b[');
    const shown = screens(screen);
    expect(shown.map((s) => s.split('\n')[0])).toEqual([
      '── 1 of 3 · register-tools/course-glob-everything · changed · wording only ──',
      '── 2 of 3 · register-tools/course-read-seeded-file · new ──',
      '── 3 of 3 · register-tools/story-every-name-in-order · changed · a different ou…',
    ]);
    for (const s of shown) {
      const lines = s.split('\n');
      // The menu's line holds the answer too; nothing is wider than the terminal.
      expect(lines.length).toBeLessThanOrEqual(23);
      expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(80);
    }
    expect(shown[0]).toContain('  1. Glob {"pattern":"**"}');
    expect(shown[0]).toContain('-     "content": "b.txt"\n+     "content": "a.txt"');
    expect(shown[2]).toMatch(/\n {2}… \d+ more\n/);
    expect(shown[2]).toMatch(/\n {2}… \d+ more lines of diff: d shows it whole\n/);
    expect(visible(screen)).toContain(
      'Reviewed 3 pending snapshots of register-tools: 1 accepted, 1 rejected, 1 skipped.\nStill pending: course-read-seeded-file.',
    );

    expect((await readdir(join(pkg, 'snapshots', STAGE))).sort()).toEqual([
      'course-glob-everything.json',
      'course-read-seeded-file.json.new',
      'story-every-name-in-order.json',
    ]);
    expect(await readFile(snapshotFile('course-glob-everything.json'), 'utf8')).toBe(
      await committed('course-glob-everything'),
    );
    expect(await readFile(snapshotFile('story-every-name-in-order.json'), 'utf8')).toBe(EMPTY);
  });

  it('in a plain terminal (TERM=dumb) writes no escape sequence; d shows the whole diff; A accepts the rest', async () => {
    const { exitCode, screen } = await review('dumb', ['s', 's', 'd', 'A']);

    expect(exitCode).toBe(1);
    expect(screen).not.toContain('\u001b');
    const whole = screens(screen)[3] ?? '';
    expect(whole).not.toContain('more lines of diff');
    expect(whole).toContain('+     "content": "done"\n+   }\n+ ]\n');
    expect(screen).toContain('accepted story-every-name-in-order\n');
    expect(await readFile(snapshotFile('story-every-name-in-order.json'), 'utf8')).toBe(
      await committed('story-every-name-in-order'),
    );
  });

  it('Ctrl-C stops the review with exit 130, deciding nothing more', async () => {
    const { exitCode } = await review('xterm', ['\u0003']);
    expect(exitCode).toBe(130);
    expect((await readdir(join(pkg, 'snapshots', STAGE))).filter((f) => f.endsWith('.new'))).toHaveLength(3);
  });
});

describe('theinference snapshot --review through a pipe', () => {
  it('reads a key per line (an empty line accepts) and ends at the end of its input, leaving the rest pending', async () => {
    const run = await execa('node', [bin, 'snapshot', '--stage', STAGE, '--review'], {
      cwd: pkg,
      env: env({ NO_COLOR: '1' }),
      input: 'x\n\n',
      reject: false,
    });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('Unknown key "x": a or Enter accepts');
    expect(run.stdout).toContain('\naccepted course-glob-everything\n');
    // Nothing cut: no terminal, no size.
    expect(run.stdout).not.toContain('more lines of diff');
    expect(run.stdout.split('\n').slice(-2)).toEqual([
      'Reviewed 3 pending snapshots of register-tools: 1 accepted, 0 rejected, 0 skipped.',
      'Still pending: course-read-seeded-file, story-every-name-in-order. `npx theinference snapshot --stage register-tools --review` goes on with them.',
    ]);
  });
});

describe('theinference snapshot without a review', () => {
  it('--check fails on the pending files; --accept and --reject decide them; then --check passes', async () => {
    const run = (...args: string[]) =>
      execa('node', [bin, 'snapshot', '--stage', STAGE, ...args], {
        cwd: pkg,
        env: env({ NO_COLOR: '1' }),
        reject: false,
      });
    const check = await run('--check');
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toContain(
      'Pending review: course-glob-everything, course-read-seeded-file, story-every-name-in-order.',
    );
    const decided = await run('--accept', 'course-*', '--reject', 'story-every-name-in-order');
    expect([decided.exitCode, decided.stdout.split('\n').at(-1)]).toEqual([0, '2 accepted, 1 rejected']);
    expect(await readFile(snapshotFile('story-every-name-in-order.json'), 'utf8')).toBe(EMPTY);
    expect((await run('--check')).exitCode).toBe(1);
    await run();
    expect((await run('--accept-all')).exitCode).toBe(0);
    const after = await run('--check');
    expect([after.exitCode, after.stdout.split('\n').at(-1)]).toEqual([0, '3 up to date']);
  });
});

// The timings file a one-off run leaves in the course directory: read back as written, and read only when it is
// the grader's own, reached through no link; a link on the way is never followed, to read or to write.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseTimings, readTimings, timingsPath, writeTimings } from '../../src/grade/case-timings.ts';

const STAGE = 'register-tools';
let root: string;
let dir: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-timings-'));
  dir = join(root, 'course');
  await mkdir(dir);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the timings file', () => {
  it('reads back what a run wrote, in whole milliseconds, sorted by name', async () => {
    await writeTimings(
      dir,
      STAGE,
      new Map([
        ['b', 12.4],
        ['a', 300.6],
      ]),
    );
    expect(readTimings(dir, STAGE)).toEqual(
      new Map([
        ['a', 301],
        ['b', 12],
      ]),
    );
    expect(await readFile(timingsPath(dir, STAGE), 'utf8')).toBe(
      '{\n  "format": "theinference-timings-1",\n  "ms": {\n    "a": 301,\n    "b": 12\n  }\n}\n',
    );
  });

  it('is no timings when there is no file', () => {
    expect(readTimings(dir, STAGE)).toEqual(new Map());
  });

  it.each<[string, string]>([
    ['not JSON', '{ nope'],
    ['another format', '{"ms":{"a":1}}'],
    ['no times', '{"format":"theinference-timings-1"}'],
  ])('is no timings when the file is %s', async (_, text) => {
    await mkdir(dirname(timingsPath(dir, STAGE)), { recursive: true });
    await writeFile(timingsPath(dir, STAGE), text);
    expect(readTimings(dir, STAGE)).toEqual(new Map());
  });

  it('keeps only times that can be a case’s', () => {
    const text = '{"format":"theinference-timings-1","ms":{"a":5,"b":-1,"c":"7","d":1e12,"e":null}}';
    expect(parseTimings(text)).toEqual(new Map([['a', 5]]));
  });

  it('is no timings when the file is larger than the grader writes', async () => {
    await mkdir(dirname(timingsPath(dir, STAGE)), { recursive: true });
    const ms = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`case-with-a-long-name-${i}`, 1]));
    await writeFile(timingsPath(dir, STAGE), JSON.stringify({ format: 'theinference-timings-1', ms }));
    expect(readTimings(dir, STAGE)).toEqual(new Map());
  });

  it('follows no link to the file: neither reads through it nor writes through it', async () => {
    // Elsewhere, the grader's own file, as a link in the course directory would point at it.
    const elsewhere = join(root, 'elsewhere');
    await writeTimings(elsewhere, STAGE, new Map([['a', 1]]));
    const before = await readFile(timingsPath(elsewhere, STAGE), 'utf8');
    await symlink(join(elsewhere, 'node_modules'), join(dir, 'node_modules'), 'dir');
    expect(readTimings(dir, STAGE)).toEqual(new Map());
    await writeTimings(dir, STAGE, new Map([['b', 2]]));
    expect(await readFile(timingsPath(elsewhere, STAGE), 'utf8')).toBe(before);
  });

  it('follows no link as the file itself', async () => {
    const target = join(root, 'target.json');
    await writeFile(target, '{"format":"theinference-timings-1","ms":{"a":1}}');
    await mkdir(dirname(timingsPath(dir, STAGE)), { recursive: true });
    await symlink(target, timingsPath(dir, STAGE));
    expect(readTimings(dir, STAGE)).toEqual(new Map());
    // Written over, the link is replaced by a file of its own; its target is untouched.
    await writeTimings(dir, STAGE, new Map([['b', 2]]));
    expect([readTimings(dir, STAGE), await readFile(target, 'utf8')]).toEqual([
      new Map([['b', 2]]),
      '{"format":"theinference-timings-1","ms":{"a":1}}',
    ]);
  });

  it('is no timings, at once, when the file is a FIFO (opened to read, it would wait for a writer forever)', async () => {
    await mkdir(dirname(timingsPath(dir, STAGE)), { recursive: true });
    execFileSync('mkfifo', [timingsPath(dir, STAGE)]);
    expect(readTimings(dir, STAGE)).toEqual(new Map());
    // Written over, the FIFO is replaced by a file of the grader's.
    await writeTimings(dir, STAGE, new Map([['b', 2]]));
    expect(readTimings(dir, STAGE)).toEqual(new Map([['b', 2]]));
  });

  it('is not written where the directory cannot be made, and says nothing', async () => {
    await writeFile(join(dir, 'node_modules'), 'not a directory');
    await writeTimings(dir, STAGE, new Map([['a', 1]]));
    expect(existsSync(timingsPath(dir, STAGE))).toBe(false);
  });
});

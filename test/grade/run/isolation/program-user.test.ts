// Where a grader run as root (which starts its sandboxes as nobody) makes what its sandboxes bind: a temp dir nobody
// can enter, such as a TMPDIR that mkdtemp made (mode 0700), sends it to /tmp, since bubblewrap resolves every
// source by its path as nobody.
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bindableTmpdir,
  closedToOthers,
  closedToProgramUser,
  PROGRAM_USER,
} from '../../../../src/grade/run/isolation/program-user.ts';
import { useScratch } from '../../course-fixture.ts';

const scratch = useScratch();
const saved = process.env.TMPDIR;
afterEach(() => {
  process.env.TMPDIR = saved;
});

describe('closedToOthers', () => {
  it('names the first directory at or above the path that others cannot enter', async () => {
    const closed = join(scratch.root, 'closed');
    await mkdir(join(closed, 'open'), { recursive: true });
    await chmod(closed, 0o700);
    expect(closedToOthers(join(closed, 'open'))).toBe(closed);
    expect(closedToOthers(closed)).toBe(closed);
    await chmod(closed, 0o755);
    expect(closedToOthers(join(closed, 'open'))).toBe(closedToOthers(scratch.root));
  });

  it('is undefined for a path every user can enter, and names a path that does not exist', () => {
    expect(closedToOthers('/usr/bin')).toBeUndefined();
    expect(closedToOthers('/nonexistent-theinference')).toBe('/nonexistent-theinference');
  });
});

describe('bindableTmpdir', () => {
  it('is the temp dir when every user can enter it', async () => {
    const open = await mkdtemp('/tmp/theinference-open-tmp-');
    try {
      await chmod(open, 0o755);
      process.env.TMPDIR = open;
      expect(bindableTmpdir()).toBe(open);
    } finally {
      await rm(open, { recursive: true, force: true });
    }
  });

  it.runIf(PROGRAM_USER !== undefined)('is /tmp, for a grader run as root, when the temp dir is closed', async () => {
    const closed = join(scratch.root, 'closed-tmp');
    await mkdir(closed, { mode: 0o700 });
    process.env.TMPDIR = closed;
    expect(bindableTmpdir()).toBe('/tmp');
  });
});

describe('closedToProgramUser', () => {
  it('says where nobody cannot pass to Node, and how to fix it; nothing when every directory is open', async () => {
    const closed = join(scratch.root, 'closed-node');
    await mkdir(join(closed, 'node'), { recursive: true });
    await chmod(closed, 0o700);
    expect(closedToProgramUser(join(closed, 'node'))).toMatch(
      new RegExp(
        `^the grader runs as root, so it runs the program under test as nobody, and nobody cannot enter ${closed}, on the way to Node \\(`,
      ),
    );
    expect(closedToProgramUser('/usr/bin')).toBeUndefined();
  });
});

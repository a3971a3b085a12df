// Where a stage's student file is when it is not where the driver imports it from.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { misplacedFile } from '../../src/course/misplaced-file.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'misplaced-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// A course directory holding these files (relative paths), each with some content.
async function course(files: string[]): Promise<string> {
  const dir = await mkdtemp(join(root, 'course-'));
  for (const file of files) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), '');
  }
  return dir;
}

describe('misplacedFile', () => {
  it.each<[string, string[], string | undefined]>([
    ['there: nothing to say', ['src/agent-loop.ts', 'agent-loop.ts'], undefined],
    ['moved to the top', ['agent-loop.ts'], 'agent-loop.ts'],
    ['moved one directory down, elsewhere', ['lib/agent-loop.ts'], 'lib/agent-loop.ts'],
    ['the top before a directory', ['lib/agent-loop.ts', 'agent-loop.ts'], 'agent-loop.ts'],
    ['not two directories down', ['a/b/agent-loop.ts'], undefined],
    ['not in node_modules or a dot directory', ['node_modules/agent-loop.ts', '.git/agent-loop.ts'], undefined],
    ['nowhere', ['src/execute.ts'], undefined],
  ])('%s', async (_name, files, found) => {
    expect(await misplacedFile(await course(files), 'src/agent-loop.ts')).toBe(found);
  });
});

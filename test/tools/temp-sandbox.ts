import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { Tools } from '../../src/tools/index.ts';

// What a test seeds: text, bytes, a symlink (`<outside>` in its target becomes the outside directory),
// or a directory (a key ending in `/`).
export type Seed = Record<string, string | Buffer | { symlink: string }>;

// The secret file every sandbox-escape test tries to reach.
export const SECRET = 'top secret\n';

// A fresh sandbox per test: `<base>/sandbox` for the Tools and `<base>/outside/secret.txt` to escape to,
// both under os.tmpdir() and removed after the test.
export function useSandbox() {
  let base = '';
  const box = {
    root: '',
    outside: '',
    tools: undefined as unknown as Tools,
    async seed(files: Seed): Promise<void> {
      for (const [path, spec] of Object.entries(files)) {
        const target = join(box.root, path);
        await mkdir(path.endsWith('/') ? target : dirname(target), { recursive: true });
        if (path.endsWith('/')) continue;
        if (typeof spec === 'string' || Buffer.isBuffer(spec)) await writeFile(target, spec);
        else await symlink(spec.symlink.replace('<outside>', box.outside), target);
      }
    },
    read(path: string): Promise<string> {
      return readFile(join(box.root, path), 'utf8');
    },
    readOutside(path: string): Promise<string | null> {
      return readFile(join(box.outside, path), 'utf8').catch(() => null);
    },
  };
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'theinference-tools-test-'));
    box.root = join(base, 'sandbox');
    box.outside = join(base, 'outside');
    await mkdir(box.root);
    await mkdir(box.outside);
    await writeFile(join(box.outside, 'secret.txt'), SECRET);
    box.tools = new Tools(box.root);
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });
  return box;
}

// --files-from (or the workspace a live capture holds): the workspace as it was when the session started, read
// only for the files a case's calls touch.
// A file is used when it is a regular text file (no NUL byte) no bigger than a seed may be, and is inside the
// directory once links are followed (a workspace's `.env -> ~/secrets/.env` must not become a case); anything else
// is as if it were not there, and seeds fall back on the recording's evidence.
import { open, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { FileSpec } from '../../course/types.ts';
import { MAX_SEED_CHARS, type FilesFrom } from './seed-files.ts';

// A reader of a workspace a transcript holds (a live capture's): its text files, as a seed may hold them.
export function readWorkspace(files: Record<string, FileSpec>): FilesFrom {
  return async (path) => {
    const spec = Object.hasOwn(files, path) ? files[path] : undefined;
    return typeof spec === 'string' && spec.length <= MAX_SEED_CHARS ? spec : undefined;
  };
}

// A reader of `dir` for sandbox-relative paths (they never climb out: src/record/map/map-call.ts normalised them).
export function readFilesFrom(dir: string): FilesFrom {
  const cache = new Map<string, Promise<string | undefined>>();
  const root = realpath(dir).catch(() => undefined);
  return (path) => {
    if (path === '' || path.split('/').includes('..')) return Promise.resolve(undefined);
    let text = cache.get(path);
    if (text === undefined) cache.set(path, (text = readText(root, join(dir, path))));
    return text;
  };
}

async function readText(root: Promise<string | undefined>, file: string): Promise<string | undefined> {
  const [inside, real] = await Promise.all([root, realpath(file).catch(() => undefined)]);
  if (inside === undefined || real === undefined || !real.startsWith(`${inside}${sep}`)) return undefined;
  const handle = await open(real, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_SEED_CHARS * 4) return undefined;
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return undefined;
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

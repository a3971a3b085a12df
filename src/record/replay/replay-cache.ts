// What a transcript's replay found, kept in the course directory so that the real run right after a dry run of the
// same input (the flow docs/recording.md gives: read the report, then record for real) does not replay it all
// again. Kept where build tools keep their caches, under node_modules/.cache/ (a course's .gitignore leaves it
// out), one file per replay, named by a hash of everything the replay depends on: the transcript's calls as the
// pipeline prepared them (paths, redaction and all), the options that change what is kept, the reference's sources
// and whether the replays ran in the sandbox. Anything unreadable is no cache; a write that fails is skipped.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../../course/snapshot-file.ts';
import type { Built } from './build-cases.ts';
import type { ReplayVerdict } from './verify-result.ts';

// Bumped whenever what is cached, or how a replay is judged, changes meaning.
const CACHE_VERSION = 1;
// The replays kept at most per course directory, the newest.
const KEEP = 20;

// The directory of the replay cache of the course directory `dir`.
export function replayCacheDir(dir: string): string {
  return join(dir, 'node_modules', '.cache', 'theinference', 'record');
}

// The key of one replay: a hash of its inputs (any JSON values), with the cache's version.
export function replayKey(inputs: unknown): string {
  const text = JSON.stringify([CACHE_VERSION, inputs], (_, v: unknown) =>
    v instanceof Map ? [...v] : v instanceof RegExp ? String(v) : v,
  );
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

// A hash of the reference that replays (the driver's dispatch mode, src/execute.ts, src/tools/): another reference,
// other replays.
export async function referenceIdentity(root: string): Promise<string> {
  const tools = (await readdir(join(root, 'src', 'tools')).catch(() => [] as string[])).sort();
  const files = [
    join('src', 'modes', 'dispatch', 'driver.ts'),
    join('src', 'execute.ts'),
    ...tools.map((t) => join('src', 'tools', t)),
  ];
  const hash = createHash('sha256');
  for (const file of files) hash.update(`${file}\0${await readFile(join(root, file), 'utf8').catch(() => '')}\0`);
  return hash.digest('hex');
}

// The replay kept under `key`, or undefined.
export async function readCachedBuild(dir: string, key: string): Promise<Built | undefined> {
  const text = await readFile(join(replayCacheDir(dir), `${key}.json`), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as {
      drafts: Built['drafts'];
      dropped: [number, string][];
      divergences: [number, ReplayVerdict][];
      replayed: number[];
    };
    if (!Array.isArray(data.drafts) || !Array.isArray(data.dropped)) return undefined;
    return {
      drafts: data.drafts,
      dropped: new Map(data.dropped),
      divergences: new Map(data.divergences),
      replayed: new Set(data.replayed),
    };
  } catch {
    return undefined;
  }
}

// Keeps a replay under `key`, and only the newest replays beside it; only in a course directory that has its
// node_modules/ (a dry run elsewhere writes nothing at all).
export async function writeCachedBuild(dir: string, key: string, built: Built): Promise<void> {
  if (
    !(await stat(join(dir, 'node_modules')).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  )
    return;
  const cache = replayCacheDir(dir);
  const data = {
    drafts: built.drafts,
    dropped: [...built.dropped],
    divergences: [...built.divergences],
    replayed: [...built.replayed],
  };
  try {
    await mkdir(cache, { recursive: true });
    await writeAtomically(join(cache, `${key}.json`), `${JSON.stringify(data)}\n`);
    const entries = (await readdir(cache)).filter((e) => e.endsWith('.json'));
    if (entries.length <= KEEP) return;
    const dated = await Promise.all(
      entries.map(async (e) => ({ e, at: (await stat(join(cache, e)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    for (const { e } of dated.sort((a, b) => b.at - a.at).slice(KEEP)) await rm(join(cache, e), { force: true });
  } catch {
    // A course directory that cannot keep a cache (read-only, say) replays again next time.
  }
}

// The course's type check beside its cases: the compiler `npm run typecheck` runs (`tsc --noEmit`), over the course
// directory's own tsconfig.json, with its answer kept until a file it reads changes. Only in the student's own
// course directory, the one the grader is installed in (node_modules/theinference, as `init` and `npm install`
// make it): there tsc is the course's own, found beside the grader, as `npm run typecheck` finds it. A directory
// graded from elsewhere (`--dir` of a submission, a class, this repository) is not type-checked: its node_modules
// never runs here, and staff grade by cases. tsc reads the course's files and runs none of them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { realpath } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import fg from 'fast-glob';
import { readAsData } from '../../course/read-as-data.ts';
import { packageRoot } from '../../course/stages.ts';
import { readCache, writeCache } from '../course-cache.ts';
import type { TypeCheck, TypeCheckError } from '../types.ts';
import { readTscOutput } from './tsc-output.ts';

// tsc on a course directory takes 2-4 s on the machines we measured; past this it is stuck, or the course is not one.
const TIMEOUT_MS = 120_000;
// The cache key reads at most this many files and bytes; a bigger directory is checked every time.
const MAX_FILES = 2000;
const MAX_BYTES = 32 * 1024 * 1024;
const CACHE = 'typecheck.json';
const FORMAT = 'theinference-typecheck-1';

// Type-checks the course directory `dir`; `signal` stops tsc (watch mode's next save). The answer of a directory
// whose files are unchanged since the last check is the one on record.
export async function runTypeCheck(dir: string, options: { signal?: AbortSignal } = {}): Promise<TypeCheck> {
  if (!(await installedIn(dir))) {
    return { kind: 'not run', why: 'theinference is not installed in this course directory (npm install)' };
  }
  const tsc = tscBesideGrader();
  if (tsc === undefined) return { kind: 'not run', why: 'typescript is not installed beside theinference' };
  const key = await cacheKey(dir, tsc.version);
  if (key === 'no tsconfig') return { kind: 'not run', why: 'the course directory has no tsconfig.json' };
  const cached = key === undefined ? undefined : fromCache(dir, key);
  if (cached !== undefined) return cached;
  const result = await runTsc(dir, tsc.script, options.signal);
  if (key !== undefined && result.kind !== 'not run') {
    await writeCache(dir, CACHE, `${JSON.stringify({ format: FORMAT, key, result })}\n`);
  }
  return result;
}

async function runTsc(dir: string, script: string, signal: AbortSignal | undefined): Promise<TypeCheck> {
  // execa and its ~170 modules load only when tsc runs: every grading run imports this file, and most find the
  // answer on record or no check to run (about a tenth of the CLI's start-up CPU).
  const { execa } = await import('execa');
  const child = execa(process.execPath, [script, '--noEmit', '--pretty', 'false', '-p', dir], {
    cwd: dir,
    reject: false,
    timeout: TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
    stdin: 'ignore',
    ...(signal === undefined ? {} : { cancelSignal: signal }),
  });
  // Beside the cases, the cases come first: tsc gets the cores they leave.
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, 10);
    } catch {}
  }
  const done = await child;
  if (done.isCanceled) return { kind: 'not run', why: 'stopped' };
  if (done.timedOut) return { kind: 'not run', why: `tsc took longer than ${TIMEOUT_MS / 1000} s` };
  const errors = readTscOutput(String(done.stdout));
  if (errors.length > 0) return { kind: 'errors', errors };
  if (done.exitCode === 0) return { kind: 'clean' };
  return { kind: 'not run', why: `tsc exited with code ${done.exitCode ?? done.signal} and named no error` };
}

// Whether this grader is the one installed in the course directory `dir`.
async function installedIn(dir: string): Promise<boolean> {
  const real = await Promise.all([realpath(dir), realpath(packageRoot())]).catch(() => undefined);
  if (real === undefined) return false;
  const [course, grader] = real;
  return grader.startsWith(join(course, 'node_modules') + sep);
}

// tsc's script and version, resolved from the grader's own files.
function tscBesideGrader(): { script: string; version: string } | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('typescript/package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    return { script: join(dirname(manifest), 'lib', 'tsc.js'), version };
  } catch {
    return undefined;
  }
}

// A hash of everything of the course's own that tsc reads (its TypeScript and JSON files, node_modules aside, and
// the lock file that says which types are installed) and of tsc's and the grader's versions; undefined when the
// directory is too big to hash, 'no tsconfig' without one.
async function cacheKey(dir: string, tscVersion: string): Promise<string | undefined | 'no tsconfig'> {
  const files = (
    await fg(['**/*.{ts,mts,cts,tsx,json}'], {
      cwd: dir,
      ignore: ['**/node_modules/**', '**/.git/**'],
      followSymbolicLinks: false,
      onlyFiles: true,
    })
  ).sort();
  if (!files.includes('tsconfig.json')) return 'no tsconfig';
  if (files.length > MAX_FILES) return undefined;
  const hash = createHash('sha256').update(`${FORMAT}\0${tscVersion}\0${graderVersion()}\0`);
  let bytes = 0;
  for (const file of files) {
    // Read as data: a file swapped for a FIFO since it was listed is never waited on.
    const read = await readAsData(join(dir, file), MAX_BYTES);
    if (typeof read === 'string') return undefined;
    const data = read.data;
    bytes += data.length;
    if (bytes > MAX_BYTES) return undefined;
    hash.update(`${file}\0${data.length}\0`).update(data);
  }
  return hash.digest('hex');
}

function graderVersion(): string {
  try {
    const manifest = new URL('../../../package.json', import.meta.url);
    return String((JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown }).version);
  } catch {
    return '';
  }
}

// The answer on record for `key`, if it is the grader's and well formed.
function fromCache(dir: string, key: string): TypeCheck | undefined {
  const text = readCache(dir, CACHE, 4 * 1024 * 1024);
  if (text === undefined) return undefined;
  try {
    const record = JSON.parse(text) as { format?: unknown; key?: unknown; result?: TypeCheck };
    if (record.format !== FORMAT || record.key !== key) return undefined;
    const { result } = record;
    if (result?.kind === 'clean') return { kind: 'clean' };
    if (result?.kind === 'errors' && Array.isArray(result.errors) && result.errors.every(isTypeCheckError)) {
      return { kind: 'errors', errors: result.errors };
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function isTypeCheckError(e: unknown): e is TypeCheckError {
  const x = e as Partial<TypeCheckError> | null;
  return typeof x === 'object' && x !== null && typeof x.code === 'string' && typeof x.message === 'string';
}

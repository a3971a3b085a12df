// Reads what a submission is made of, as data: its own regular files, and nothing it could use to configure the
// grader or reach beyond itself. No link is followed (a `node_modules` or any other link is named, not read), no
// special file is opened (a socket, a FIFO, a device), and node_modules, version control and CI metadata and the
// package managers' configuration are left out: the grader runs no package manager and no script of the
// submission, and `.git/config` holds the CI job's token after actions/checkout. Capped in files and bytes, so a
// huge directory is one clear error rather than a full disk.
import { createHash } from 'node:crypto';
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError } from '../../../errors.ts';
import { readAsData } from '../../../course/read-as-data.ts';

// A regular file of the submission: its path relative to the submission, '/'-separated, and its bytes.
export type SubmissionFile = { path: string; data: Buffer; executable: boolean };

// What was found and not copied, with why: a link (and where it pointed) or a special file.
export type Skipped = { path: string; what: string };

// The submission's files in path order, what was skipped, and a digest of paths, modes and contents.
export type Submission = { files: SubmissionFile[]; skipped: Skipped[]; digest: string };

// Left out wherever they are: the grader's and the package manager's, and version control's.
const NEVER = new Set(['node_modules', '.git', '.hg', '.svn', '.bzr', '.jj', '.pijul', '_darcs']);
// Left out at the top: CI metadata and package-manager configuration, which grading never needs.
const NOT_AT_TOP = new Set([
  '.github',
  '.gitlab',
  '.gitlab-ci.yml',
  '.circleci',
  '.buildkite',
  '.travis.yml',
  '.woodpecker',
  '.woodpecker.yml',
  '.drone.yml',
  '.gitea',
  '.forgejo',
  'azure-pipelines.yml',
  'bitbucket-pipelines.yml',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
]);

// Far more than a course directory holds (about 30 files, 100 KB); past them, the submission is refused.
export const SUBMISSION_LIMITS = { files: 5000, bytes: 64 * 1024 * 1024 };

// Directories nested deeper than this are left out: a course directory is a few levels deep, and a path thousands
// of levels long is past what the file system names (ENAMETOOLONG).
const DEEPEST = 64;

// Whether an entry named `name`, `depth` levels below the submission's root (0: at the top), is left out.
export function leftOut(name: string, depth: number): boolean {
  return NEVER.has(name) || (depth === 0 && NOT_AT_TOP.has(name));
}

// Reads the submission in `dir` (a real path); a HarnessError when it is past the limits.
export async function readSubmission(dir: string, limits = SUBMISSION_LIMITS): Promise<Submission> {
  const files: SubmissionFile[] = [];
  const skipped: Skipped[] = [];
  let entries = 0;
  let bytes = 0;
  const tooLarge = (what: string): HarnessError =>
    new HarnessError(
      'SUBMISSION_TOO_LARGE',
      `the submission in ${dir} has ${what}: the grader copies a submission's own files (all but node_modules and version control) for its program to run from, and grades at most ${limits.files} files and ${limits.bytes / 1024 / 1024} MB. Remove what grading does not need (build output, data, a copied node_modules under another name) and grade again.`,
    );
  // Depth first, with a stack of its own: a directory nested thousands deep costs no recursion.
  const stack: Array<{ rel: string; depth: number }> = [{ rel: '', depth: 0 }];
  while (stack.length > 0) {
    const { rel, depth } = stack.pop()!;
    // Names as bytes: one that is not UTF-8 would read back as another name, which names nothing on disk.
    const found = await readdir(join(dir, rel), { withFileTypes: true, encoding: 'buffer' }).catch((error) => {
      if (rel === '') throw error;
      skipped.push({ path: rel, what: `a directory the grader cannot read (${errorCode(error)})` });
      return [];
    });
    for (const entry of found) {
      const name = entry.name.toString('utf8');
      if (leftOut(name, depth)) continue;
      if ((entries += 1) > limits.files) throw tooLarge(`more than ${limits.files} files and directories`);
      const path = rel === '' ? name : `${rel}/${name}`;
      if (!Buffer.from(name, 'utf8').equals(entry.name)) skipped.push({ path, what: 'a name that is not UTF-8' });
      else if (entry.isDirectory() && depth + 1 > DEEPEST)
        skipped.push({ path, what: `a directory nested more than ${DEEPEST} deep` });
      else if (entry.isDirectory()) stack.push({ rel: path, depth: depth + 1 });
      else if (entry.isSymbolicLink()) {
        const target = await readlink(join(dir, path)).catch(() => '?');
        skipped.push({ path, what: `a link to ${target}` });
      } else if (entry.isFile()) {
        const file = await readAsData(join(dir, path), limits.bytes - bytes).catch((error) => ({
          unreadable: errorCode(error),
        }));
        if (typeof file === 'object' && 'unreadable' in file)
          skipped.push({ path, what: `a file the grader cannot read (${file.unreadable})` });
        else if (file === 'too large') throw tooLarge(`more than ${limits.bytes / 1024 / 1024} MB of files`);
        else if (file === 'missing' || file === 'not regular') skipped.push({ path, what: 'not a regular file' });
        else if ('data' in file) {
          bytes += file.data.length;
          files.push({ path, ...file });
        }
      } else skipped.push({ path, what: 'not a regular file (a socket, a FIFO or a device)' });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.path}\0${f.executable ? 'x' : '-'}\0${f.data.length}\0`).update(f.data);
  return { files, skipped, digest: hash.digest('hex') };
}

// An error's code (ENAMETOOLONG, EACCES), or its message.
function errorCode(error: unknown): string {
  return error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
}

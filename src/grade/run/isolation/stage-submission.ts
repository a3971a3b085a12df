// The grader stages what it grades: a sandboxed program never sees the submission's directory, only the grader's
// own copy of its regular files (read-submission.ts), mounted read-only at the submission's path so that every path
// in its output reads as the student's own (`src/execute.ts:8:36`). The copy lives in the grader's temp dir, one per
// submission directory for as long as anything holds it: a run, which makes it hold the submission as it is now
// before any of its processes reads it, and each program process that mounts it (a warm standby mounts it before
// its run has refreshed it, and reads nothing of it until its work arrives). Rewritten only when the submission's
// content changed; removed once nothing holds it, and by the exit hook if the grader dies first. A grader run as root
// runs a submission's program from the copy outside the sandbox too, as nobody (program-user.ts), who may not be able
// to enter the submission's directory and must not be able to enter the grader's. The copy is `<base>/course`, and
// `<base>/node_modules` links the grader's runtime packages, which Node finds from the copy's files by walking up
// past its empty mount point (those of the install the program runs from: program-install.ts); the sandbox binds the
// copy alone and never sees the link.
import { realpath, symlink } from 'node:fs/promises';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { holdUntilExit, releaseAtExit } from '../live-groups.ts';
import { readSubmission, type Submission, type SubmissionFile } from './read-submission.ts';
import { programInstall } from './program-install.ts';
import { bindableTmpdir, PROGRAM_USER } from './program-user.ts';
import { graderModules } from './sandbox-layout.ts';

// The directory in the staged copy where the grader's own runtime packages are mounted (sandbox-layout.ts).
export const MODULES_MOUNT = 'node_modules';

// Whether a submission's program processes read the staged copy: always in the sandbox, and outside it when they run
// as another user than the grader (program-user.ts); else they run in the submission's directory itself.
export function runsStaged(sandbox: boolean): boolean {
  return sandbox || PROGRAM_USER !== undefined;
}

// One hold on a staged copy: the host directory to mount, and how to let go of it (safe to call twice).
type StageHold = { path: string; release: () => Promise<void> };

type Stage = {
  made: Promise<string>;
  holders: number;
  // The content it holds, and its files by path; undefined until first filled (and while a fill is under way).
  digest: string | undefined;
  files: ReadonlyMap<string, SubmissionFile> | undefined;
  // The last fill, which every later one waits for.
  filling: Promise<void>;
};
const STAGES = new Map<string, Stage>();

// Holds the staged copy of the submission in `dir` (a real path), filling it from the submission when it has
// never been filled. Rejects (a HarnessError past the limits) without holding anything.
export async function holdStage(dir: string): Promise<StageHold> {
  const stage = stageOf(dir);
  stage.holders += 1;
  const hold = holding(dir, stage);
  try {
    const path = await stage.made;
    if (stage.digest === undefined) await refill(stage, () => readSubmission(dir));
    return { path, release: hold };
  } catch (error) {
    await hold();
    throw error;
  }
}

// A run's hold: the copy made to hold the submission in `dir` (a real path) as it is now, and what was read.
type Staged = { submission: Submission; hold: StageHold };

// Reads the submission in `dir` (a real path) and makes the staged copy hold exactly it, before any process of the
// run reads it; the copy is held until the run releases it. A HarnessError when the submission is past the limits.
export async function stageSubmission(dir: string): Promise<Staged> {
  const submission = await readSubmission(dir);
  const stage = stageOf(dir);
  stage.holders += 1;
  const release = holding(dir, stage);
  try {
    await refill(stage, async () => submission);
    return { submission, hold: { path: await stage.made, release } };
  } catch (error) {
    await release();
    throw error;
  }
}

// The real path of `dir`, the key of its staged copy.
function submissionDir(dir: string): Promise<string> {
  return realpath(dir);
}

function stageOf(dir: string): Stage {
  let stage = STAGES.get(dir);
  if (stage !== undefined) return stage;
  const base = mkdtemp(join(bindableTmpdir(), 'theinference-stage-'));
  const made = base.then(async (path) => {
    const copy = join(path, 'course');
    await mkdir(join(copy, MODULES_MOUNT), { recursive: true });
    // Where the program cannot run (program-install.ts), its start says why; the link is then never followed.
    const install = await programInstall();
    const modules = graderModules('error' in install ? undefined : install.root);
    if (modules !== undefined) await symlink(modules, join(path, 'node_modules'), 'dir');
    // A program run as another user (program-user.ts) reads the copy as that user.
    if (PROGRAM_USER !== undefined) for (const dir of [path, copy]) await chmod(dir, 0o755);
    return copy;
  });
  stage = { made, holders: 0, digest: undefined, files: undefined, filling: made.then(() => undefined) };
  const created = stage;
  // If the grader dies before a release, its exit hook removes the copy.
  void base.then((path) => holdUntilExit(created, () => {}, path)).catch(() => {});
  STAGES.set(dir, stage);
  return stage;
}

// The release of one hold: the last one removes the copy.
function holding(dir: string, stage: Stage): () => Promise<void> {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    stage.holders -= 1;
    if (stage.holders > 0) return;
    if (STAGES.get(dir) === stage) STAGES.delete(dir);
    const path = await stage.made.catch(() => undefined);
    releaseAtExit(stage);
    if (path !== undefined) await rm(dirname(path), { recursive: true, force: true });
  };
}

// Makes the copy hold what `read` gives, after every earlier fill, unless it holds that already.
async function refill(stage: Stage, read: () => Promise<Submission>): Promise<void> {
  const previous = stage.filling;
  const next = (async () => {
    await previous.catch(() => {});
    const submission = await read();
    if (stage.digest === submission.digest) return;
    const held = stage.files;
    stage.digest = undefined;
    stage.files = undefined;
    await fill(await stage.made, submission, held);
    stage.digest = submission.digest;
    stage.files = new Map(submission.files.map((file) => [file.path, file]));
  })();
  stage.filling = next;
  await next;
}

// Makes `path` hold the submission's files and nothing else but the modules' mount point. `held`: what it holds
// now, when known (the last fill's files): then only what changed is removed or written, so a save rewrites one
// file, not the whole copy (a standby reading the copy meanwhile sees less change); else it is emptied first.
async function fill(path: string, submission: Submission, held?: ReadonlyMap<string, SubmissionFile>): Promise<void> {
  const wanted = new Set(submission.files.flatMap((file) => parents(file.path)));
  const made = new Set<string>([path]);
  if (held === undefined) {
    for (const entry of await readdir(path)) {
      if (entry !== MODULES_MOUNT) await rm(join(path, entry), { recursive: true, force: true });
    }
  } else {
    const paths = new Set(submission.files.map((file) => file.path));
    for (const old of held.keys()) if (!paths.has(old)) await rm(join(path, old), { force: true });
    // Deepest first, so that a directory no file needs any more goes whole.
    const dirs = [...new Set([...held.keys()].flatMap(parents))].sort((a, b) => b.length - a.length);
    for (const dir of dirs) {
      if (wanted.has(dir)) made.add(join(path, dir));
      else await rm(join(path, dir), { recursive: true, force: true });
    }
  }
  const makeDir = async (dir: string): Promise<void> => {
    if (made.has(dir)) return;
    await makeDir(dirname(dir));
    await mkdir(dir);
    await chmod(dir, 0o755);
    made.add(dir);
  };
  for (const file of submission.files) {
    const before = held?.get(file.path);
    if (before !== undefined && before.executable === file.executable && before.data.equals(file.data)) continue;
    const target = join(path, file.path);
    await makeDir(dirname(target));
    const mode = file.executable ? 0o755 : 0o644;
    await writeFile(target, file.data, { mode });
    await chmod(target, mode);
  }
}

// The directories a file's path lies in, '/'-separated, innermost first (none for a file at the top).
function parents(path: string): string[] {
  const dirs: string[] = [];
  for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) dirs.push(path.slice(0, at));
  return dirs;
}

// What a run is told about its submission's staged copy, and the hold to release when the run ends.
type RunStage = { warnings: string[]; release: () => Promise<void> };

// Stages the submission in `dir` for a run whose processes read the copy (runsStaged); nothing to do for any other
// run (the program runs in the directory itself) or for the reference (the package root, shown as it is).
export async function stageForRun(dir: string, sandbox: boolean, root: string): Promise<RunStage> {
  const real = await submissionDir(dir);
  if (!runsStaged(sandbox) || real === (await realpath(root))) return { warnings: [], release: async () => undefined };
  const { submission, hold } = await stageSubmission(real);
  return { warnings: skippedWarning(submission), release: hold.release };
}

// The links, special files and unreadable names left out of the copy, said once: the program will not find them.
function skippedWarning(submission: Submission): string[] {
  const { skipped } = submission;
  if (skipped.length === 0) return [];
  const named = skipped.slice(0, 3).map((s) => `${s.path} (${s.what})`);
  const more = skipped.length > 3 ? `, and ${skipped.length - 3} more` : '';
  const links = skipped.some((s) => s.what.startsWith('a link'))
    ? ' Replace a link with the file or directory itself.'
    : '';
  return [
    `the grader copies only your own regular files for your program to run from, and never follows a link: ${named.join(', ')}${more} ${skipped.length === 1 ? 'is' : 'are'} not there for your program.${links}`,
  ];
}

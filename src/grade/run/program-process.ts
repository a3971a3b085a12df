// Starts one program process the way every one is started, and is the one place that decides how it is
// confined: `node --import <tsx> …` in the course directory (or the package root, for the reference), with an
// environment of only what program-env.ts passes and a TMPDIR of its own, either in the sandbox (bubblewrap:
// isolation/) or, with --isolation off, detached in a process group of its own; a submission's, for a grader run as
// root, as nobody either way (isolation/program-user.ts). The recorder starts its replay workers here too.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, mkdtemp, realpath, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../course/stages.ts';
import { CHANNEL_ENV } from '../../modes/channel.ts';
import { type ChannelServer, listenChannel } from './channel-server.ts';
import { allDead, killTree } from './isolation/kill-tree.ts';
import { findBwrap } from './isolation/probe-sandbox.ts';
import { programEnv } from './isolation/program-env.ts';
import { limitedCommand, programLimits } from './isolation/program-limits.ts';
import { AS_PID_1, INIT_SHELL, sandboxArgs } from './isolation/sandbox-args.ts';
import { sandboxLayout } from './isolation/sandbox-layout.ts';
import { programInstall } from './isolation/program-install.ts';
import { bindableTmpdir, PROGRAM_USER } from './isolation/program-user.ts';
import { holdStage } from './isolation/stage-submission.ts';
import { tsxCacheName } from './isolation/tsx-cache.ts';
import { holdUntilExit, releaseAtExit } from './live-groups.ts';
import type { Spelling } from './program-machine.ts';
import { removeTree } from './remove-tree.ts';
import { feedSeccomp } from './isolation/seccomp-filter.ts';

// A started program process: its child, the spellings of its paths, and its disposal.
export type ProgramProcess = {
  child: ChildProcess;
  spellings: Spelling[];
  // Settles only when spawning failed (an 'error' before any pid): why the process never ran.
  spawnFailure: Promise<Error>;
  // The program's own exit from the child's: the sandbox reports a program killed by a signal as 128 + its number.
  exitOf: (
    code: number | null,
    signal: NodeJS.Signals | null,
  ) => { code: number | null; signal: NodeJS.Signals | null };
  // The grader's end of its channel (channel-server.ts), when it was started with one.
  channel?: ChannelServer;
  // Kills the program and everything it started; safe to call more than once.
  kill: () => void;
  // Kills it, waits until all of it is dead, removes its temp dir; resolves to a warning when something of
  // that dir could not be removed. Safe to call more than once.
  dispose: () => Promise<string | undefined>;
};

// What to start: the working directory, the grader's environment (only the names program-env.ts passes reach
// the program), the arguments after `node --import <tsx>`, and how it is confined. `sandbox`: in bubblewrap
// (the caller checked that it works here, isolation/choose-sandbox.ts). `tsxCache`: the transform cache it shares
// with the other processes of its command (isolation/tsx-cache.ts; undefined for none), outside the sandbox only. `files`: files of the
// grader package it runs (the standby bootstrap), made visible in the sandbox.
export type ProcessStart = {
  dir: string;
  env: NodeJS.ProcessEnv;
  args: string[];
  stdin: 'ignore' | 'pipe';
  sandbox: boolean;
  tsxCache: string | undefined;
  files?: string[];
  // A channel to the grader (channel-server.ts): a socket of its own, at CHANNEL_ENV's path in its environment.
  channel?: boolean;
};

// How a command confines its program processes: sandboxed or not, and the tsx cache they share.
export type Confinement = Pick<ProcessStart, 'sandbox' | 'tsxCache'>;

// The file URL of the package's own tsx ESM loader: a student's directory needs no tsx of its own. Of the install
// whose package root is `install` when not the grader's own (isolation/program-install.ts).
export function tsxLoaderUrl(install?: string): string {
  const from = install === undefined ? import.meta.url : join(install, 'package.json');
  return pathToFileURL(createRequire(from).resolve('tsx/esm')).href;
}

// `node --import <tsx> <args…>`, under the limits of every program process (isolation/program-limits.ts).
// In the sandbox the init shell runs node, under those limits too.
function programCommand(start: ProcessStart, sandbox: boolean, install?: Install): string[] {
  const args = install === undefined ? start.args : start.args.map(install.at);
  const node = [process.execPath, '--import', tsxLoaderUrl(install?.root), ...args];
  return limitedCommand(bashPath(), programLimits(start.env, sandbox), sandbox ? [...INIT_SHELL, ...node] : node);
}

// The program's environment (isolation/program-env.ts). tsx reads the working directory's tsconfig.json, and applies
// it only to the files it covers there: the student's own code, never the driver's files of the grader's install,
// so a submission's `paths` or `extends` cannot change which module the driver loads for a name.
function runEnv(graderEnv: NodeJS.ProcessEnv, tmp: string): Record<string, string> {
  return programEnv(graderEnv, tmp);
}

// The host's bash, which the sandbox shows where it is (under /usr, or /bin).
let bash: string | undefined;
function bashPath(): string {
  bash ??= ['/usr/bin/bash', '/bin/bash'].find((path) => existsSync(path)) ?? 'bash';
  return bash;
}

// How long disposal waits for a killed program to be gone before removing its temp dir anyway.
const DEATH_WAIT_MS = 5000;
// How long a kill waits for bwrap to name its init before it kills bwrap and its group instead.
const KILL_FALLBACK_MS = 1000;

// Starts the process; resolves once it is spawned (or failed to spawn) and tracked for the exit hook. Rejects
// when it cannot even be set up (a course directory that does not exist, say).
export function startProcess(start: ProcessStart): Promise<ProgramProcess> {
  return start.sandbox ? startSandboxed(start) : startUnconfined(start);
}

// In bubblewrap: its TMPDIR is a tmpfs inside the sandbox (nothing on the host to remove), and so is its tsx cache,
// which a program can write: a cache shared through the host would let it fill the host's disk (file by file, each
// under the size limit) and outlive the process; the price is a cold compile per process (docs/performance.md). Its
// processes live in a PID namespace whose first process (bwrap's init) takes every other one down when it dies. A
// submission is seen only through the grader's staged copy of it (isolation/stage-submission.ts); the reference, in
// the package root, as it is.
async function startSandboxed(start: ProcessStart): Promise<ProgramProcess> {
  const bwrap = findBwrap(start.env);
  if (bwrap === undefined) throw new Error('the sandbox is not available: no bwrap on PATH');
  const dir = await realpath(start.dir);
  const stage = await submissionStage(dir);
  // A submission's sandbox runs as nobody for a root grader (isolation/program-user.ts); the reference's keeps the
  // grader's user, which reads its own files where the grader's install is closed to others.
  const user = stage === undefined ? undefined : PROGRAM_USER;
  const install = await installFor(user).catch(async (error: unknown) => {
    await stage?.release();
    throw error;
  });
  let child: ChildProcess;
  let tmp: string;
  let channel: OpenChannel | undefined;
  let shownPath: string;
  // The host directory of its channel's socket, when it has one: the exit hook removes it as a run would.
  let channelHome: string | undefined;
  try {
    const layout = sandboxLayout({
      dir,
      ...(stage === undefined ? {} : { stage: stage.path }),
      id: randomBytes(6).toString('hex'),
      files: (start.files ?? []).map(install?.at ?? ((f) => f)),
      ...(user === undefined ? {} : { unprivileged: true }),
      ...(install === undefined ? {} : { install: install.root }),
    });
    tmp = layout.tmp;
    shownPath = layout.dir;
    const env = runEnv(start.env, tmp);
    if (start.channel === true) {
      const home = await mkdtemp(join(bindableTmpdir(), 'theinference-channel-'));
      channelHome = home;
      channel = await openChannelIn(home, user, home);
      // Beside the TMPDIR's tmpfs, never in it: the program's writes cannot reach it.
      layout.channel = { source: channel.server.path, dest: join(dirname(layout.tmp), 'channel') };
      env[CHANNEL_ENV] = layout.channel.dest;
    }
    // The limits' bash first: it closes the inherited descriptors, then becomes the init shell (pid 1).
    // Inside, bwrap's --chdir sets the program's directory (layout.dir, which may be a path only the sandbox has);
    // bwrap itself starts in the course directory as the host has it.
    const command = programCommand(start, true, install);
    child = spawn(bwrap, [...sandboxArgs(layout), '--info-fd', '3', ...AS_PID_1, ...command], {
      cwd: dir,
      env,
      detached: true,
      stdio: [start.stdin, 'pipe', 'pipe', 'pipe', 'pipe'],
      ...(user ?? {}),
    });
    feedSeccomp(child);
  } catch (error) {
    await channel?.remove();
    await stage?.release();
    throw error;
  }
  // bwrap says on fd 3 which host pid its init has: killing that one kills the whole namespace, and it is gone
  // (a zombie at most) only once every process in the namespace is.
  let init: number | undefined;
  let info = '';
  let killWanted = false;
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    info += chunk.toString();
    init = Number(/"child-pid":\s*(\d+)/.exec(info)?.[1]) || init;
    if (killWanted) kill();
  });
  child.stdio[3]?.on('error', () => {});
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  // Only the init is killed: bwrap, its parent, then reaps it and exits, and the grader reaps bwrap. Killing bwrap
  // too would orphan the init, a zombie for good where the system's init does not reap (a container's, a VM's).
  // Before bwrap has said which pid its init has, the kill waits for that (bwrap says it as soon as it has one);
  // a bwrap that never does is killed with its group after KILL_FALLBACK_MS.
  const kill = (): void => {
    // bwrap reaps its init before it exits itself: once it has exited, that pid may be anyone's.
    if (!alive()) return;
    if (init !== undefined) return signal(init, 'SIGKILL');
    if (killWanted) return;
    killWanted = true;
    setTimeout(() => {
      if (alive() && child.pid !== undefined) signal(-child.pid, 'SIGKILL');
    }, KILL_FALLBACK_MS).unref();
  };
  // A submission shown at a path of the grader's (isolation/sandbox-layout.ts) reads as its own in the output.
  const shownAt = shownPath === dir ? [] : [{ path: shownPath, shown: dir }];
  return started(child, [{ path: tmp, shown: '$TMPDIR' }, ...shownAt], kill, {
    exitOf: (code, sig) =>
      sig === null && code !== null && code > 128 && signalName(code - 128) !== undefined
        ? { code: null, signal: signalName(code - 128)! }
        : { code, signal: sig },
    gone: () => init === undefined || allDead([init]),
    remove: async () => {
      const warning = await channel?.remove();
      await stage?.release();
      return warning;
    },
    ...(channel === undefined ? {} : { channel: channel.server }),
    ...(channelHome === undefined ? {} : { dir: channelHome }),
  });
}

// The install a program run as another user reads (isolation/program-install.ts); undefined for one run as the
// grader's user, which reads the grader's own. Throws why a program cannot start as that user.
type Install = { root: string; at: (path: string) => string };
async function installFor(user: typeof PROGRAM_USER): Promise<Install | undefined> {
  if (user === undefined) return undefined;
  const install = await programInstall();
  if ('error' in install) throw new Error(install.error);
  return install;
}

// The staged copy a submission's process runs from (isolation/stage-submission.ts), held until it is disposed of;
// undefined for the reference, in the package root, which runs as it is.
async function submissionStage(dir: string): Promise<Awaited<ReturnType<typeof holdStage>> | undefined> {
  return dir === (await realpath(packageRoot())) ? undefined : holdStage(dir);
}

// Without the sandbox: a process group of its own, a TMPDIR made on the host (removed with it) holding a link to
// the command's tsx cache, and its descendants found through /proc when it is killed (isolation/kill-tree.ts). A
// submission's, for a grader run as root, runs as nobody from the staged copy, with a TMPDIR of its own and no
// shared tsx cache: what one process compiled there, a later one would run as the driver.
async function startUnconfined(start: ProcessStart): Promise<ProgramProcess> {
  const dir = PROGRAM_USER === undefined ? start.dir : await realpath(start.dir);
  const stage = PROGRAM_USER === undefined ? undefined : await submissionStage(dir);
  const user = stage === undefined ? undefined : PROGRAM_USER;
  const install = await installFor(user).catch(async (error: unknown) => {
    await stage?.release();
    throw error;
  });
  const runDir = await mkdtemp(join(user === undefined ? tmpdir() : bindableTmpdir(), 'theinference-run-')).catch(
    async (error: unknown) => {
      await stage?.release();
      throw error;
    },
  );
  let channel: OpenChannel | undefined;
  const remove = async (): Promise<string | undefined> => {
    await channel?.remove();
    const warning = await removeTree(runDir);
    await stage?.release();
    return warning;
  };
  try {
    const tmp = join(runDir, 'tmp');
    await mkdir(tmp);
    const env = runEnv(start.env, tmp);
    if (start.channel === true) {
      channel = await openChannelIn(runDir, user, undefined);
      env[CHANNEL_ENV] = channel.server.path;
    }
    if (user !== undefined) {
      // nobody's, as a sandbox's tmpfs is its program's: the grader removes it all the same.
      for (const owned of [runDir, tmp]) await chown(owned, user.uid, user.gid);
    } else if (start.tsxCache !== undefined && env.TSX_DISABLE_CACHE === undefined) {
      // Removing `tmp` removes the link, never the cache (rm does not follow links).
      await symlink(start.tsxCache, join(tmp, tsxCacheName()), 'dir');
    }
    const spellings = [...new Set([await realpath(tmp), tmp])].map((path) => ({ path, shown: '$TMPDIR' }));
    if (stage !== undefined) spellings.unshift({ path: stage.path, shown: dir });
    const [command, ...args] = programCommand(start, false, install);
    const child = spawn(command!, args, {
      cwd: stage?.path ?? dir,
      env,
      detached: true,
      stdio: [start.stdin, 'pipe', 'pipe'],
      ...(user ?? {}),
    });
    let killed: number[] = [];
    const kill = (): void => {
      if (child.pid === undefined) return;
      // Once it has exited (and been reaped) its pid may be anyone's: only its group, which outlives it, is killed.
      const alive = child.exitCode === null && child.signalCode === null;
      if (alive) killed = [...new Set([...killed, ...killTree(child.pid)])];
      else killGroup(child.pid);
    };
    return started(child, spellings, kill, {
      exitOf: (code, sig) => ({ code, signal: sig }),
      gone: () => allDead(killed),
      remove,
      dir: runDir,
      ...(channel === undefined ? {} : { channel: channel.server }),
    });
  } catch (error) {
    await remove();
    throw error;
  }
}

type How = {
  exitOf: ProgramProcess['exitOf'];
  // Whether everything the kill reached is dead.
  gone: () => boolean;
  // Removes what the process had on the host.
  remove: () => Promise<string | undefined>;
  // Its temp dir on the host (an unsandboxed run dir, a sandbox's channel home), for the exit hook to remove.
  dir?: string;
  channel?: ChannelServer;
};

// A channel's server and how to remove it (and `owned`, the directory made for it, when there is one).
type OpenChannel = { server: ChannelServer; remove: () => Promise<string | undefined> };

// Listens on a socket in `dir`, which the program's user (nobody, for a root grader) may connect to and nobody else
// reaches (the directory is 0700, the program user's own).
async function openChannelIn(
  dir: string,
  user: { uid: number; gid: number } | undefined,
  owned: string | undefined,
): Promise<OpenChannel> {
  const remove = async (server?: ChannelServer): Promise<string | undefined> => {
    await server?.close();
    return owned === undefined ? undefined : removeTree(owned);
  };
  try {
    const server = await listenChannel(join(dir, 'channel.sock'));
    if (user !== undefined) {
      if (owned !== undefined) await chown(owned, user.uid, user.gid);
      await chown(server.path, user.uid, user.gid);
    }
    return { server, remove: () => remove(server) };
  } catch (error) {
    await remove();
    throw error;
  }
}

function started(child: ChildProcess, spellings: Spelling[], kill: () => void, how: How): ProgramProcess {
  // An 'error' with no pid (no such cwd, say) means it never ran; any other is a kill that failed, and the
  // 'exit' still comes.
  const spawnFailure = new Promise<Error>((resolve) => {
    child.on('error', (error) => {
      if (child.pid === undefined) resolve(error);
    });
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.on('exit', () => resolve());
    void spawnFailure.then(() => resolve());
  });
  child.stdin?.on('error', () => {}); // EPIPE: the process died before reading its work; its exit says why
  const key = {};
  if (child.pid !== undefined) holdUntilExit(key, kill, how.dir);
  let disposed: Promise<string | undefined> | undefined;
  const dispose = (): Promise<string | undefined> =>
    (disposed ??= (async () => {
      kill();
      await bounded(exited, DEATH_WAIT_MS);
      for (const until = Date.now() + DEATH_WAIT_MS; !how.gone() && Date.now() < until; ) await delay(5);
      releaseAtExit(key);
      return how.remove();
    })());
  const channel = how.channel === undefined ? {} : { channel: how.channel };
  return { child, spellings, spawnFailure, exitOf: how.exitOf, kill, dispose, ...channel };
}

// Kills a process group; a group already gone is fine.
function killGroup(pid: number): void {
  signal(-pid, 'SIGKILL');
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // ESRCH: already gone.
  }
}

function signalName(n: number): NodeJS.Signals | undefined {
  return (Object.keys(constants.signals) as NodeJS.Signals[]).find((name) => constants.signals[name] === n);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Waits for `event`, `ms` at most; the timer goes as soon as the event comes, so it keeps nothing waiting.
async function bounded(event: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([event, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

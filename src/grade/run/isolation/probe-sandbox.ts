// Whether the sandbox works on this machine, found by starting a trivial one: bubblewrap may be missing, or the
// kernel may refuse it the user namespaces it needs (AppArmor on Ubuntu 24.04, a disabled sysctl). Asked once per
// grader process and remembered, since the answer does not change while it runs.
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { packageRoot } from '../../../course/stages.ts';
import { programEnv } from './program-env.ts';
import { SANDBOX_INIT, sandboxArgs, type SandboxLayout } from './sandbox-args.ts';
import { sandboxLayout } from './sandbox-layout.ts';
import { programInstall } from './program-install.ts';
import { bindableTmpdir, closedToOthers, PROGRAM_USER } from './program-user.ts';
import { feedSeccomp } from './seccomp-filter.ts';

// The sandbox works (`bwrap` is the binary to run), or why not and what fixes it.
type SandboxProbe = { available: true; bwrap: string } | { available: false; reason: string; fix: string };

// How to install bubblewrap, for messages.
const INSTALL_LINE = 'sudo apt-get install bubblewrap (Debian, Ubuntu; dnf or pacman elsewhere)';

const PROBE_TIMEOUT_MS = 10_000;
const probes = new Map<string, Promise<SandboxProbe>>();

// Starts a trivial sandbox (Node printing its version, in the layout every program gets) with `bwrap` found
// on the grader's PATH; the answer is remembered per PATH and temp dir.
export function probeSandbox(env: NodeJS.ProcessEnv): Promise<SandboxProbe> {
  const path = env.PATH ?? '';
  // The temp dir matters too, to a grader run as root (below).
  const key = `${path}\0${tmpdir()}`;
  let probe = probes.get(key);
  if (probe === undefined) {
    probe = run(path);
    probes.set(key, probe);
  }
  return probe;
}

// The bwrap found on the grader's PATH, on Linux; undefined elsewhere. Whether it works is the probe's to say.
export function findBwrap(env: NodeJS.ProcessEnv): string | undefined {
  return process.platform === 'linux' ? findOnPath('bwrap', env.PATH ?? '') : undefined;
}

async function run(path: string): Promise<SandboxProbe> {
  if (process.platform !== 'linux') {
    return {
      available: false,
      reason: `the sandbox needs Linux (bubblewrap) and this is ${process.platform}`,
      fix: 'grade on Linux: in CI, a container or WSL 2',
    };
  }
  const bwrap = findBwrap({ PATH: path });
  if (bwrap === undefined)
    return { available: false, reason: 'bubblewrap (bwrap) is not installed', fix: INSTALL_LINE };
  // Run as a submission's sandboxes are: as nobody, for a grader run as root, from the install nobody reads
  // (program-install.ts: a copy of the grader's where nobody cannot reach it).
  let layout: SandboxLayout;
  try {
    const install = await programInstall();
    if ('error' in install) {
      const fix = 'let nobody reach Node, or run the grader as a user other than root';
      return { available: false, reason: install.error, fix };
    }
    // The reference's layout: the package root as the working directory, its snapshots hidden. In a copy of the
    // install, which holds no snapshots to hide, its top directory, as a submission's sees it.
    const own = install.root === realpathSync(packageRoot());
    layout = sandboxLayout({
      dir: own ? packageRoot() : join(install.root, '..', '..'),
      id: 'probe',
      files: [],
      ...(PROGRAM_USER === undefined ? {} : { unprivileged: true }),
      ...(own ? {} : { install: install.root }),
    });
  } catch (error) {
    return {
      available: false,
      reason: `the sandbox's layout cannot be found: ${(error as Error).message}`,
      fix: 'report this as a bug in theinference',
    };
  }
  // Run as the sandboxes are (program-user.ts): as nobody, for a grader run as root, who must be able to enter the
  // temp dir where the staged copies are made.
  const closed = PROGRAM_USER === undefined ? undefined : closedToOthers(bindableTmpdir());
  if (closed !== undefined) {
    return {
      available: false,
      reason: `the grader runs as root, so it starts its sandboxes as nobody (no process count holds for root), and nobody cannot enter ${closed}, where its staged copies would be`,
      fix: 'give it a temp dir every user can enter (TMPDIR=/tmp, the default), or run the grader as a user other than root',
    };
  }
  const args = [...sandboxArgs(layout), ...SANDBOX_INIT, process.execPath, '--version'];
  const { code, stderr } = await exitOf(bwrap, args, programEnv({ PATH: path }, layout.tmp));
  if (code === 0) return { available: true, bwrap };
  const said = stderr.trim().split('\n')[0] ?? '';
  return {
    available: false,
    reason: `bubblewrap cannot start a sandbox here (${said || `exit code ${code}`})`,
    fix: userNamespaceFix(),
  };
}

// The settings that refuse user namespaces, in the order they are met in practice.
function userNamespaceFix(): string {
  const read = (file: string): string | undefined => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    return 'allow user namespaces (Ubuntu 24.04 restricts them): sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0';
  }
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    return 'allow user namespaces: sudo sysctl -w kernel.unprivileged_userns_clone=1';
  if (read('/proc/sys/user/max_user_namespaces') === '0')
    return 'allow user namespaces: sudo sysctl -w user.max_user_namespaces=15000';
  return 'see "Requirements" in docs/sandbox.md for what bubblewrap needs';
}

function findOnPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function exitOf(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    // A session of its own, as every sandbox has: what it leaves is found by it. As nobody for a root grader.
    const child = spawn(command, args, {
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'ignore', 'pipe'],
      detached: true,
      ...(PROGRAM_USER ?? {}),
    });
    feedSeccomp(child);
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

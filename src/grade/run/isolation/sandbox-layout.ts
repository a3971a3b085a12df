// Finds, on this machine, the real paths a sandboxed program process needs: the system's programs and libraries
// (the cases' bash calls use coreutils), Node's install, the grader's own runtime packages (tsx, and what the
// course's tools import), the working directory, and the few files of the grader package it runs.
// sandbox-args.ts turns them into bwrap's options. Nothing of a submission is looked at here: not its
// node_modules, not a link in it (the staged copy is the grader's own, stage-submission.ts).
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { COURSE_DEPENDENCIES, packageRoot } from '../../../course/stages.ts';
import { isInside, type SandboxLayout } from './sandbox-args.ts';

// Top-level directories that are either real (bound read-only) or, on a merged-/usr system, links into /usr.
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
// Of /etc, only what programs need to run: the dynamic linker's cache, Debian's alternatives (awk, editor…),
// user and group names, the time zone. Nothing else of the host's configuration is visible.
const ETC_ENTRIES = [
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'passwd',
  'group',
  'nsswitch.conf',
  'localtime',
  'hosts',
];
// A program's TMPDIR holds its sandboxes and the cases' files: far less than this, unless something runs away.
export const TMP_BYTES = 1024 * 1024 * 1024;

type HostPaths = {
  system: SandboxLayout['system'];
  readOnly: string[];
  modules: string | undefined;
  packageRoot: string;
  packageJson: string;
  nodePrefix: string;
};
const hosts = new Map<string, HostPaths>();

// What every sandbox of one install shares, found once: the grader's own (`install` undefined), or the copy of it a
// program run as nobody reads where nobody cannot reach the grader's (program-install.ts), given by its package root.
function hostPaths(install?: string): HostPaths {
  const root = realpathSync(install ?? packageRoot());
  const known = hosts.get(root);
  if (known !== undefined) return known;
  const symlinks: SandboxLayout['system']['symlinks'] = [];
  const readOnly: string[] = [];
  for (const path of [...SYSTEM_DIRS, ...ETC_ENTRIES.map((e) => join('/etc', e))]) {
    const stats = tryLstat(path);
    if (stats === undefined) continue;
    if (stats.isSymbolicLink() && SYSTEM_DIRS.includes(path)) symlinks.push({ target: readlinkSync(path), path });
    else readOnly.push(path);
  }
  // Node's install prefix (`<prefix>/bin/node`): under /usr here, under /opt/hostedtoolcache on GitHub's runners.
  const nodePrefix = dirname(dirname(realpathSync(process.execPath)));
  // Each runtime package's real node_modules holds its own dependencies (tsx's esbuild and its binary), whatever
  // the install's shape (hoisted, nested, pnpm's links into .pnpm).
  const runtime = ['tsx/esm', ...COURSE_DEPENDENCIES].flatMap((name) => realModulesOf(name, root) ?? []);
  const modules = runtimeModules(root);
  // The driver imports its packages (the SDK, fast-glob) from where the grader is installed: that node_modules is
  // shown where it is, and where its entries link through links (a node_modules that is itself a link), those links
  // are made again, so that each entry reaches its package as on the host.
  const found = nearestModules(root);
  const nearest = found?.real;
  if (nearest !== undefined) symlinks.push(...linkHops(nearest));
  // A node_modules that is itself a link (a package copy's, a monorepo's, a shared install's) is made again where it
  // is, straight to its real path (shown with `nearest`): the driver's imports walk up from the package's real
  // files and pass through it. It is the grader's install, never the submission's, so nothing more comes in reach.
  if (found !== undefined && found.path !== found.real) symlinks.push({ target: found.real, path: found.path });
  const host: HostPaths = {
    system: { symlinks, readOnly },
    readOnly: [
      ...new Set([
        nodePrefix,
        ...runtime,
        ...(modules === undefined ? [] : [modules]),
        ...(nearest === undefined ? [] : [nearest]),
      ]),
    ],
    modules,
    packageRoot: root,
    packageJson: join(root, 'package.json'),
    nodePrefix,
  };
  hosts.set(root, host);
  return host;
}

// The node_modules where Node, resolving from the grader package, finds the packages the course's tools import:
// the grader's own install (a course's node_modules when the student installed it there, the course repository's
// own, or a CI job's separate install), as a real directory: the nearest one holding them all. It is shown at a
// submission's `node_modules`, so each of those entries must resolve there as well: a package itself, a link
// inside it (pnpm's, into its `.pnpm`), or a link to where the package really is (shown where it is). A link
// through another link (an install whose entries link into a node_modules that is itself a link) would reach
// nothing in the sandbox: then it is the one real directory that holds every one of the packages, when there is
// one. Undefined when there is none.
function runtimeModules(root: string): string | undefined {
  const nearest = nearestModules(root)?.real;
  if (nearest === undefined || COURSE_DEPENDENCIES.every((name) => resolvesWhereShown(nearest, name))) return nearest;
  const real = new Set(COURSE_DEPENDENCIES.map((name) => realModulesOf(name, root)));
  const [only] = real;
  return real.size === 1 && only !== undefined ? only : nearest;
}

// The nearest node_modules above the package's real root that holds every course package: where it is (`path`, a
// link when the install links it elsewhere) and its real path.
function nearestModules(root: string): { path: string; real: string } | undefined {
  for (let at = root; ; at = dirname(at)) {
    if (basename(at) !== 'node_modules') {
      const path = join(at, 'node_modules');
      const real = tryRealpath(path);
      if (real !== undefined && COURSE_DEPENDENCIES.every((name) => tryLstat(join(path, name)) !== undefined))
        return { path, real };
    }
    if (dirname(at) === at) return undefined;
  }
}

// The links a course package's entry in `modules` passes through on its way to the package, beyond the entry
// itself (shown with `modules`): each a link the sandbox makes again, where it is, as it is.
function linkHops(modules: string): Array<{ target: string; path: string }> {
  const hops = new Map<string, string>();
  for (const name of COURSE_DEPENDENCIES) {
    const entry = join(modules, name);
    if (tryLstat(entry)?.isSymbolicLink() !== true) continue;
    const target = resolve(dirname(entry), readlinkSync(entry));
    for (let at = dirname(target); dirname(at) !== at; at = dirname(at)) {
      if (tryLstat(at)?.isSymbolicLink() === true) hops.set(at, resolve(dirname(at), readlinkSync(at)));
    }
  }
  return [...hops].map(([path, target]) => ({ target, path }));
}

// Whether `modules/name`, shown elsewhere, still reaches its package: it is no link, or a link that stays inside
// `modules`, or one to the package's own real path.
function resolvesWhereShown(modules: string, name: string): boolean {
  const entry = join(modules, name);
  if (tryLstat(entry)?.isSymbolicLink() !== true) return true;
  const target = resolve(dirname(entry), readlinkSync(entry));
  return isInside(modules, target) || tryRealpath(target) === target;
}

// The real node_modules directory holding the package that `specifier` resolves to from the grader package in `root`.
function realModulesOf(specifier: string, root: string): string | undefined {
  try {
    const file = realpathSync(createRequire(join(root, 'package.json')).resolve(specifier));
    const cut = file.lastIndexOf(`${sep}node_modules${sep}`);
    return cut < 0 ? undefined : file.slice(0, cut + `${sep}node_modules`.length);
  } catch {
    return undefined;
  }
}

// The grader's runtime packages, the node_modules a submission's staged copy shows (sandboxed, bound at its
// `node_modules`; run as another user outside the sandbox, linked beside it: stage-submission.ts), of the grader's
// own install or of the copy whose package root is `install`.
export function graderModules(install?: string): string | undefined {
  return hostPaths(install).modules;
}

// What a program process reads of the grader's own install, apart (the package root, its runtime packages' real
// node_modules), and Node's install: the paths a program run as another user must be able to reach.
export function installPaths(): { node: string; root: string; packages: string[] } {
  const paths = hostPaths();
  const packages = paths.readOnly.filter((p) => p !== paths.nodePrefix);
  return { node: paths.nodePrefix, root: paths.packageRoot, packages };
}

// The layout of one program process: `dir` is its working directory (a real path), `stage` the grader's staged copy
// of it when it is a submission, `id` names its TMPDIR (a tmpfs inside the sandbox,
// `/tmp/theinference-run-<id>/tmp`, nothing on the host), `files` the grader package's files it runs (a standby
// bootstrap), `install` the package root of the install it runs from when not the grader's own (program-install.ts).
export function sandboxLayout(options: {
  dir: string;
  stage?: string;
  id: string;
  files: string[];
  unprivileged?: boolean;
  install?: string;
}): SandboxLayout {
  const paths = hostPaths(options.install);
  const dir = realpathSync(options.dir);
  const readOnly = paths.readOnly.filter((p) => !paths.system.readOnly.some((s) => isInside(s, p)));
  // Under /tmp, as temp dirs are, unless /tmp is itself visible read-only (a course directory there, say).
  const visible = [...paths.system.readOnly, ...readOnly, dir];
  const parent = visible.some((v) => isInside(v, '/tmp')) ? '/' : '/tmp';
  const run = join(parent, `theinference-run-${options.id}`);
  return {
    // A submission is shown at its own path, unless that path cannot be a module's: Node refuses a file URL with an
    // encoded `\` (%5C) in it, and the driver imports the student's modules by URL. Names are data: such a
    // submission is shown at a path of the grader's instead, and its output spells that path as the submission's.
    dir: options.stage !== undefined && dir.includes('\\') ? join(run, 'course') : dir,
    ...(options.stage === undefined
      ? {}
      : { stage: { copy: options.stage, ...(paths.modules === undefined ? {} : { modules: paths.modules }) } }),
    packageRoot: paths.packageRoot,
    readOnly,
    packageFiles: [paths.packageJson, ...options.files.map((f) => realpathSync(f))],
    system: paths.system,
    tmp: join(run, 'tmp'),
    tmpBytes: TMP_BYTES,
    ...(options.unprivileged === true ? { unprivileged: true } : {}),
  };
}

function tryLstat(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function tryRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

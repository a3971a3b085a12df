// Finds, on this machine, the real paths a sandboxed program process needs: the system's programs and
// libraries (the cases' bash calls use coreutils), Node's install, the node_modules that holds tsx, the course
// directory, and the few files of the grader package it runs. sandbox-args.ts turns them into bwrap's options.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { packageRoot } from '../../../course/stages.ts';
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
const TMP_BYTES = 1024 * 1024 * 1024;

type HostPaths = { system: SandboxLayout['system']; readOnly: string[]; packageRoot: string; packageJson: string };
let host: HostPaths | undefined;

// What every sandbox of this grader shares, found once.
function hostPaths(): HostPaths {
  if (host !== undefined) return host;
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
  // The node_modules that holds tsx holds its own dependencies (esbuild and its binary) too.
  const tsx = realpathSync(createRequire(import.meta.url).resolve('tsx/esm'));
  const tsxModules = tsx.slice(0, tsx.lastIndexOf(`${sep}node_modules${sep}`) + `${sep}node_modules`.length);
  const root = realpathSync(packageRoot());
  host = {
    system: { symlinks, readOnly },
    readOnly: [nodePrefix, tsxModules],
    packageRoot: root,
    packageJson: join(root, 'package.json'),
  };
  return host;
}

// The layout of one program process: `dir` is its working directory, `id` names its TMPDIR (a tmpfs inside the
// sandbox, `/tmp/theinference-run-<id>/tmp`, nothing on the host), `files` the grader package's files it runs (a
// standby bootstrap), `tsxCache` the directory it shares its tsx transform cache through, as `<tmp>/<name>`.
export function sandboxLayout(options: {
  dir: string;
  id: string;
  files: string[];
  tsxCache?: { dir: string; name: string };
}): SandboxLayout {
  const paths = hostPaths();
  const dir = realpathSync(options.dir);
  const readOnly = paths.readOnly.filter((p) => !paths.system.readOnly.some((s) => isInside(s, p)));
  // Under /tmp, as temp dirs are, unless /tmp is itself visible read-only (a course directory there, say).
  const visible = [...paths.system.readOnly, ...readOnly, dir];
  const parent = visible.some((v) => isInside(v, '/tmp')) ? '/' : '/tmp';
  // Where Node looks for the course's packages: node_modules in it (which may be a link to one shared elsewhere,
  // as the tests' courses have) and above it (a workspace's hoisted dependencies; the package's neighbours when
  // the reference runs in an installed copy).
  for (let at = dir; ; at = dirname(at)) {
    const real = tryRealpath(basename(at) === 'node_modules' ? at : join(at, 'node_modules'));
    if (real !== undefined && !isInside(dir, real)) readOnly.push(real);
    if (dirname(at) === at) break;
  }
  return {
    dir,
    packageRoot: paths.packageRoot,
    readOnly,
    packageFiles: [paths.packageJson, ...options.files.map((f) => realpathSync(f))],
    system: paths.system,
    tmp: join(parent, `theinference-run-${options.id}`, 'tmp'),
    tmpBytes: TMP_BYTES,
    ...(options.tsxCache === undefined
      ? {}
      : { tsxCache: { dir: realpathSync(options.tsxCache.dir), name: options.tsxCache.name } }),
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

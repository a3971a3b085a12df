// How a new course directory depends on theinference: a spec that names the course's own copy (a git URL, a
// tarball, a path), never a bare name npm would look up in the public registry, where the name is not ours and
// whatever someone published under it would run.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { HarnessError } from '../errors.ts';
import { readAsDataSync } from './read-as-data.ts';
import { STAGES } from './stages.ts';

// Specs npm fetches from a place the course chose: git (URLs and host shorthands), any URL (a tarball), a path.
const GIT = /^(git\+[a-z]+:|git:|github:|gitlab:|bitbucket:|gist:)/;
const GITHUB_SHORTHAND = /^[\w-]+\/[\w.-]+(#\S+)?$/;
const URL_SPEC = /^https?:\/\//;
const PATH_SPEC = /^(file:|\.{1,2}(\/|$)|\/|~\/)/;

// The spec to write into the course's package.json: `--from` when given (a path in it is taken from `cwd`),
// else the one the running package at `root` was installed from; either way a path is rebased onto
// `courseDir`, as npm reads paths in a package.json from the directory that holds it.
export function installSpec(options: { root: string; courseDir: string; cwd: string; from?: string }): string {
  if (options.from !== undefined) return rebase(checked(options.from, '--from'), options.cwd, options.courseDir);
  const found = installedFrom(options.root);
  if (found === undefined) {
    throw new HarnessError(
      'NO_INSTALL_SPEC',
      `cannot tell where this theinference (${options.root}) was installed from, so the new package.json could not name it. ` +
        'Pass the install line your course gives with --from: a tarball (--from ./theinference-0.1.0.tgz, or its https URL), ' +
        'a git URL (--from git+https://…/theinference.git#v0.1.0) or a directory (--from ../theinference).',
    );
  }
  return rebase(checked(found.spec, `${found.file}`), found.base, options.courseDir);
}

// Where the running package came from: a git checkout of theinference is its own directory; an installed copy
// (node_modules/theinference, npx's cache included) is named by the package.json of the project that installed
// it, exactly as the student typed it.
export function installedFrom(root: string): { spec: string; base: string; file: string } | undefined {
  if (existsSync(join(root, '.git'))) return { spec: `file:${root}`, base: root, file: root };
  const modules = dirname(root);
  if (basename(modules) !== 'node_modules') return undefined;
  const project = dirname(modules);
  const file = join(project, 'package.json');
  let manifest: Record<string, Record<string, unknown> | undefined>;
  // Read as data: a package.json that is a FIFO or a device is never opened.
  const read = readAsDataSync(file, 1024 * 1024);
  if (typeof read === 'string') return undefined;
  try {
    manifest = JSON.parse(read.data.toString('utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const spec = manifest[field]?.theinference;
    if (typeof spec === 'string') return { spec, base: project, file };
  }
  return undefined;
}

// The spec unchanged when npm would fetch it from somewhere the course chose; otherwise a HarnessError.
export function checked(spec: string, source: string): string {
  const s = spec.trim();
  if (GIT.test(s) || URL_SPEC.test(s) || PATH_SPEC.test(s) || GITHUB_SHORTHAND.test(s)) return s;
  throw new HarnessError(
    'NO_INSTALL_SPEC',
    `'${spec}' (${source}) would make npm fetch theinference from the public registry, where that name is not the course's. ` +
      'Give the install line your course gives: a tarball (./theinference-0.1.0.tgz, or its https URL), a git URL (git+https://…/theinference.git#v0.1.0) or a directory (../theinference).',
  );
}

// A path spec as seen from `courseDir` (`file:` + a relative path, as npm writes them); anything else unchanged.
export function rebase(spec: string, base: string, courseDir: string): string {
  if (!PATH_SPEC.test(spec)) return spec;
  const raw = spec.replace(/^file:/, '');
  const home = process.env.HOME ?? '';
  const absolute =
    raw.startsWith('~/') && home !== '' ? join(home, raw.slice(2)) : isAbsolute(raw) ? raw : resolve(base, raw);
  if (!existsSync(absolute)) {
    throw new HarnessError(
      'NO_INSTALL_SPEC',
      `${absolute} does not exist: give the path of theinference's tarball or directory.`,
    );
  }
  const path = relative(courseDir, absolute);
  return `file:${path === '' ? '.' : path}`;
}

// Hosts whose https URLs npm reads as a git repository (hosted-git-info), unless the URL is a tarball's.
const GIT_HOSTS = /^https?:\/\/(www\.)?(github\.com|gitlab\.com|bitbucket\.org)\//;
const TARBALL = /\.(tgz|tar\.gz|tar)([?#].*)?$/;

// The reference solutions of the course repository: the file each stage's student writes, in the repository root.
const REFERENCES = [...new Set(STAGES.flatMap((s) => s.writes))];

// What an install line fetches, as far as the answer key goes: a git repository or a checkout of one (which the
// student can read whole, the course repository's reference solutions included), or a packed package (a tarball,
// or a directory without the reference), which holds only the package's `files`.
export function installLineKind(spec: string, courseDir: string): 'git' | 'checkout' | 'package' {
  const s = spec.trim();
  if (GIT.test(s) || GITHUB_SHORTHAND.test(s)) return 'git';
  if (URL_SPEC.test(s)) return GIT_HOSTS.test(s) && !TARBALL.test(s) ? 'git' : 'package';
  if (!PATH_SPEC.test(s)) return 'package';
  const path = resolve(courseDir, s.replace(/^file:/, ''));
  const isDir = (() => {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  })();
  return isDir && (existsSync(join(path, '.git')) || REFERENCES.some((f) => existsSync(join(path, f))))
    ? 'checkout'
    : 'package';
}

// A warning when the install line `spec` (as written into the course directory `courseDir`) would give whoever
// can install from it the course repository, reference solutions included; undefined for a packed package.
export function answerKeyWarning(spec: string, courseDir: string): string | undefined {
  const kind = installLineKind(spec, courseDir);
  if (kind === 'package') return undefined;
  const what =
    kind === 'git'
      ? `names a git repository: npm installs only the package's files from it, but whoever can install from it can clone it whole`
      : 'names a checkout of the course repository: whoever has the path can read it whole';
  return (
    `the install line ${spec} ${what}, and the course repository holds the reference solutions (${REFERENCES.join(', ')}). ` +
    'That is fine for the course staff; students must never get it. Give students a tarball made by `npm pack` (a path or an https URL to it), ' +
    'or a tag of a repository that holds only the packed package (docs/course.md, "Giving students the package").'
  );
}

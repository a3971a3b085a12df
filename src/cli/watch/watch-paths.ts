// Which files watch mode listens to, as data: the student's code in the course directory, and the stage's cases
// and snapshots in the theinference package (a course author editing a case sees the re-grade too).
// Everything else is ignored, and never descended into: node_modules, hidden entries (.git, editor swap files),
// editors' temp and backup files (a save reports the real file anyway), and a temp directory that happens to sit
// inside a watched tree (where the grader's sandboxes live).
import { isAbsolute, join, relative, sep } from 'node:path';

// Where the course and the package are, and which temp dirs to keep out.
export type WatchTargetsInput = {
  // The course directory (absolute).
  dir: string;
  // The theinference package root (absolute).
  packageRoot: string;
  stage: string;
  // Temp directories (absolute): the grader's, the OS's. Ignored only when inside a watched tree.
  tempDirs: string[];
};

// What to hand chokidar, and how to name a path to the student.
export type WatchTargets = {
  roots: string[];
  isIgnored: (path: string) => boolean;
  display: (path: string) => string;
};

// The course directory's graded entries: code lives in src/, the rest decides how it compiles and runs.
const COURSE_ENTRIES = new Set(['src', 'program.ts', 'tsconfig.json', 'package.json']);

// Names editors give their temp, backup and swap files. Hidden names (vim's .x.swp, emacs's .#x) are already
// ignored as hidden.
const EDITOR_TEMP = [
  /~$/, // vim and emacs backups
  /^#.*#$/, // emacs auto-save
  /^4913$/, // vim probes whether it may write in the directory
  /\.(swp|swx|swo|tmp|temp|crswap|bak)$/i,
  /___jb_(tmp|old)___$/, // JetBrains safe write
  /^sed[A-Za-z0-9]{6}$/, // sed -i
];

// Builds the watch roots and the ignore rule for a course directory and stage.
export function watchTargets(input: WatchTargetsInput): WatchTargets {
  const stageRoots = [join(input.packageRoot, 'cases', input.stage), join(input.packageRoot, 'snapshots', input.stage)];
  const roots = [...new Set([input.dir, ...stageRoots])];
  const innerTemps = input.tempDirs.filter((t) => roots.some((r) => isStrictlyInside(t, r)));

  const isIgnored = (path: string): boolean => {
    if (innerTemps.some((t) => t === path || isStrictlyInside(path, t))) return true;
    for (const root of stageRoots) {
      if (path === root || isStrictlyInside(path, root)) return hasIgnoredSegment(relative(root, path));
    }
    if (path === input.dir) return false;
    if (!isStrictlyInside(path, input.dir)) return true;
    const rel = relative(input.dir, path);
    const first = rel.split(sep)[0] ?? '';
    if (!COURSE_ENTRIES.has(first)) return true;
    return hasIgnoredSegment(rel);
  };

  const display = (path: string): string => {
    for (const base of [input.dir, input.packageRoot]) {
      if (isStrictlyInside(path, base)) return relative(base, path).split(sep).join('/');
    }
    return path;
  };

  return { roots, isIgnored, display };
}

function isEditorTemp(name: string): boolean {
  return name.startsWith('.') || EDITOR_TEMP.some((p) => p.test(name));
}

function hasIgnoredSegment(rel: string): boolean {
  if (rel === '') return false;
  return rel.split(sep).some((segment) => segment === 'node_modules' || isEditorTemp(segment));
}

function isStrictlyInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

// The submissions a class run grades: every `--dir`, a glob matching directories (never links to them) expanded in
// name order, each named for its reports. A name is its directory's base name; when two share one, every name is
// the path from the directory that holds them all, with `/` written `-`. A `--dir` that names a directory as it
// is (`a\b`, `sub[1]`) is that directory, never a pattern: a name is data.
import { statSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import fg from 'fast-glob';
import { HarnessError } from '../../errors.ts';
import type { Submission } from '../../grade/types.ts';
import { compareNames } from '../../grade/select-cases.ts';

// Whether `--dir` values make a class run: more than one, or a glob.
export function isClass(dirs: string[], cwd: string = process.cwd()): boolean {
  return dirs.length > 1 || dirs.some((d) => isPattern(cwd, d));
}

// Whether `dir` is read as a glob: it has a glob's characters and names no directory as it is.
function isPattern(cwd: string, dir: string): boolean {
  if (!fg.isDynamicPattern(dir)) return false;
  try {
    return !statSync(resolve(cwd, dir)).isDirectory();
  } catch {
    return true;
  }
}

// The submissions `dirs` name, from `cwd`, each once, sorted by name.
export async function findSubmissions(cwd: string, dirs: string[]): Promise<Submission[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    if (!isPattern(cwd, dir)) {
      found.push(resolve(cwd, dir));
      continue;
    }
    // Relative matches, resolved here: fast-glob's `absolute` rewrites a `\` in a name as `/`, naming another path.
    const matches = await fg(dir, { cwd, onlyDirectories: true, followSymbolicLinks: false });
    if (matches.length === 0) {
      throw new HarnessError(
        'NO_COURSE_DIR',
        `--dir ${JSON.stringify(dir)} matches no directory (from ${cwd}): check the pattern, e.g. --dir 'submissions/*'.`,
      );
    }
    found.push(...matches.map((m) => resolve(cwd, m)));
  }
  const unique = [...new Set(found)];
  return named(unique).sort((a, b) => compareNames(a.name, b.name));
}

function named(dirs: string[]): Submission[] {
  const bases = dirs.map((d) => basename(d));
  if (new Set(bases).size === bases.length) return dirs.map((dir, k) => ({ name: bases[k]!, dir }));
  const root = commonParent(dirs);
  const names = dirs.map((d) => relative(root, d).split(sep).join('-'));
  const seen = new Map<string, string>();
  names.forEach((name, k) => {
    const other = seen.get(name);
    if (other !== undefined) {
      throw new HarnessError(
        'BAD_FLAG',
        `--dir ${other} and ${dirs[k]} would both be named ${JSON.stringify(name)} in the reports: rename one of them.`,
      );
    }
    seen.set(name, dirs[k]!);
  });
  return dirs.map((dir, k) => ({ name: names[k]!, dir }));
}

// The deepest directory holding every one of `dirs`.
function commonParent(dirs: string[]): string {
  let root = dirname(dirs[0]!);
  while (!dirs.every((d) => d.startsWith(root.endsWith(sep) ? root : `${root}${sep}`))) root = dirname(root);
  return root;
}

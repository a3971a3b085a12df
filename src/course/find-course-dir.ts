// Which course directory a run started in a subdirectory grades, found as git and npm find theirs.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// The nearest directory at or above `start` holding program.ts and a package.json; failing that, the nearest
// holding program.ts (its package.json problem is then reported for it); failing that, `start` itself.
// Synchronous: the bin calls it before the CLI loads, to start program processes in the right place.
export function findCourseDir(start: string): string {
  let programOnly: string | undefined;
  for (let at = start; ; at = dirname(at)) {
    if (existsSync(join(at, 'program.ts'))) {
      if (existsSync(join(at, 'package.json'))) return at;
      programOnly ??= at;
    }
    if (dirname(at) === at) return programOnly ?? start;
  }
}

// The directory a `test` run grades: --dir as given (from `cwd`), else the one found from `cwd`.
export function courseDirFor(cwd: string, dirFlag: string | undefined): string {
  return dirFlag === undefined ? findCourseDir(cwd) : resolve(cwd, dirFlag);
}

// What a course directory must hold before any program process is spawned, checked up front so that a
// wrong --dir is one clear message instead of a crash in every case.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HarnessError } from '../../errors.ts';

// Fails with a HarnessError saying how to fix a missing directory, a missing program.ts, or a directory
// whose .ts files would not load as ES modules (program.ts uses top-level await).
export async function checkCourseDir(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new HarnessError(
      'NO_COURSE_DIR',
      `course directory not found: ${dir}. Run the grader from your course directory, or pass --dir <your course directory>.`,
    );
  }
  const program = await stat(join(dir, 'program.ts')).catch(() => undefined);
  if (program === undefined || !program.isFile()) {
    throw new HarnessError(
      'NO_PROGRAM',
      `${dir} has no program.ts. The grader runs \`program.ts dispatch\` from your course directory: copy program.ts from the course (it is provided, not written by you), or pass --dir <your course directory>.`,
    );
  }
  const scope = await packageScope(dir);
  if (scope?.type !== 'module') {
    const where = scope === undefined ? `no package.json in ${dir} or above it` : `${scope.file} has no "type": "module"`;
    throw new HarnessError(
      'NO_PROGRAM',
      `program.ts runs as an ES module (it uses top-level await), but ${where}: add a package.json with { "type": "module" } to ${dir}.`,
    );
  }
}

// The nearest package.json at or above `dir` (Node's rule for whether .ts/.js files are ES modules).
async function packageScope(dir: string): Promise<{ file: string; type: unknown } | undefined> {
  for (let at = dir; ; at = dirname(at)) {
    const file = join(at, 'package.json');
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        return { file, type: (JSON.parse(text) as { type?: unknown } | null)?.type };
      } catch {
        return { file, type: undefined };
      }
    }
    if (dirname(at) === at) return undefined;
  }
}

// What the package ships of each stage and what it never may, made from the stage's row (src/course/stages.ts): the
// lines package.json `files` needs to keep a reference out, and the files of a stage's data the package carries.
// The package tests (test/course/package-files.test.ts, pack-stages.test.ts) and the third-mode test read it, so a
// row added there is checked by the same rules without a test naming the stage.
import type { Stage } from '../../src/course/stages.ts';
import { schemaOf } from '../../src/modes/mode-table.ts';

// A file the student writes at the stage is the reference in the package root, and compiled under dist/ (whose root
// is src/): both must stay out of the package.
export function referenceFiles(stage: Stage): { source: string; compiled: string }[] {
  return stage.writes.map((file) => {
    if (!file.startsWith('src/') || !file.endsWith('.ts'))
      throw new Error(`stage ${stage.slug} writes ${file}: a student's file is a .ts file under src/`);
    return { source: file, compiled: `dist/${file.slice('src/'.length, -'.ts'.length)}` };
  });
}

// The lines of package.json `files` that leave the stage's references out: `!src/x.ts` and `!dist/x.*` (the .js,
// its .d.ts and its map).
export function exclusionLines(stage: Stage): string[] {
  return referenceFiles(stage).flatMap(({ source, compiled }) => [`!${source}`, `!${compiled}.*`]);
}

// Whether `path` (a packed file) is one of the stage's references or compiled from one.
export function isReference(stage: Stage, path: string): boolean {
  return referenceFiles(stage).some(
    ({ source, compiled }) =>
      path === source || (path.startsWith(`${compiled}.`) && !path.slice(compiled.length).includes('/')),
  );
}

// The stage's data the package ships: its cases and snapshots folders, its mode's case schema, the stub of each file
// the student writes, its page, and what it provides from earlier lessons.
export function shippedData(stage: Stage): { folders: string[]; files: string[] } {
  return {
    folders: [`cases/${stage.slug}`, `snapshots/${stage.slug}`, ...stage.provides.map((p) => p.path)],
    files: [`cases/${schemaOf(stage.mode)}`, ...stage.writes.map((f) => `course-template/${f}`), stage.doc],
  };
}

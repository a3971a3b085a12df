// The vitest baseline: a generated suite with one test per case that calls the package driver's `dispatch`
// in-process on the course's modules (as bench/floor.ts does) and compares the results with the snapshot file —
// what a course author would write with a test runner.
// All cases sit in one file, so vitest pays for one worker and one module graph: its fastest shape.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

// A generated suite: the command that runs it, and `remove` to delete it.
export type VitestSuite = { root: string; command: string; args: string[]; remove: () => Promise<void> };

// Writes the suite for `stage` into a fresh temp dir; `dir` is the course directory whose code is graded.
export async function makeVitestSuite(options: {
  packageRoot: string;
  dir: string;
  stage: string;
}): Promise<VitestSuite> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-vitest-'));
  const casesDir = join(options.packageRoot, 'cases', options.stage);
  const names = (await readdir(casesDir)).filter((n) => n.endsWith('.json')).sort();
  const tests = names.map((name) => {
    const slug = name.slice(0, -'.json'.length);
    const caseFile = JSON.stringify(join(casesDir, name));
    const snapshotFile = JSON.stringify(join(options.packageRoot, 'snapshots', options.stage, name));
    return `it(${JSON.stringify(slug)}, () => check(${caseFile}, ${snapshotFile}));`;
  });
  const source = [
    `import { readFileSync } from 'node:fs';`,
    `import { expect, it } from 'vitest';`,
    `import { dispatch } from ${JSON.stringify(pathToFileURL(join(options.packageRoot, 'src', 'modes', 'dispatch', 'driver.ts')).href)};`,
    `import { courseUrl } from ${JSON.stringify(pathToFileURL(join(options.packageRoot, 'src', 'modes', 'kit.ts')).href)};`,
    ``,
    `const course = courseUrl(${JSON.stringify(options.dir)});`,
    `async function check(caseFile: string, snapshotFile: string): Promise<void> {`,
    `  const data = JSON.parse(readFileSync(caseFile, 'utf8'));`,
    `  const results = await dispatch({ files: data.files ?? {}, calls: data.calls }, undefined, undefined, course);`,
    `  const expected = JSON.parse(readFileSync(snapshotFile, 'utf8')).results;`,
    `  expect(JSON.parse(JSON.stringify(results))).toStrictEqual(expected);`,
    `}`,
    ``,
    ...tests,
    ``,
  ].join('\n');
  await writeFile(join(root, 'suite.test.ts'), source);
  const vitest = join(options.packageRoot, 'node_modules', 'vitest', 'vitest.mjs');
  return {
    root,
    command: process.execPath,
    // No config file: vitest's defaults, as a course author would start. The timeout leaves room for the
    // cases that sleep.
    args: [vitest, 'run', '--root', root, '--testTimeout', '60000', '--reporter', 'dot'],
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

// The floor: one `node --import tsx` process that imports the stage's mode from the package's driver (`dispatch`,
// or `runLoopCase` for a loop stage), loading the course's modules from <course dir>, and runs every case of a stage in turn, comparing each with its snapshot. No grader, no subprocess per batch, no validation:
// the least work that still runs every call. Prints `N passed, M failed` and exits 1 on any failure. Several course
// directories (joined by the path delimiter, `:`) are graded one after another in the one process: a class's floor.
//
//   node --import tsx bench/floor.ts <course dir>[:<course dir>…] <stage> [<package root>]
import { readdir, readFile } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { stageOf } from '../src/course/stages.ts';
import { dispatch } from '../src/modes/dispatch/driver.ts';
import { oneCallAtATime } from '../src/modes/dispatch/left-timers.ts';
import { courseUrl } from '../src/modes/kit.ts';
import { runLoopCase } from '../src/modes/loop/driver.ts';

type CaseData = { files?: Record<string, unknown>; calls: Array<{ tool: string; input: Record<string, unknown> }> };
type Dispatch = (testCase: { files: Record<string, unknown>; calls: CaseData['calls'] }) => Promise<unknown[]>;
type RunLoopCase = (testCase: unknown) => Promise<unknown[]>;

const [dirArg, stage, rootArg] = process.argv.slice(2);
if (dirArg === undefined || stage === undefined) {
  process.stderr.write('usage: node --import tsx bench/floor.ts <course dir> <stage> [<package root>]\n');
  process.exit(2);
}
// The package whose cases and snapshots are graded: this one, or a copy (the bench's 10x suite).
const packageRoot = resolve(rootArg ?? join(import.meta.dirname, '..'));
const courses = dirArg.split(delimiter).map((dir) => courseUrl(resolve(dir)));
// One call at a time, as the driver's own process watches them.
oneCallAtATime();
const programOf = (course: URL): { dispatch: Dispatch; runLoopCase: RunLoopCase } => ({
  dispatch: (testCase) => dispatch(testCase as Parameters<typeof dispatch>[0], undefined, undefined, course),
  runLoopCase: (testCase) => runLoopCase(testCase as Parameters<typeof runLoopCase>[0], undefined, undefined, course),
});
const loop = stageOf(stage)?.mode === 'loop';
const names = (await readdir(join(packageRoot, 'cases', stage))).filter((n) => n.endsWith('.json')).sort();

let passed = 0;
const failed: string[] = [];
for (const course of courses) {
  const program = programOf(course);
  for (const name of names) {
    const data = JSON.parse(await readFile(join(packageRoot, 'cases', stage, name), 'utf8')) as CaseData;
    const snapshot = JSON.parse(await readFile(join(packageRoot, 'snapshots', stage, name), 'utf8')) as {
      results: unknown[];
    };
    const results = loop
      ? await program.runLoopCase(data)
      : await program.dispatch({ files: data.files ?? {}, calls: data.calls });
    // Through JSON, as the grader sees the results printed.
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(results)), snapshot.results)) passed += 1;
    else failed.push(courses.length === 1 ? name : `${name} (${course})`);
  }
}
process.stdout.write(`${passed} passed, ${failed.length} failed\n`);
if (failed.length > 0) process.stdout.write(`failed: ${failed.join(', ')}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;

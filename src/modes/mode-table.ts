// The one table of driver modes. A mode is a row here and a folder src/modes/<name>/ that holds each aspect of it in
// a file named for the aspect:
//   driver.ts          what a program process does with a case, and its probe (the driver's floor)
//   serve.ts           the grader's side of a program process, when the mode keeps its evidence there: it holds the
//                      batch and answers the program over its channel (the run's floor, src/grade/run/)
//   judge.ts           its verdicts, hints and what the probe finds (the judges' floor)
//   variants.ts        the variant of a case, when it has them (the run's floor)
//   audit.ts           how `audit` grades an implementation in-process, when the mode has a catalogue (the run's)
//   record-command.ts  what `record` makes of a transcript (the CLI's floor)
// Beside them, `case.ts` types its case files (on the driver's floor: src/course/ holds a case as the shared
// CaseData), and `aspects.ts` has the compiler check each aspect's export (src/modes/aspect-types.ts).
// A row names the mode's case schema, a file under cases/: every stage of the mode validates its cases against it.
// The file stays beside the cases, whose `$schema` ("../case.schema.json") points to it.
// A stage names its mode (src/course/stages.ts `mode`). Each floor reaches the aspect of its own kind by the mode's
// name, `import(aspectUrl(name, '<aspect>').href)`, and never one above it: test/architecture.test.ts holds every
// such import to the floors as it holds a file's imports (docs/decisions/015-modes-as-folders.md).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MODE_TABLE = [
  { name: 'dispatch', schema: 'case.schema.json', what: "feeds each case's calls through the student's makeExecute" },
  {
    name: 'loop',
    schema: 'agent-loop.schema.json',
    what: "runs the student's runLoop against a fake Messages API that serves the case's turns",
  },
  {
    name: 'plan',
    schema: 'agent-loop.schema.json',
    what: "runs the student's runPlanLoop as the loop mode runs runLoop, its todo calls its own to answer",
  },
  {
    name: 'task',
    schema: 'agent-loop.schema.json',
    what: "runs the student's runTaskLoop against a fake Messages API that serves the parent's and its children's turns",
  },
  {
    name: 'compact',
    schema: 'compact-context.schema.json',
    what: "runs the student's runCompactLoop as the loop mode does, each case in an empty working directory whose transcripts it grades",
  },
] as const;

export type ModeName = (typeof MODE_TABLE)[number]['name'];

export const MODE_NAMES: readonly ModeName[] = MODE_TABLE.map((m) => m.name);

// The mode of a stage the course does not list (a case file graded on its own, a test's made-up stage).
export const DEFAULT_MODE: ModeName = 'dispatch';

// The file under cases/ holding mode `name`'s case schema.
export function schemaOf(name: ModeName): string {
  return MODE_TABLE.find((m) => m.name === name)!.schema;
}

// The aspects a mode's folder may hold, by file name.
export type Aspect = 'driver' | 'serve' | 'judge' | 'variants' | 'audit' | 'record-command';

export function isModeName(name: unknown): name is ModeName {
  return (MODE_NAMES as readonly unknown[]).includes(name);
}

// From source (tests, the repository) the aspects are `.ts`; from an install, the compiled `.js` beside this file.
const EXTENSION = import.meta.url.endsWith('.ts') ? 'ts' : 'js';

// Where mode `name`'s aspect is: src/modes/<name>/<aspect>.ts (dist/modes/… installed). Only a name of the table
// is a folder here; anything else is refused, so no name given on a command line reaches another file.
export function aspectUrl(name: ModeName, aspect: Aspect): URL {
  if (!isModeName(name))
    throw new Error(`no driver mode ${JSON.stringify(name)}: the modes are ${MODE_NAMES.join(', ')}`);
  return new URL(`./${name}/${aspect}.${EXTENSION}`, import.meta.url);
}

// The export an aspect's file gives, checked: a folder whose file lacks it says so by name.
export function aspectExport<T>(module: unknown, name: ModeName, aspect: Aspect, key: string): T {
  const value = (module as Record<string, unknown>)[key];
  if (value === undefined) throw new Error(`src/modes/${name}/${aspect} exports no \`${key}\``);
  return value as T;
}

// Whether mode `name`'s folder holds the aspect (all but `driver` and `judge` are a mode's to have or not).
export function hasAspect(name: ModeName, aspect: Aspect): boolean {
  return existsSync(fileURLToPath(aspectUrl(name, aspect)));
}

// The course's stages, in course order, as data: what each grades, how the driver runs its cases, what the student
// writes and where its cases, snapshots and contract live. Adding a stage is adding an entry here with its cases,
// snapshots, stubs and page; the run, the judge and the reports read everything from it and from its mode's
// folder (src/modes/<mode>/). A stage in a new mode adds that folder and its row in src/modes/mode-table.ts.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.ts';
import { closestName } from './closest-name.ts';
import { DEFAULT_MODE, type ModeName } from '../modes/mode-table.ts';

// One stage of the course.
export type Stage = {
  slug: string;
  // As the course page names it.
  title: string;
  // How its cases run and are judged, varied and recorded: a mode of the table (src/modes/mode-table.ts), whose
  // folder src/modes/<mode>/ holds all of that.
  mode: ModeName;
  // The files the student writes at this stage: `init --stage` writes the stub of each from course-template/, and a
  // course directory that holds them all has reached the stage (`test --previous` grades it). The first is the
  // module the driver loads (the course's copy when grading, the package's own, the reference, for snapshots).
  writes: string[];
  // What the student writes in them, as the stage page names it: the export of the first that the driver calls.
  entry: string;
  // What makes a first case pass, for the line after `npm run watch` that init prints.
  untilPass: string;
  // Directories of the package that `init` copies into a course directory at this stage (work of earlier lessons
  // the stage builds on), and what they are to the student.
  provides: { path: string; what: string }[];
  // The packages the course's code imports at this stage: the course's package.json depends on them.
  dependencies: string[];
  // The page with the stage's contract, in the package (a course directory has it in node_modules/theinference/).
  doc: string;
  // A case's time in a batch when no run has measured it (the reference suite's mean, rounded up): what the grader
  // plans its processes with on a first run, and how long a case may run before the rest of its batch moves on.
  typicalCaseMs: number;
  // What watch mode's warm standbys import ahead of a save (src/grade/run/standby.ts): the stage's packages, as the
  // driver imports them, and the course modules it loads from the course directory. One that a save changes is
  // loaded again.
  warm: string[];
  // The catalogue of wrong implementations `theinference audit` runs (in the repository: not shipped), and what
  // each of them is, in the plural, for its report.
  catalogue?: { file: string; of: string };
};

// Every stage, in course order.
export const STAGES: readonly Stage[] = [
  {
    slug: 'agent-loop',
    title: 'Run the loop',
    mode: 'loop',
    writes: ['src/agent-loop.ts'],
    entry: 'runLoop',
    untilPass: 'runLoop calls the model and runs its tools',
    provides: [],
    dependencies: ['@anthropic-ai/sdk'],
    doc: 'docs/stages/agent-loop.md',
    // Measured at 28 cases on a quiet 2-core machine: 0.66–0.77 s in all (a 34-turn recorded port 0.23 s of it), a
    // mean of 26 ms, doubled for a loaded machine. (At 250, from a run of 4.9 s under load, a first run planned 3
    // processes where 1 grades the stage in about half the time: 1.8 s against 3.5 s.)
    typicalCaseMs: 50,
    warm: ['@anthropic-ai/sdk', './src/agent-loop.ts'],
    catalogue: { file: 'test/fixtures/wrong-loop/catalogue.ts', of: 'loops' },
  },
  {
    slug: 'register-tools',
    title: 'Register the toolset',
    mode: 'dispatch',
    writes: ['src/execute.ts'],
    entry: 'makeExecute',
    untilPass: 'makeExecute routes the tools',
    provides: [{ path: 'src/tools', what: 'the tools of the earlier stages' }],
    dependencies: ['fast-glob'],
    doc: 'docs/tools.md',
    // Measured at 115 cases: 1.1 s in one process, a 0.3 s timeout case among them.
    typicalCaseMs: 8,
    warm: ['./src/execute.ts'],
    catalogue: { file: 'test/fixtures/wrong-execute/catalogue.ts', of: 'dispatchers' },
  },
  {
    slug: 'plan-todos',
    title: 'Plan with a todo list',
    mode: 'plan',
    writes: ['src/plan-loop.ts'],
    entry: 'runPlanLoop',
    untilPass: 'runPlanLoop runs the loop and answers its todo calls',
    provides: [],
    dependencies: ['@anthropic-ai/sdk'],
    doc: 'docs/stages/plan-todos.md',
    // As agent-loop's: the same fake API and client, a case a few requests longer.
    typicalCaseMs: 50,
    warm: ['@anthropic-ai/sdk', './src/plan-loop.ts'],
    catalogue: { file: 'test/fixtures/wrong-plan/catalogue.ts', of: 'plan loops' },
  },
  {
    slug: 'delegate-task',
    title: 'Delegate to a subagent',
    mode: 'task',
    writes: ['src/task-loop.ts'],
    entry: 'runTaskLoop',
    untilPass: 'runTaskLoop calls the model and runs a child loop for each task call',
    provides: [],
    dependencies: ['@anthropic-ai/sdk'],
    doc: 'docs/stages/delegate-task.md',
    // As agent-loop's: a case is a few requests to 127.0.0.1 (measured below, in the stage's own run).
    typicalCaseMs: 50,
    warm: ['@anthropic-ai/sdk', './src/task-loop.ts'],
    catalogue: { file: 'test/fixtures/wrong-task/catalogue.ts', of: 'task loops' },
  },
  {
    slug: 'compact-context',
    title: 'Compact the context',
    mode: 'compact',
    writes: ['src/compact-loop.ts'],
    entry: 'runCompactLoop',
    untilPass: 'runCompactLoop calls the model with its tool results micro-compacted',
    provides: [],
    dependencies: ['@anthropic-ai/sdk'],
    doc: 'docs/stages/compact-context.md',
    // Measured like agent-loop's: most cases are a few requests to 127.0.0.1; the recorded ones carry long sessions.
    typicalCaseMs: 60,
    warm: ['@anthropic-ai/sdk', './src/compact-loop.ts'],
    catalogue: { file: 'test/fixtures/wrong-compact/catalogue.ts', of: 'compacting loops' },
  },
];

// The packages the course's code imports at any stage: the grader gives a program its own copies of these, and no
// others.
export const COURSE_DEPENDENCIES: readonly string[] = [...new Set(STAGES.flatMap((s) => s.dependencies))];

// One stage as `theinference stages` lists it: its place in the course (from 1) and its number of cases.
export type StageInfo = Stage & { order: number; caseCount: number };

// What the driver loads of a course at a stage: a module, as a path from the course directory, and the export of
// it that the stage's mode calls. The stage's row says both (`writes`, `entry`); in the package root they are the
// reference.
export type StudentCode = { module: string; export: string };

export function studentCode(stage: Stage): StudentCode {
  return { module: `./${stage.writes[0]}`, export: stage.entry };
}

// The stage a driver mode runs when none is named (a case run by hand, `program.ts loop <case.json>`): the first
// of the mode in course order.
export function firstStageIn(mode: ModeName): Stage | undefined {
  return STAGES.find((s) => s.mode === mode);
}

// The theinference package root (the directory holding package.json, cases/ and snapshots/).
export function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

// `cases/<stage>/` under `root`.
export function casesDir(root: string, stage: string): string {
  return join(root, 'cases', stage);
}

// `snapshots/<stage>/` under `root`.
export function snapshotsDir(root: string, stage: string): string {
  return join(root, 'snapshots', stage);
}

// The stage of a slug, or undefined. Synchronous: the bin reads a stage's mode before the CLI loads.
export function stageOf(slug: string): Stage | undefined {
  return STAGES.find((s) => s.slug === slug);
}

// The mode a stage's cases run in: its row's, or the default mode for a stage the course does not list.
export function modeOf(slug: string): ModeName {
  return stageOf(slug)?.mode ?? DEFAULT_MODE;
}

// The stages before `slug` in course order, nearest first (`test --previous` grades them in this order).
export function earlierStages(slug: string): Stage[] {
  const at = STAGES.findIndex((s) => s.slug === slug);
  return at < 0 ? [] : STAGES.slice(0, at).reverse();
}

// Every stage in course order, with its number of case files under `root`.
export async function listStages(root: string): Promise<StageInfo[]> {
  return Promise.all(
    STAGES.map(async (stage, i) => ({
      ...stage,
      order: i + 1,
      caseCount: (await caseFileNames(root, stage.slug)).length,
    })),
  );
}

// The case file names (`x.json`) of a stage, sorted.
export async function caseFileNames(root: string, stage: string): Promise<string[]> {
  const entries = await readdir(casesDir(root, stage), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => e.name)
    .sort();
}

// Resolves a stage slug, or fails with a message listing the stages that exist.
export async function requireStage(root: string, slug: string): Promise<StageInfo> {
  const stages = await listStages(root);
  const stage = stages.find((s) => s.slug === slug);
  if (stage !== undefined) return stage;
  const known = stages.map((s) => s.slug).join(', ');
  const meant = closestName(
    slug,
    stages.map((s) => s.slug),
  );
  throw new HarnessError(
    'UNKNOWN_STAGE',
    `unknown stage '${slug}'.${meant === undefined ? '' : ` Did you mean ${meant}?`} Known stages: ${known}. Run \`npx theinference stages\` to list them with their cases.`,
  );
}

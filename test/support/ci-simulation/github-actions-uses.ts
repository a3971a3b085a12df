// What each `uses:` step of a recipe does in the GitHub Actions simulation (github-actions.ts runs them): checkout
// copies the repository the test names in, setup-node finds Node present, the artifact actions keep and return files
// as the service would, Classroom's reporter runs as test/fixtures/classroom/grading-reporter.mjs reads its inputs,
// and the two JUnit readers read every file their pattern names. An action without a row here fails the run.
import { cp } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { execa } from 'execa';
import fg from 'fast-glob';
import { REPO } from '../reference-course.ts';
import { type Host, readJunit } from './runner-host.ts';

// A step of a job, as the workflow's YAML holds it.
export type Step = {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
  'working-directory'?: string;
};

// What the test gives a run: the repositories actions/checkout finds (`self` is the workflow's own), and the values
// of the run's context (`github.run_number`, `secrets.X`).
export type RunWith = { repositories: Record<string, string>; context: Record<string, string> };

// What an action sees: the runner's machine, the run's givens, the artifact store, the job's workspace, its step.
type Ctx = {
  host: Host;
  given: RunWith;
  artifacts: string;
  workspace: string;
  step: Step;
  env: Record<string, string>;
};
type Action = (ctx: Ctx) => Promise<{ ok: boolean; output: string }>;

const text = (v: unknown): string => (v === undefined ? '' : String(v));

// What each action the recipes use does, here.
export const ACTIONS: Record<string, Action> = {
  'actions/checkout@v4': async ({ given, workspace, step }) => {
    const repo = text(step.with?.repository) || 'self';
    const from = given.repositories[repo];
    if (from === undefined) throw new Error(`actions/checkout: no repository ${repo} in this simulation`);
    await cp(from, join(workspace, text(step.with?.path)), { recursive: true });
    return { ok: true, output: `checked out ${repo}` };
  },
  // Node present: this machine's, whatever version the recipe asks for (the log says both).
  'actions/setup-node@v4': async ({ env, step }) => {
    const node = await execa('node', ['--version'], { env, extendEnv: false, reject: false });
    return {
      ok: node.exitCode === 0,
      output: `node ${node.stdout} (the recipe asks for ${text(step.with?.['node-version'])})`,
    };
  },
  'actions/upload-artifact@v4': async ({ artifacts, workspace, step }) => {
    const paths = text(step.with?.path)
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean);
    const into = join(artifacts, text(step.with?.name));
    const found = await fg(
      paths.map((p) => (p.endsWith('/') ? `${p}**` : p)),
      { cwd: workspace, onlyFiles: true },
    );
    if (found.length === 0)
      return { ok: false, output: `No files were found with the provided path: ${paths.join(', ')}` };
    // As upload-artifact stores them: relative to the paths' least common ancestor (`reports/` → its files).
    const base = commonAncestor(paths.map((p) => (p.endsWith('/') ? p.slice(0, -1) : dirname(p))));
    for (const file of found) await cp(join(workspace, file), join(into, relative(base, file)));
    return { ok: true, output: `uploaded ${found.length} files as ${text(step.with?.name)}` };
  },
  'actions/download-artifact@v4': async ({ artifacts, workspace, step }) => {
    const names = await fg(text(step.with?.pattern), { cwd: artifacts, onlyDirectories: true, deep: 1 });
    if (step.with?.['merge-multiple'] !== true) throw new Error('actions/download-artifact: only merge-multiple here');
    for (const name of names)
      await cp(join(artifacts, name), join(workspace, text(step.with?.path)), { recursive: true });
    return { ok: names.length > 0, output: `downloaded ${names.join(', ')}` };
  },
  // Classroom's reporter (not on npm) as test/fixtures/classroom/grading-reporter.mjs reads its inputs.
  'classroom-resources/autograding-grading-reporter@v1': async ({ env, workspace, step }) => {
    const input = { INPUT_RUNNERS: text(step.with?.runners) };
    const reporter = join(REPO, 'test', 'fixtures', 'classroom', 'grading-reporter.mjs');
    const ran = await execa('node', [reporter], {
      cwd: workspace,
      env: { ...env, ...input },
      extendEnv: false,
      reject: false,
      all: true,
    });
    return { ok: ran.exitCode === 0, output: ran.all ?? '' };
  },
  // The two JUnit readers: every file the pattern names exists and parses.
  'mikepenz/action-junit-report@v5': async ({ workspace, step }) =>
    junitReader(workspace, text(step.with?.report_paths)),
  'dorny/test-reporter@v2': async ({ workspace, step }) => junitReader(workspace, text(step.with?.path)),
};

async function junitReader(workspace: string, pattern: string): Promise<{ ok: boolean; output: string }> {
  try {
    const files = await readJunit(workspace, pattern);
    return { ok: true, output: files.map((f) => `${f.file}: ${f.suites.length} suites`).join('\n') };
  } catch (error) {
    return { ok: false, output: (error as Error).message };
  }
}

function commonAncestor(dirs: string[]): string {
  const parts = dirs.map((d) => (d === '.' ? [] : d.split('/')));
  const first = parts[0] ?? [];
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n).join('/');
}

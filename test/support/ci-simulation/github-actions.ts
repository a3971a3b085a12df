// A GitHub Actions workflow run, simulated from the workflow's own YAML (why by hand: runner-host.ts). Jobs run in
// `needs:` order, a matrix job once per value, each on a fresh workspace; each job's steps in order, a failed step
// skipping the rest but those with `if: always()`. `run:` steps go through `bash -e` (the runner's default shell)
// with the variables the runner gives (`GITHUB_WORKSPACE`, `GITHUB_STEP_SUMMARY` and `GITHUB_OUTPUT` as files,
// `CI=true`, `RUNNER_TEMP`). A `${{ }}` expression is taken from a small table (the run's context, the matrix,
// earlier steps' outputs), and one it does not know fails the run. `uses:` steps are simulated by what they do;
// an action without a row in ACTIONS fails the run with its name, so a new one cannot slip in untested.
import { chmod, cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { execa } from 'execa';
import fg from 'fast-glob';
import { parse } from 'yaml';
import { REPO } from '../reference-course.ts';
import { type Host, readJunit, runScript } from './runner-host.ts';

type Step = {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string>;
  'working-directory'?: string;
};
type Job = { needs?: string | string[]; if?: string; strategy?: { matrix?: Record<string, unknown[]> }; steps: Step[] };

// What a step did: `outcome` as `steps.<id>.outcome` says it.
export type StepRun = { label: string; outcome: 'success' | 'failure' | 'skipped'; output: string };
// One job (one matrix value of it): its steps, its conclusion, its job summary and its workspace.
export type JobRun = {
  job: string;
  matrix: Record<string, string>;
  conclusion: 'success' | 'failure';
  steps: StepRun[];
  summary: string;
  workspace: string;
};
export type WorkflowRun = { jobs: JobRun[]; artifacts: string };

// What the test gives a run: the repositories actions/checkout finds (`self` is the workflow's own), and the values
// of the run's context (`github.run_number`, `secrets.X`).
export type RunWith = { repositories: Record<string, string>; context: Record<string, string> };

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
const ACTIONS: Record<string, Action> = {
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

// `${{ expr }}` from `values`; an expression not in it fails the run, naming it.
export function substitute(source: string, values: Record<string, string>): string {
  return source.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const value = values[expression];
    if (value === undefined)
      throw new Error(`unknown expression \${{ ${expression} }} (known: ${Object.keys(values).join(', ')})`);
    return value;
  });
}

// Whether a step (or job) with this `if:` runs, given whether everything before it succeeded.
function runs(condition: string | undefined, ok: boolean): boolean {
  if (condition === undefined) return ok;
  if (condition === 'always()') return true;
  throw new Error(`unknown if: ${condition}`);
}

// Jobs in `needs:` order; a job runs once every job it needs has run.
function ordered(jobs: Record<string, Job>): string[] {
  const done: string[] = [];
  while (done.length < Object.keys(jobs).length) {
    const next = Object.keys(jobs).find(
      (name) => !done.includes(name) && [jobs[name]!.needs ?? []].flat().every((n) => done.includes(n)),
    );
    if (next === undefined) throw new Error('needs: a cycle or a job that does not exist');
    done.push(next);
  }
  return done;
}

// Runs the workflow `yaml` on `host`, as a run of it does.
export async function runWorkflow(host: Host, yaml: string, given: RunWith): Promise<WorkflowRun> {
  const workflow = parse(yaml) as { jobs: Record<string, Job> };
  const artifacts = join(host.root, 'artifacts');
  await mkdir(artifacts, { recursive: true });
  const runsDone: JobRun[] = [];
  for (const name of ordered(workflow.jobs)) {
    const job = workflow.jobs[name]!;
    const needed = [job.needs ?? []].flat();
    const ok = needed.every((n) => runsDone.filter((r) => r.job === n).every((r) => r.conclusion === 'success'));
    if (!runs(job.if, ok)) continue;
    for (const matrix of expand(job.strategy?.matrix))
      runsDone.push(await runJob(host, name, job, matrix, given, artifacts));
  }
  return { jobs: runsDone, artifacts };
}

function expand(matrix: Record<string, unknown[]> | undefined): Record<string, string>[] {
  if (matrix === undefined) return [{}];
  const entries = Object.entries(matrix);
  if (entries.length !== 1) throw new Error('matrix: one key here');
  const [key, values] = entries[0]!;
  return values.map((v) => ({ [key]: String(v) }));
}

async function runJob(
  host: Host,
  job: string,
  spec: Job,
  matrix: Record<string, string>,
  given: RunWith,
  artifacts: string,
): Promise<JobRun> {
  const runner = await mkdtemp(join(host.root, `${job}-`));
  await chmod(runner, 0o755);
  const workspace = join(runner, 'work');
  const temp = join(runner, 'temp');
  await mkdir(workspace, { recursive: true });
  await mkdir(temp, { recursive: true });
  const values: Record<string, string> = { ...given.context };
  for (const [k, v] of Object.entries(matrix)) values[`matrix.${k}`] = v;
  const steps: StepRun[] = [];
  let summary = '';
  let ok = true;
  for (const [index, step] of spec.steps.entries()) {
    const label = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${index}`;
    if (!runs(step.if, ok)) {
      steps.push({ label, outcome: 'skipped', output: '' });
      continue;
    }
    const files = { output: join(temp, `output-${index}`), summary: join(temp, `summary-${index}`) };
    await writeFile(files.output, '');
    await writeFile(files.summary, '');
    const withs = Object.fromEntries(
      Object.entries(step.with ?? {}).map(([k, v]) => [k, typeof v === 'string' ? substitute(v, values) : v]),
    );
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), values)]),
    );
    const env = {
      ...host.env,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      RUNNER_TEMP: temp,
      ...stepEnv,
    };
    let result: { ok: boolean; output: string };
    if (step.run !== undefined) {
      const cwd = join(workspace, step['working-directory'] ?? '');
      const ran = await runScript(
        ['bash', '-e'],
        substitute(step.run, values),
        cwd,
        env,
        join(temp, `step-${index}.sh`),
      );
      result = { ok: ran.exitCode === 0, output: ran.output };
    } else {
      const action = ACTIONS[step.uses ?? ''];
      if (action === undefined)
        throw new Error(`${job}: the simulation has no action ${step.uses}: add what it does to ACTIONS`);
      result = await action({ host, given, artifacts, workspace, step: { ...step, with: withs }, env });
    }
    if (step.id !== undefined)
      for (const [k, v] of outputs(await readFile(files.output, 'utf8'))) values[`steps.${step.id}.outputs.${k}`] = v;
    summary += await readFile(files.summary, 'utf8');
    steps.push({ label, outcome: result.ok ? 'success' : 'failure', output: result.output });
    ok &&= result.ok;
  }
  return { job, matrix, conclusion: ok ? 'success' : 'failure', steps, summary, workspace };
}

// GITHUB_OUTPUT's lines: `name=value`, or `name<<DELIMITER` … `DELIMITER`.
function outputs(file: string): [string, string][] {
  const pairs: [string, string][] = [];
  const lines = file.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      pairs.push([heredoc[1]!, lines.slice(i + 1, end).join('\n')]);
      i = end;
    } else if (line.includes('=')) pairs.push([line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  }
  return pairs;
}

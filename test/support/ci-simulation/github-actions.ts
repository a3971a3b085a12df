// A GitHub Actions workflow run, simulated from the workflow's own YAML (why by hand: runner-host.ts). Jobs run in
// `needs:` order, a matrix job once per value, each on a fresh workspace; each job's steps in order, a failed step
// skipping the rest but those with `if: always()`. `run:` steps go through `bash -e` (the runner's default shell)
// with the variables the runner gives (`GITHUB_WORKSPACE`, `GITHUB_STEP_SUMMARY` and `GITHUB_OUTPUT` as files,
// `CI=true`, `RUNNER_TEMP`). A `${{ }}` expression is taken from a small table (the run's context, the matrix,
// earlier steps' outputs), and one it does not know fails the run. `uses:` steps are simulated by what they do;
// an action without a row in ACTIONS (github-actions-uses.ts) fails the run with its name, so a new one cannot slip in untested.
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ACTIONS, type RunWith, type Step } from './github-actions-uses.ts';
import { type Host, runScript } from './runner-host.ts';

export type { RunWith } from './github-actions-uses.ts';

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

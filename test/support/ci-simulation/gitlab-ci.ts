// A GitLab CI job, simulated from `.gitlab-ci.yml`'s own text (why by hand: runner-host.ts): the project checked out
// at the build directory, `before_script` then `script` in one `bash -e` shell (the runner's own script stops at the
// first failing line, as its generated script does), with `CI`, `GITLAB_CI` and `CI_PROJECT_DIR` set; then
// `artifacts` as the runner collects them (`when: always`: whatever the exit code): each path must exist, and each
// `reports: junit` file must exist and parse, or the upload fails.
import { cp, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type Host, readJunit, runScript } from './runner-host.ts';

type GitlabJob = {
  image?: string;
  variables?: Record<string, string>;
  before_script?: string[];
  script: string[];
  artifacts?: { when?: string; paths?: string[]; reports?: { junit?: string } };
};

// What the job did: its script's exit code and log, and each JUnit report GitLab read (file and suite count).
export type GitlabRun = { exitCode: number; output: string; junit: { file: string; suites: number }[] };

// Runs job `name` of `yaml` in `project` (a directory already laid out as the runner clones it).
export async function runGitlabJob(host: Host, yaml: string, name: string, project: string): Promise<GitlabRun> {
  const job = (parse(yaml) as Record<string, GitlabJob>)[name];
  if (job === undefined) throw new Error(`.gitlab-ci.yml has no job ${name}`);
  const known = new Set(['image', 'variables', 'before_script', 'script', 'artifacts']);
  for (const key of Object.keys(job)) if (!known.has(key)) throw new Error(`gitlab simulation: unknown key ${key}`);
  const env = { ...host.env, ...job.variables, CI: 'true', GITLAB_CI: 'true', CI_PROJECT_DIR: project };
  const script = [...(job.before_script ?? []), ...job.script].join('\n');
  const ran = await runScript(['bash', '-e'], script, project, env, join(host.root, `gitlab-${name}.sh`));
  const artifacts = job.artifacts ?? {};
  if (artifacts.when !== 'always' && ran.exitCode !== 0) return { ...ran, junit: [] };
  for (const path of artifacts.paths ?? []) await stat(join(project, path));
  const pattern = artifacts.reports?.junit;
  const junit = pattern === undefined ? [] : await readJunit(project, pattern);
  return { ...ran, junit: junit.map((f) => ({ file: f.file, suites: f.suites.length })) };
}

// Lays out a project: `course` cloned at the build directory, `extra` directories copied in beside its files.
export async function cloneProject(project: string, course: string, extra: Record<string, string>): Promise<void> {
  await cp(course, project, { recursive: true });
  for (const [to, from] of Object.entries(extra)) await cp(from, join(project, to), { recursive: true });
}

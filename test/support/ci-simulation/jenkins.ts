// A Jenkins declarative pipeline, simulated from the Jenkinsfile's own text (why by hand: runner-host.ts): each
// stage's steps in order, `sh` through `sh -xe` as Jenkins runs it, with the pipeline's `environment` (Jenkins itself sets no `CI`), `dir('x') { … }` in that subdirectory of the
// workspace; a failing step fails the build and skips the rest; `post { always { junit '…' } }` runs whatever the
// result, and the `junit` step fails the build when no file matches or one does not parse. A step the simulation
// does not know fails the run, naming it.
import { join } from 'node:path';
import { type Host, readJunit, runScript } from './runner-host.ts';

type ShStep = { dir: string; script: string };

// What the build did: the exit code of the step that failed (0 if none), the log, and what `junit` read.
export type JenkinsRun = { exitCode: number; output: string; junit: { file: string; suites: number }[] };

// The `sh` steps of `steps { … }` blocks, in order, each with the `dir` it runs in.
export function shSteps(jenkinsfile: string): ShStep[] {
  const stages = jenkinsfile.slice(jenkinsfile.indexOf('stages {'), jenkinsfile.indexOf('post {'));
  const found: ShStep[] = [];
  const step =
    /dir\('([^']+)'\)\s*\{\s*sh '([^']*)'\s*\}|sh '''([\s\S]*?)'''|sh '([^']*)'|steps \{|stage\('[^']*'\) \{|stages \{|\}/g;
  let at = 0;
  for (const m of stages.matchAll(step)) {
    const between = stages.slice(at, m.index).trim();
    if (between !== '') throw new Error(`jenkins simulation: unknown step ${between.split('\n')[0]}`);
    at = m.index + m[0].length;
    if (m[1] !== undefined) found.push({ dir: m[1], script: m[2]! });
    // Groovy's ''' string: a backslash before a line break continues the line, `\\` is one backslash.
    else if (m[3] !== undefined) found.push({ dir: '', script: m[3].replace(/\\\n/g, '').replace(/\\\\/g, '\\') });
    else if (m[4] !== undefined) found.push({ dir: '', script: m[4] });
  }
  return found;
}

// The pipeline's `environment { NAME = 'value' … }`.
export function environment(jenkinsfile: string): Record<string, string> {
  const body = /^ {2}environment \{([^}]*)\}/m.exec(jenkinsfile)?.[1] ?? '';
  return Object.fromEntries([...body.matchAll(/(\w+) = '([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
}

// Runs the pipeline in `workspace` (laid out as the job's checkout leaves it).
export async function runPipeline(host: Host, jenkinsfile: string, workspace: string): Promise<JenkinsRun> {
  // Jenkins sets no CI variable: only what the pipeline's `environment { }` says.
  const env = {
    ...host.env,
    JENKINS_URL: 'http://127.0.0.1/',
    WORKSPACE: workspace,
    BUILD_NUMBER: '1',
    ...environment(jenkinsfile),
  };
  let exitCode = 0;
  let output = '';
  for (const [index, step] of shSteps(jenkinsfile).entries()) {
    const ran = await runScript(
      ['sh', '-xe'],
      step.script,
      join(workspace, step.dir),
      env,
      join(host.root, `jenkins-${index}.sh`),
    );
    output += `${ran.output}\n`;
    exitCode = ran.exitCode;
    if (exitCode !== 0) break;
  }
  const post = /post \{\s*always \{ junit '([^']+)' \}/.exec(jenkinsfile);
  if (post === null) throw new Error('jenkins simulation: no post { always { junit … } }');
  const junit = await readJunit(workspace, post[1]!);
  return { exitCode, output, junit: junit.map((f) => ({ file: f.file, suites: f.suites.length })) };
}

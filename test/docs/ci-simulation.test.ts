// The CI simulation that runs docs/ci-recipes.md (test/support/ci-simulation/) refuses what it does not know, so
// that a recipe cannot pass it by using something it only pretends to run: an action without a row, an expression
// without a value, a Jenkins step it cannot read. And it runs what it knows as the CI systems do: jobs in `needs:`
// order, a failed step skipping the rest but `if: always()`, a step's outputs read by a later one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorkflow } from '../support/ci-simulation/github-actions.ts';
import { shSteps } from '../support/ci-simulation/jenkins.ts';
import { type Host, makeHost } from '../support/ci-simulation/runner-host.ts';

let root = '';
let host: Host;
const none = { repositories: {}, context: {} };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-ci-sim-'));
  host = await makeHost(root, join(root, 'npm-ci'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const job = (steps: string) => `jobs:\n  only:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;

describe('the GitHub Actions simulation', () => {
  it('fails on an action it has no row for, naming it', async () => {
    await expect(runWorkflow(host, job('      - uses: someone/thing@v1\n'), none)).rejects.toThrow(
      'the simulation has no action someone/thing@v1',
    );
  });

  it('fails on an expression it has no value for, naming it', async () => {
    await expect(runWorkflow(host, job('      - run: echo ${{ github.sha }}\n'), none)).rejects.toThrow(
      'unknown expression ${{ github.sha }}',
    );
  });

  it('runs jobs in needs: order, skips after a failure but if: always(), and passes a step’s outputs on', async () => {
    const workflow = `jobs:
  second:
    needs: first
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: echo "second after first"
  first:
    runs-on: ubuntu-latest
    steps:
      - id: say
        run: echo "word=hello" >> "$GITHUB_OUTPUT"
      - run: test "\${{ steps.say.outputs.word }}" = hello && test "$CI" = true && false
      - run: echo never
      - if: always()
        run: echo "ran anyway" >> "$GITHUB_STEP_SUMMARY"
`;
    const run = await runWorkflow(host, workflow, none);
    expect(run.jobs.map((j) => [j.job, j.conclusion])).toEqual([
      ['first', 'failure'],
      ['second', 'success'],
    ]);
    expect(run.jobs[0]!.steps.map((s) => s.outcome)).toEqual(['success', 'failure', 'skipped', 'success']);
    expect(run.jobs[0]!.summary).toBe('ran anyway\n');
  });
});

describe('the Jenkins simulation', () => {
  it('reads sh steps in order, and fails on a step it does not know', () => {
    const pipeline = (steps: string) =>
      `pipeline {\n  stages {\n    stage('a') {\n      steps {\n${steps}\n      }\n    }\n  }\n  post {\n  }\n}\n`;
    expect(
      shSteps(
        pipeline(`dir('course') { sh 'npm ci' }\n        sh '''\n          echo a \\\n            b\n        '''`),
      ),
    ).toEqual([
      { dir: 'course', script: 'npm ci' },
      { dir: '', script: '\n          echo a             b\n        ' },
    ]);
    expect(() => shSteps(pipeline("        echo 'hi'"))).toThrow("unknown step echo 'hi'");
  });
});

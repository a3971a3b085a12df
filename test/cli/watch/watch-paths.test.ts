import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { watchTargets } from '../../../src/cli/watch/watch-paths.ts';

const pkg = '/opt/theinference';
const course = '/home/ada/course';
const targets = watchTargets({
  dir: course,
  packageRoot: pkg,
  stage: 'register-tools',
  tempDirs: [tmpdir(), `${course}/src/.cache/tmp`, `${course}/src/tmp`],
});

describe('watchTargets roots', () => {
  it('watches the course directory and the stage cases and snapshots', () => {
    expect(targets.roots).toEqual([course, `${pkg}/cases/register-tools`, `${pkg}/snapshots/register-tools`]);
  });

  it('does not watch the same tree twice when the course directory is the package', () => {
    const self = watchTargets({ dir: pkg, packageRoot: pkg, stage: 'register-tools', tempDirs: [] });
    expect(self.roots).toEqual([pkg, `${pkg}/cases/register-tools`, `${pkg}/snapshots/register-tools`]);
    expect(self.isIgnored(`${pkg}/cases/register-tools/read.json`)).toBe(false);
    expect(self.isIgnored(`${pkg}/cases/other-stage/read.json`)).toBe(true);
  });
});

describe('watchTargets isIgnored', () => {
  it.each<[string, boolean]>([
    [course, false],
    [`${course}/src`, false],
    [`${course}/src/execute.ts`, false],
    [`${course}/src/tools/view.ts`, false],
    [`${course}/program.ts`, false],
    [`${course}/tsconfig.json`, false],
    [`${course}/package.json`, false],
    [`${pkg}/cases/register-tools`, false],
    [`${pkg}/cases/register-tools/read-alias-view.json`, false],
    [`${pkg}/snapshots/register-tools/read-alias-view.json`, false],
    // not graded code
    [`${course}/node_modules`, true],
    [`${course}/README.md`, true],
    [`${course}/dist`, true],
    [`${course}/.git`, true],
    [`${course}/package-lock.json`, true],
    [`${course}/src/node_modules`, true],
    [`${course}/src/node_modules/x/index.ts`, true],
    [`${course}/src/.git`, true],
    // editor temp, backup and swap files
    [`${course}/src/.execute.ts.swp`, true],
    [`${course}/src/execute.ts~`, true],
    [`${course}/src/#execute.ts#`, true],
    [`${course}/src/.#execute.ts`, true],
    [`${course}/src/4913`, true],
    [`${course}/src/execute.ts___jb_tmp___`, true],
    [`${course}/src/sedX1b2Qz`, true],
    [`${course}/src/execute.ts.tmp`, true],
    [`${pkg}/cases/register-tools/.x.json.swp`, true],
    // a temp dir inside the watched tree, and what is in it
    [`${course}/src/tmp`, true],
    [`${course}/src/tmp/theinference-sandbox-1/a.txt`, true],
    // outside every watched tree
    [`${tmpdir()}/course-1/src/execute.ts`, true],
  ])('%s -> %s', (path, ignored) => {
    expect(targets.isIgnored(path)).toBe(ignored);
  });

  it('a course directory inside the OS temp dir is still watched', () => {
    const dir = `${tmpdir()}/course-1`;
    const t = watchTargets({ dir, packageRoot: pkg, stage: 'register-tools', tempDirs: [tmpdir()] });
    expect(t.isIgnored(`${dir}/src/execute.ts`)).toBe(false);
  });
});

describe('watchTargets display', () => {
  it.each<[string, string]>([
    [`${course}/src/execute.ts`, 'src/execute.ts'],
    [`${course}/program.ts`, 'program.ts'],
    [`${pkg}/cases/register-tools/read.json`, 'cases/register-tools/read.json'],
    ['/elsewhere/x.ts', '/elsewhere/x.ts'],
  ])('%s -> %s', (path, shown) => {
    expect(targets.display(path)).toBe(shown);
  });
});

// What init writes for a stage, file by file: the course's own files byte for byte, what the stage provides, the
// stubs of what the student writes, and a package.json that grades the stage and names what its code imports;
// and a course directory's package.json brought up to a later stage.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { courseFiles, courseManifest, FIRST_STAGE, upgradedManifest } from '../../src/course/scaffold-course.ts';
import { stageOf, STAGES, type Stage } from '../../src/course/stages.ts';
import { REPO } from '../support/reference-course.ts';

const stage = (slug: string): Stage => stageOf(slug)!;

describe('courseFiles', () => {
  it("register-tools: program.ts and every tool of src/tools/ unchanged, and the template's files", async () => {
    const files = await courseFiles(REPO, {
      dir: '/x/my-course',
      spec: 'file:../t.tgz',
      stage: stage('register-tools'),
    });
    const text = (path: string) => files.find((f) => f.path === path)?.text;
    expect(text('program.ts')).toBe(await readFile(join(REPO, 'program.ts'), 'utf8'));
    const tools = (await readdir(join(REPO, 'src', 'tools'))).filter((f) => f.endsWith('.ts'));
    for (const tool of tools)
      expect(text(`src/tools/${tool}`), tool).toBe(await readFile(join(REPO, 'src', 'tools', tool), 'utf8'));
    expect(text('src/execute.ts')).toBe(await readFile(join(REPO, 'course-template', 'src', 'execute.ts'), 'utf8'));
    expect(text('.gitignore')).toBe(await readFile(join(REPO, 'course-template', 'gitignore'), 'utf8'));
    expect(files.map((f) => f.path)).toEqual([
      'package.json',
      'tsconfig.json',
      '.gitignore',
      'program.ts',
      ...tools.sort().map((t) => `src/tools/${t}`),
      'src/execute.ts',
    ]);
  });

  it('agent-loop: program.ts and the stub of src/agent-loop.ts, no tools and no dispatcher', async () => {
    const files = await courseFiles(REPO, { dir: '/x/my-course', spec: 'file:../t.tgz', stage: stage('agent-loop') });
    expect(files.map((f) => f.path)).toEqual([
      'package.json',
      'tsconfig.json',
      '.gitignore',
      'program.ts',
      'src/agent-loop.ts',
    ]);
    const stub = await readFile(join(REPO, 'course-template', 'src', 'agent-loop.ts'), 'utf8');
    expect(files.at(-1)?.text).toBe(stub);
  });

  it('the first stage of the course is the default', () => {
    expect(FIRST_STAGE).toBe(STAGES[0]?.slug);
    expect(FIRST_STAGE).toBe('agent-loop');
  });
});

describe('courseManifest', () => {
  const own = {
    engines: { node: '>=20.6' },
    dependencies: { 'fast-glob': '^3.3.3', chalk: '^5', '@anthropic-ai/sdk': '^1.14.0' },
    devDependencies: { '@types/node': '^20', typescript: '~5.9.3' },
  };
  const options = { dir: '/home/me/My Course', spec: 'file:../t.tgz', previous: false };

  it('is an ES module package with the grading scripts, the stage dependencies and theinference from the spec', () => {
    expect(JSON.parse(courseManifest(own, { ...options, stage: stage('register-tools') }))).toEqual({
      name: 'my-course',
      private: true,
      type: 'module',
      scripts: {
        test: 'theinference test --stage register-tools',
        watch: 'theinference test --stage register-tools --watch',
        typecheck: 'tsc --noEmit',
      },
      engines: { node: '>=20.6' },
      dependencies: { 'fast-glob': '^3.3.3' },
      devDependencies: { '@types/node': '^20', theinference: 'file:../t.tgz', typescript: '~5.9.3' },
    });
    expect(JSON.parse(courseManifest(own, { ...options, stage: stage('agent-loop') })).dependencies).toEqual({
      '@anthropic-ai/sdk': '^1.14.0',
    });
  });

  it('grades the stages before too with previous', () => {
    const scripts = JSON.parse(
      courseManifest(own, { ...options, stage: stage('register-tools'), previous: true }),
    ).scripts;
    expect(scripts.watch).toBe('theinference test --stage register-tools --previous --watch');
  });

  it('lists the dependencies in the order npm writes them', () => {
    const text = courseManifest(own, { ...options, spec: 'github:acme/theinference', stage: stage('agent-loop') });
    expect(text.indexOf('"@types/node"')).toBeLessThan(text.indexOf('"theinference"'));
    expect(text.indexOf('"theinference"')).toBeLessThan(text.indexOf('"typescript"'));
    expect(text.endsWith('}\n')).toBe(true);
  });
});

describe('upgradedManifest', () => {
  const own = { dependencies: { 'fast-glob': '^3.3.3', '@anthropic-ai/sdk': '^1.14.0' } };
  const course = {
    name: 'mine',
    type: 'module',
    scripts: { test: 'theinference test --stage agent-loop', lint: 'eslint .' },
    dependencies: { '@anthropic-ai/sdk': '^1.2.0', zod: '^3' },
    devDependencies: { theinference: 'file:../t.tgz' },
  };

  it("grades the new stage, adds what it imports, and keeps the student's own settings and versions", () => {
    const text = upgradedManifest(JSON.stringify(course), own, { stage: stage('register-tools'), previous: true });
    expect(JSON.parse(text!)).toEqual({
      ...course,
      scripts: {
        test: 'theinference test --stage register-tools --previous',
        lint: 'eslint .',
        watch: 'theinference test --stage register-tools --previous --watch',
      },
      dependencies: { '@anthropic-ai/sdk': '^1.2.0', 'fast-glob': '^3.3.3', zod: '^3' },
    });
  });

  it('is undefined for a package.json that is not a course one', () => {
    const grading = { stage: stage('register-tools'), previous: false };
    expect(upgradedManifest('{ "name": "x" }', own, grading)).toBeUndefined();
    expect(upgradedManifest('not json', own, grading)).toBeUndefined();
  });
});

it('every stage names packages its code imports that theinference depends on itself', async () => {
  const own = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const s of STAGES)
    for (const name of s.dependencies) expect(own.dependencies[name], `${s.slug}: ${name}`).toBeDefined();
  const dir = join(REPO, 'src', 'tools');
  const imported = new Set<string>();
  for (const file of await readdir(dir)) {
    const source = await readFile(join(dir, file), 'utf8');
    for (const [, name] of source.matchAll(/from '([^'.][^']*)'/g)) if (!name!.startsWith('node:')) imported.add(name!);
  }
  expect([...imported].sort()).toEqual([...stage('register-tools').dependencies].sort());
  const loop = await readFile(join(REPO, 'src', 'modes', 'loop', 'driver.ts'), 'utf8');
  expect(loop).toContain(`await import('${stage('agent-loop').dependencies[0]}')`);
});

// What init writes, file by file: the course's own files byte for byte, a package.json that names what the
// tools import, and a stub that is the template's.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { courseFiles, courseManifest, TEMPLATE_STAGE, TOOL_DEPENDENCIES } from '../../src/course/scaffold-course.ts';
import { listStages } from '../../src/course/stages.ts';
import { REPO } from '../support/reference-course.ts';

describe('courseFiles', () => {
  it("copies program.ts and every tool of src/tools/ unchanged, and the template's files", async () => {
    const files = await courseFiles(REPO, { dir: '/x/my-course', spec: 'file:../t.tgz' });
    const text = (path: string) => files.find((f) => f.path === path)?.text;
    expect(text('program.ts')).toBe(await readFile(join(REPO, 'program.ts'), 'utf8'));
    const tools = (await readdir(join(REPO, 'src', 'tools'))).filter((f) => f.endsWith('.ts'));
    for (const tool of tools)
      expect(text(`src/tools/${tool}`), tool).toBe(await readFile(join(REPO, 'src', 'tools', tool), 'utf8'));
    expect(text('src/execute.ts')).toBe(await readFile(join(REPO, 'course-template', 'src', 'execute.ts'), 'utf8'));
    expect(text('.gitignore')).toBe('node_modules/\n');
    expect(files.map((f) => f.path)).toEqual([
      'package.json',
      'tsconfig.json',
      '.gitignore',
      'program.ts',
      ...tools.sort().map((t) => `src/tools/${t}`),
      'src/execute.ts',
    ]);
  });
});

describe('courseManifest', () => {
  const own = {
    engines: { node: '>=20.6' },
    dependencies: { 'fast-glob': '^3.3.3', chalk: '^5' },
    devDependencies: { '@types/node': '^20', typescript: '~5.9.3' },
  };

  it('is an ES module package with the grading scripts, the tools dependencies and theinference from the spec', () => {
    expect(JSON.parse(courseManifest(own, { dir: '/home/me/My Course', spec: 'file:../t.tgz' }))).toEqual({
      name: 'my-course',
      private: true,
      type: 'module',
      scripts: {
        test: `theinference test --stage ${TEMPLATE_STAGE}`,
        watch: `theinference test --stage ${TEMPLATE_STAGE} --watch`,
        typecheck: 'tsc --noEmit',
      },
      engines: { node: '>=20.6' },
      dependencies: { 'fast-glob': '^3.3.3' },
      devDependencies: { '@types/node': '^20', theinference: 'file:../t.tgz', typescript: '~5.9.3' },
    });
  });

  it('lists the dependencies in the order npm writes them', () => {
    const text = courseManifest(own, { dir: '/c', spec: 'github:acme/theinference' });
    expect(text.indexOf('"@types/node"')).toBeLessThan(text.indexOf('"theinference"'));
    expect(text.indexOf('"theinference"')).toBeLessThan(text.indexOf('"typescript"'));
    expect(text.endsWith('}\n')).toBe(true);
  });
});

it('TOOL_DEPENDENCIES names every package the reference tools import, and theinference depends on each', async () => {
  const dir = join(REPO, 'src', 'tools');
  const imported = new Set<string>();
  for (const file of await readdir(dir)) {
    const source = await readFile(join(dir, file), 'utf8');
    for (const [, name] of source.matchAll(/from '([^'.][^']*)'/g)) if (!name!.startsWith('node:')) imported.add(name!);
  }
  expect([...imported].sort()).toEqual([...TOOL_DEPENDENCIES].sort());
  const own = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of TOOL_DEPENDENCIES) expect(own.dependencies[name], name).toBeDefined();
});

it("the template's stage is one the package grades", async () => {
  expect((await listStages(REPO)).map((s) => s.slug)).toContain(TEMPLATE_STAGE);
});

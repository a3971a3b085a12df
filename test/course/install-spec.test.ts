// Where a new course gets theinference from: the running copy's own install line, rebased; never a bare name.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  answerKeyWarning,
  checked,
  installedFrom,
  installLineKind,
  installSpec,
  rebase,
} from '../../src/course/install-spec.ts';
import { HarnessError } from '../../src/errors.ts';
import { STAGES } from '../../src/course/stages.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-install-spec-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// A package installed under `project`, whose package.json lists it as `spec` (or not at all).
async function installed(project: string, spec?: string): Promise<string> {
  const pkg = join(project, 'node_modules', 'theinference');
  await mkdir(pkg, { recursive: true });
  if (spec !== undefined)
    await writeFile(join(project, 'package.json'), JSON.stringify({ dependencies: { theinference: spec } }));
  return pkg;
}

describe('installedFrom', () => {
  it("reads the spec npx wrote into its cache project's package.json", async () => {
    const project = join(root, '_npx', '0123abcd');
    const pkg = await installed(project, 'file:../../../theinference-0.1.0.tgz');
    expect(installedFrom(pkg)).toEqual({
      spec: 'file:../../../theinference-0.1.0.tgz',
      base: project,
      file: join(project, 'package.json'),
    });
  });

  it('reads a devDependency of the project that installed it', async () => {
    const project = join(root, 'course');
    const pkg = join(project, 'node_modules', 'theinference');
    await mkdir(pkg, { recursive: true });
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ devDependencies: { theinference: 'github:acme/theinference#v0.1.0' } }),
    );
    expect(installedFrom(pkg)?.spec).toBe('github:acme/theinference#v0.1.0');
  });

  it('is a git checkout of theinference itself when it has a .git', async () => {
    await mkdir(join(root, '.git'));
    expect(installedFrom(root)).toEqual({ spec: `file:${root}`, base: root, file: root });
  });

  it.each([
    ['installed where no package.json names it (a global install)', async () => installed(join(root, 'lib'))],
    ['neither installed nor a checkout', async () => root],
  ])('knows nothing when %s', async (_, make) => {
    expect(installedFrom(await make())).toBeUndefined();
  });
});

describe('checked', () => {
  it.each([
    'git+https://example.com/acme/theinference.git#v0.1.0',
    'git+ssh://git@example.com/acme/theinference.git',
    'github:acme/theinference#v0.1.0',
    'acme/theinference#v0.1.0',
    'https://example.com/theinference-0.1.0.tgz',
    'file:../theinference-0.1.0.tgz',
    './theinference-0.1.0.tgz',
    '../theinference',
    '/srv/theinference-0.1.0.tgz',
  ])('keeps %s', (spec) => {
    expect(checked(spec, '--from')).toBe(spec);
  });

  it.each(['theinference', 'theinference@0.1.0', '^0.1.0', 'latest', 'npm:theinference@0.1.0'])(
    'refuses %s: npm would ask the public registry',
    (spec) => {
      expect(() => checked(spec, '--from')).toThrow(/would make npm fetch theinference from the public registry/);
    },
  );
});

describe('rebase', () => {
  it("turns a path into one from the course directory, as npm reads a package.json's paths", async () => {
    await writeFile(join(root, 'theinference-0.1.0.tgz'), '');
    expect(rebase('./theinference-0.1.0.tgz', root, join(root, 'courses', 'mine'))).toBe(
      'file:../../theinference-0.1.0.tgz',
    );
    expect(rebase(`file:${root}/theinference-0.1.0.tgz`, '/elsewhere', root)).toBe('file:theinference-0.1.0.tgz');
  });

  it('leaves a git URL alone', () => {
    expect(rebase('github:acme/theinference', root, '/x')).toBe('github:acme/theinference');
  });

  it('refuses a path to nothing', () => {
    expect(() => rebase('./missing.tgz', root, root)).toThrow(/missing\.tgz does not exist/);
  });
});

describe('installSpec', () => {
  it('takes --from from the working directory and rebases it onto the course directory', async () => {
    await writeFile(join(root, 'theinference-0.1.0.tgz'), '');
    const spec = installSpec({
      root: '/unused',
      cwd: root,
      courseDir: join(root, 'new'),
      from: './theinference-0.1.0.tgz',
    });
    expect(spec).toBe('file:../theinference-0.1.0.tgz');
  });

  it("rebases npx's spec from its cache project onto the course directory", async () => {
    await writeFile(join(root, 'theinference-0.1.0.tgz'), '');
    const pkg = await installed(join(root, 'cache', '_npx', 'ab12'), 'file:../../../theinference-0.1.0.tgz');
    expect(installSpec({ root: pkg, cwd: '/', courseDir: join(root, 'course') })).toBe(
      'file:../theinference-0.1.0.tgz',
    );
  });

  it('refuses a registry range found in the installing project, and says to pass --from', async () => {
    const pkg = await installed(join(root, 'p'), '^0.1.0');
    expect(() => installSpec({ root: pkg, cwd: root, courseDir: root })).toThrow(HarnessError);
    expect(() => installSpec({ root: pkg, cwd: root, courseDir: root })).toThrow(
      /'\^0\.1\.0' \(.*package\.json\) would make npm fetch/,
    );
  });

  it('says to pass --from when it cannot tell', async () => {
    const pkg = await installed(join(root, 'lib'));
    expect(() => installSpec({ root: pkg, cwd: root, courseDir: root })).toThrow(
      /cannot tell where this theinference .* was installed from.*--from/,
    );
  });
});

describe('the answer key by install line', () => {
  // A course repository's checkout (it has the reference), a packed package unpacked (it has not) and a tarball.
  beforeEach(async () => {
    await mkdir(join(root, 'course-repo', 'src'), { recursive: true });
    await writeFile(join(root, 'course-repo', 'src', 'execute.ts'), '// the reference\n');
    await mkdir(join(root, 'packed', 'src'), { recursive: true });
    await writeFile(join(root, 'theinference-0.1.0.tgz'), '');
    await mkdir(join(root, 'course'));
  });

  it.each<[string, 'git' | 'checkout' | 'package']>([
    ['git+https://github.com/acme/theinference.git#v0.1.0', 'git'],
    ['git+ssh://git@example.com/acme/theinference.git', 'git'],
    ['git://example.com/acme/theinference.git', 'git'],
    ['github:acme/theinference#v0.1.0', 'git'],
    ['gitlab:acme/theinference', 'git'],
    ['acme/theinference#v0.1.0', 'git'],
    ['https://github.com/acme/theinference', 'git'],
    ['https://github.com/acme/theinference.git#v0.1.0', 'git'],
    ['https://github.com/acme/theinference/releases/download/v0.1.0/theinference-0.1.0.tgz', 'package'],
    ['https://example.com/theinference-0.1.0.tgz', 'package'],
    ['file:../theinference-0.1.0.tgz', 'package'],
    ['file:../packed', 'package'],
    ['file:../course-repo', 'checkout'],
    ['../course-repo', 'checkout'],
  ])('%s is a %s', (spec, kind) => {
    expect(installLineKind(spec, join(root, 'course'))).toBe(kind);
  });

  it.each(STAGES.map((s) => [s.writes[0]!] as const))(
    'a directory holding the reference %s is a checkout',
    async (file) => {
      const dir = join(root, 'any-repo');
      await mkdir(join(dir, 'src'), { recursive: true });
      await writeFile(join(dir, file), '// the reference\n');
      expect(installLineKind('file:../any-repo', join(root, 'course'))).toBe('checkout');
    },
  );

  it('warns of a git line, naming it, the reference and how to publish instead', () => {
    const warning = answerKeyWarning('git+https://github.com/acme/theinference.git#v0.1.0', join(root, 'course'));
    expect(warning).toBe(
      `the install line git+https://github.com/acme/theinference.git#v0.1.0 names a git repository: npm installs only the package's files from it, but whoever can install from it can clone it whole, and the course repository holds the reference solutions (${STAGES.flatMap((s) => s.writes).join(', ')}). That is fine for the course staff; students must never get it. Give students a tarball made by \`npm pack\` (a path or an https URL to it), or a tag of a repository that holds only the packed package (docs/course.md, "Giving students the package").`,
    );
  });

  it('says nothing of a tarball', () => {
    expect(answerKeyWarning('file:../theinference-0.1.0.tgz', join(root, 'course'))).toBeUndefined();
  });
});

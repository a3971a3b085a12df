// The copy of the grader's install a program run as nobody reads where nobody cannot reach the install: only the
// runtime packages and the package files asked for (never the snapshots or the reference), modes every user may
// read and only its maker may change, reused while unchanged, made again over a half copy, a planted one or a link,
// and no temp dir left behind.
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMPLETE_MARK, type InstallSource, placeInstall } from '../../../../src/grade/run/isolation/place-install.ts';
import { useScratch } from '../../course-fixture.ts';

const scratch = useScratch();
const AS_ROOT = process.getuid?.() === 0;

let source: InstallSource;
let base: string;

// An install as npm makes it in a course directory: node_modules with the grader package in it, its snapshots and
// reference beside the driver, a runtime package with an executable binary, npm's .bin, and a package linked in.
beforeEach(async () => {
  const at = await mkdtemp(join(scratch.root, 'install-'));
  const modules = join(at, 'course', 'node_modules');
  const root = join(modules, 'theinference');
  const files: Record<string, string> = {
    'theinference/package.json': '{ "name": "theinference", "version": "1.2.3" }\n',
    'theinference/src/modes/driver.ts': 'driver\n',
    'theinference/src/modes/dispatch/driver.ts': 'dispatch\n',
    'theinference/src/course/stages.ts': 'stages\n',
    'theinference/src/execute.ts': 'the reference\n',
    'theinference/snapshots/register-tools/a.json': '{}\n',
    'tsx/package.json': '{ "name": "tsx" }\n',
    'tsx/dist/esm/index.mjs': 'tsx\n',
    '@esbuild/linux-x64/bin/esbuild': 'binary\n',
    '.bin/tsx': 'bin\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(modules, path, '..'), { recursive: true });
    await writeFile(join(modules, path), text);
  }
  await chmod(join(modules, '@esbuild/linux-x64/bin/esbuild'), 0o700);
  await chmod(join(modules, 'tsx/package.json'), 0o600);
  await mkdir(join(at, 'linked'));
  await writeFile(join(at, 'linked', 'index.js'), 'linked\n');
  await symlink(join(at, 'linked'), join(modules, 'fast-glob'));
  await chmod(at, 0o700);
  source = { packageRoot: root, modules, files: [join(root, 'src/modes'), join(root, 'src/course/stages.ts')] };
  base = await mkdtemp(join(scratch.root, 'base-'));
});

// Every path under `dir` with its mode, as `path mode`.
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const name of (await readdir(at)).sort()) {
      const path = join(at, name);
      const stats = await lstat(path);
      out.push(`${relative(dir, path)} ${(stats.mode & 0o7777).toString(8)}`);
      if (stats.isDirectory()) await walk(path);
    }
  };
  await walk(dir);
  return out;
}

async function place(): Promise<{ root: string; modules: string; at: string }> {
  const placed = await placeInstall(source, base);
  if ('error' in placed) throw new Error(placed.error);
  return { ...placed, at: join(placed.modules, '..') };
}

describe('placeInstall', () => {
  it('copies the runtime packages and only the asked-for package files, readable by all, and leaves no temp dir', async () => {
    const { root, modules, at } = await place();
    expect(root).toBe(join(modules, 'theinference'));
    expect(await readdir(base)).toEqual([relative(base, at)]);
    expect(relative(base, at)).toMatch(/^theinference-install-[0-9a-f]{16}$/);
    expect(await tree(at)).toEqual([
      `${COMPLETE_MARK} 644`,
      'node_modules 755',
      'node_modules/@esbuild 755',
      'node_modules/@esbuild/linux-x64 755',
      'node_modules/@esbuild/linux-x64/bin 755',
      'node_modules/@esbuild/linux-x64/bin/esbuild 755',
      'node_modules/fast-glob 755',
      'node_modules/fast-glob/index.js 644',
      'node_modules/theinference 755',
      'node_modules/theinference/package.json 644',
      'node_modules/theinference/src 755',
      'node_modules/theinference/src/course 755',
      'node_modules/theinference/src/course/stages.ts 644',
      'node_modules/theinference/src/modes 755',
      'node_modules/theinference/src/modes/dispatch 755',
      'node_modules/theinference/src/modes/dispatch/driver.ts 644',
      'node_modules/theinference/src/modes/driver.ts 644',
      'node_modules/tsx 755',
      'node_modules/tsx/dist 755',
      'node_modules/tsx/dist/esm 755',
      'node_modules/tsx/dist/esm/index.mjs 644',
      'node_modules/tsx/package.json 644',
    ]);
    expect((await stat(at)).mode & 0o777).toBe(0o755);
    expect(await readFile(join(modules, 'tsx/package.json'), 'utf8')).toBe('{ "name": "tsx" }\n');
  });

  it('reuses a finished copy while the install is unchanged, and makes a new one when it changes', async () => {
    const first = await place();
    const mark = await stat(join(first.at, COMPLETE_MARK));
    const again = await place();
    expect(again).toEqual(first);
    expect((await stat(join(first.at, COMPLETE_MARK))).mtimeMs).toBe(mark.mtimeMs);
    await writeFile(join(source.packageRoot, 'src/modes/driver.ts'), 'driver, changed\n');
    const changed = await place();
    expect(changed.at).not.toBe(first.at);
    expect(await readFile(join(changed.root, 'src/modes/driver.ts'), 'utf8')).toBe('driver, changed\n');
  });

  it('ignores a half-made copy at its path (no completion mark) and makes it again', async () => {
    const { at } = await place();
    await chmod(join(at, COMPLETE_MARK), 0o644);
    await writeFile(join(at, COMPLETE_MARK), '');
    await writeFile(join(at, 'node_modules/tsx/dist/esm/index.mjs'), 'half\n');
    const again = await place();
    expect(again.at).toBe(at);
    expect(await readFile(join(at, 'node_modules/tsx/dist/esm/index.mjs'), 'utf8')).toBe('tsx\n');
    expect(await readdir(base)).toEqual([relative(base, at)]);
  });

  it('refuses a copy others may write, and a link planted at its path, and makes its own', async () => {
    const { at } = await place();
    await chmod(at, 0o777);
    expect(((await stat((await place()).at)).mode & 0o777).toString(8)).toBe('755');
    const elsewhere = await mkdtemp(join(scratch.root, 'elsewhere-'));
    await writeFile(join(elsewhere, 'kept'), 'kept\n');
    await rm(at, { recursive: true });
    await symlink(elsewhere, at);
    const again = await place();
    expect((await lstat(again.at)).isDirectory()).toBe(true);
    expect(await readdir(elsewhere)).toEqual(['kept']);
  });

  it.runIf(AS_ROOT)("refuses a copy nobody planted at its path, mark and all, and makes root's own", async () => {
    const { at } = await place();
    const mark = await readFile(join(at, COMPLETE_MARK), 'utf8');
    await rm(at, { recursive: true });
    // What nobody could make in /tmp: the name, a mark that matches, a driver of its own.
    await mkdir(join(at, 'node_modules/theinference/src/modes'), { recursive: true });
    await writeFile(join(at, COMPLETE_MARK), mark);
    await writeFile(join(at, 'node_modules/theinference/src/modes/driver.ts'), 'planted\n');
    for (const path of [at, join(at, COMPLETE_MARK), join(at, 'node_modules')]) await chown(path, 65534, 65534);
    const again = await place();
    expect(again.at).toBe(at);
    expect((await stat(at)).uid).toBe(0);
    expect(await readFile(join(again.root, 'src/modes/driver.ts'), 'utf8')).toBe('driver\n');
  });

  it('says why there is no copy when the install cannot be read, and leaves no temp dir', async () => {
    const placed = await placeInstall({ ...source, files: [join(source.packageRoot, 'src/missing.ts')] }, base);
    expect(placed).toEqual({ error: expect.stringMatching(/^the grader cannot read its own install to copy it: /) });
    const outside = await placeInstall({ ...source, files: [join(source.modules, 'tsx/package.json')] }, base);
    expect(outside).toEqual({ error: expect.stringMatching(/is not inside the package/) });
    const unwritable = await placeInstall(source, join(base, 'missing'));
    expect(unwritable).toEqual({
      error: expect.stringMatching(/^the grader could not place a copy of its install in /),
    });
    expect(await readdir(base)).toEqual([]);
  });
});

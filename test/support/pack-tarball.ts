// The package as a student gets it: `npm pack` of this repository's files into `root`, with this checkout's dist/
// when it is as new as every source (bin/find-cli.js's own test), else with a dist/ built for the purpose by
// `prepare`. And the environment of a student's shell to run npm and npx in.
import { cp, mkdir, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { REPO } from './reference-course.ts';
// @ts-expect-error: plain JavaScript (it runs before tsx is registered), no declarations.
import { findCli } from '../../bin/find-cli.js';

// npm resolves the course's dependency ranges: from its cache when it has them (`npm ci` filled it with the very
// packages the lock file pins), from the registry when not.
export const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

// The environment of a student's shell: where npm gets packages from is kept; what `npm test` set for this
// repository's own scripts (its package, its prefix, its lifecycle) is not.
export function studentEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|userconfig|globalconfig|registry|cafile|noproxy|https?_proxy|proxy)$/i;
  // Nor is CI: a student's terminal is no CI job (the suite itself runs in one), and the grader speaks to each.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== 'CI' && (!/^npm_/i.test(k) || keep.test(k))),
  );
  return { ...env, NO_COLOR: '1' };
}

// Runs a command as the student would, never throwing on a non-zero exit.
export const runAsStudent = (file: string, args: string[], cwd: string) =>
  execa(file, args, { cwd, env: studentEnv(), extendEnv: false, reject: false });

// The tarball's path, packed into `root`.
export async function packTarball(root: string): Promise<string> {
  const listed = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: REPO,
    env: studentEnv(),
    extendEnv: false,
  });
  const files = (JSON.parse(listed.stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
  const fresh = !(findCli(REPO) as { needsTsx: boolean }).needsTsx;
  const staging = join(root, 'staging');
  for (const file of [...files.filter((f) => fresh || !f.startsWith('dist/')), 'tsconfig.build.json']) {
    await mkdir(dirname(join(staging, file)), { recursive: true });
    await cp(join(REPO, file), join(staging, file));
  }
  await symlink(join(REPO, 'node_modules'), join(staging, 'node_modules'), 'dir');
  const args = ['pack', '--json', '--pack-destination', root, ...(fresh ? ['--ignore-scripts'] : [])];
  const packed = await execa('npm', args, { cwd: staging, env: studentEnv(), extendEnv: false });
  return join(
    root,
    (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string }])[0].filename,
  );
}

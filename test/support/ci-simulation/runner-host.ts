// The machine a simulated CI job runs on. Hand-written because no local runner for these CI systems installs here
// without Docker or the network (act, gitlab-runner, Jenkins and Gradescope's images all need one or both); a
// recipe's own text is executed instead, as its CI system would. Everything runs for real but what would change the
// machine: steps that install OS packages or set kernel knobs (`apt-get`, `sudo`, `sysctl -w`) meet shims first on
// PATH that check the package is already present (exit 100, as apt-get does, when it is not) and record that they
// were asked. One more shim stands in for time alone: `npm ci` in a directory whose package.json, lock file and src/
// match one this run already installed for real gets that install (node_modules linked file by file, dist/ copied),
// as a second real one costs a minute or two on a busy 2-core machine; the first always runs. npm runs offline
// (`npm_config_offline`), from the cache the repository's own `npm ci` filled: no registry is ever reached.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import fg from 'fast-glob';
import { REPO } from '../reference-course.ts';

// What a shim was asked, one line each (`apt-get install -y -qq bubblewrap`).
export const ASKED_LOG = 'shims-asked.log';

const NPM = join(dirname(process.execPath), 'npm');

const SHIMS: Record<string, string> = {
  npm: `#!/bin/sh
[ "$1" = ci ] || exec ${NPM} "$@"
key=$( (cat package.json package-lock.json; find src -type f | LC_ALL=C sort | xargs cat) | sha1sum | cut -c1-16)
memo="$NPM_CI_MEMO/$key"
if [ -d "$memo" ]; then
  echo "npm ci shim: node_modules and dist/ as this run's first npm ci of this course installed them"
  rm -rf node_modules dist
  cp -al "$memo/node_modules" node_modules && { [ ! -d "$memo/dist" ] || cp -a "$memo/dist" dist; }
  exit
fi
${NPM} "$@" || exit
mkdir -p "$memo.partial" && cp -al node_modules "$memo.partial/" && { [ ! -d dist ] || cp -a dist "$memo.partial/"; } &&
  mv "$memo.partial" "$memo"
`,
  sudo: '#!/bin/sh\necho "sudo $*" >>"$SHIMS_LOG"\nexec "$@"\n',
  'apt-get': `#!/bin/sh
echo "apt-get $*" >>"$SHIMS_LOG"
[ "$1" = install ] || exit 0
shift
for p in "$@"; do
  case "$p" in -*) continue ;; esac
  dpkg -s "$p" >/dev/null 2>&1 || { echo "apt-get shim: $p is not installed on this machine" >&2; exit 100; }
done
`,
  sysctl: `#!/bin/sh
echo "sysctl $*" >>"$SHIMS_LOG"
[ "$1" = -w ] && exit 0
exec /usr/sbin/sysctl "$@"
`,
};

// A runner's machine under `root`: the shims, and the environment every job's shell starts from.
export type Host = { root: string; env: Record<string, string>; asked: () => Promise<string[]> };

// `memo` holds the installs the npm shim keeps, shared by the hosts of one run.
export async function makeHost(root: string, memo: string): Promise<Host> {
  // Passable by every user: a grader run as root starts the program under test as nobody.
  await chmod(root, 0o755);
  const shims = join(root, 'shims');
  await mkdir(shims, { recursive: true });
  for (const [name, text] of Object.entries(SHIMS)) {
    await writeFile(join(shims, name), text);
    await chmod(join(shims, name), 0o755);
  }
  const log = join(root, ASKED_LOG);
  await writeFile(log, '');
  const env = {
    PATH: [shims, dirname(process.execPath), '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'].join(':'),
    HOME: process.env.HOME ?? homedir(),
    LANG: 'C.UTF-8',
    SHIMS_LOG: log,
    NPM_CI_MEMO: memo,
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
  const asked = async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  return { root, env, asked };
}

// What one shell step did.
export type Ran = { exitCode: number; output: string };

// Runs `script` as `shell` (its argv before the script's file) in `cwd`, stdout and stderr interleaved as a log.
export async function runScript(
  shell: string[],
  script: string,
  cwd: string,
  env: Record<string, string>,
  file: string,
): Promise<Ran> {
  await writeFile(file, script);
  const [command, ...args] = shell as [string, ...string[]];
  const ran = await execa(command, [...args, file], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
    all: true,
    timeout: 300_000,
  });
  return { exitCode: ran.exitCode ?? -1, output: ran.all ?? '' };
}

// This repository as `git clone` gives it, with what is not yet committed: the course repository a job checks out.
export async function copyRepository(to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  await execa(
    'bash',
    [
      '-o',
      'pipefail',
      '-c',
      'git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$1"',
      '-',
      to,
    ],
    { cwd: REPO },
  );
}

// The JUnit files `pattern` matches under `cwd`, each parsed, as a CI's JUnit reader fails on none or a bad one.
export async function readJunit(cwd: string, pattern: string): Promise<{ file: string; suites: unknown[] }[]> {
  const files = await fg(pattern, { cwd, onlyFiles: true });
  if (files.length === 0) throw new Error(`JUnit reader: no file matches ${pattern} in ${cwd}`);
  const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testsuite' });
  return Promise.all(
    files.sort().map(async (file) => {
      const xml = parser.parse(await readFile(join(cwd, file), 'utf8')) as {
        testsuites?: { testsuite?: unknown[] };
        testsuite?: unknown[];
      };
      const suites = xml.testsuites?.testsuite ?? xml.testsuite ?? [];
      if (suites.length === 0) throw new Error(`JUnit reader: ${file} holds no <testsuite>`);
      return { file, suites };
    }),
  );
}

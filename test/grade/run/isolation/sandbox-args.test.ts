// What a program process sees in the sandbox, decided from its layout alone: every namespace and no capability,
// the course read-only, the grader package hidden but for what the process runs (its snapshots never visible,
// wherever it is installed), an empty TMPDIR, and no host directory it can write (not even a tsx cache).
import { describe, expect, it } from 'vitest';
import { hiddenPaths, sandboxArgs, type SandboxLayout } from '../../../../src/grade/run/isolation/sandbox-args.ts';

const SYSTEM = { symlinks: [{ target: 'usr/bin', path: '/bin' }], readOnly: ['/usr', '/etc/passwd'] };
const layout = (over: Partial<SandboxLayout>): SandboxLayout => ({
  dir: '/home/me/course',
  packageRoot: '/opt/grader',
  readOnly: ['/opt/grader/node_modules'],
  packageFiles: ['/opt/grader/package.json', '/opt/grader/dist/grade/run/standby.js'],
  system: SYSTEM,
  tmp: '/tmp/theinference-run-1/tmp',
  tmpBytes: 1024,
  ...over,
});

// The mount operations in order, one string each ("ro-bind /usr"), and the other options.
function operations(args: string[]): string[] {
  const ops: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (['--ro-bind', '--bind', '--ro-bind-fd', '--bind-fd', '--dev-bind', '--symlink'].includes(arg)) {
      ops.push(`${arg.slice(2)} ${args[i + 1]} ${args[i + 2]}`);
      i += 2;
    } else if (
      ['--tmpfs', '--remount-ro', '--proc', '--dev', '--chdir', '--size', '--cap-drop', '--uid', '--gid'].includes(arg)
    ) {
      ops.push(`${arg.slice(2)} ${args[i + 1]}`);
      i += 1;
    } else ops.push(arg.slice(2));
  }
  return ops;
}

describe('sandboxArgs', () => {
  it('unshares every namespace, drops every capability and dies with the grader', () => {
    const ops = operations(sandboxArgs(layout({})));
    expect(ops.slice(0, 5)).toEqual([
      'unshare-all',
      'unshare-user',
      'disable-userns',
      'cap-drop ALL',
      'die-with-parent',
    ]);
    expect(ops).not.toContain('share-net');
    expect(ops).toContain('proc /proc');
  });

  it('binds the system, the course and the grader files it runs read-only; the TMPDIR is a sized tmpfs, and nothing is writable', () => {
    const ops = operations(sandboxArgs(layout({})));
    expect(ops.filter((o) => /^(ro-bind|bind|symlink|tmpfs|size|remount-ro|chdir) /.test(o))).toEqual([
      'symlink usr/bin /bin',
      'ro-bind /usr /usr',
      'ro-bind /etc/passwd /etc/passwd',
      'ro-bind /opt/grader/node_modules /opt/grader/node_modules',
      'ro-bind /home/me/course /home/me/course',
      'ro-bind /opt/grader/package.json /opt/grader/package.json',
      'ro-bind /opt/grader/dist/grade/run/standby.js /opt/grader/dist/grade/run/standby.js',
      'size 1024',
      'tmpfs /tmp/theinference-run-1/tmp',
      'remount-ro /dev',
      'remount-ro /',
      'chdir /home/me/course',
    ]);
    expect(ops.filter((o) => /^(bind|bind-fd|dev-bind) /.test(o))).toEqual([]);
  });

  it('hides a grader installed in the course, snapshots and sources alike, and brings back only what it runs', () => {
    const root = '/home/me/course/node_modules/theinference';
    const args = sandboxArgs(
      layout({
        packageRoot: root,
        readOnly: [],
        packageFiles: [`${root}/package.json`, `${root}/dist/grade/run/standby.js`],
      }),
    );
    const ops = operations(args);
    const from = ops.indexOf(`tmpfs ${root}`);
    expect(from).toBeGreaterThan(ops.indexOf('ro-bind /home/me/course /home/me/course'));
    expect(ops.slice(from, from + 4)).toEqual([
      `tmpfs ${root}`,
      `ro-bind ${root}/package.json ${root}/package.json`,
      `ro-bind ${root}/dist/grade/run/standby.js ${root}/dist/grade/run/standby.js`,
      `remount-ro ${root}`,
    ]);
  });

  it('hides a grader installed where the system is bound (a global install) and brings back its node_modules', () => {
    const root = '/usr/lib/node_modules/theinference';
    const ops = operations(
      sandboxArgs(
        layout({ packageRoot: root, readOnly: [`${root}/node_modules`], packageFiles: [`${root}/package.json`] }),
      ),
    );
    const from = ops.indexOf(`tmpfs ${root}`);
    expect(ops.slice(from, from + 4)).toEqual([
      `tmpfs ${root}`,
      `ro-bind ${root}/package.json ${root}/package.json`,
      `ro-bind ${root}/node_modules ${root}/node_modules`,
      `remount-ro ${root}`,
    ]);
  });
});

describe('sandboxArgs with a staged submission', () => {
  const staged = (over: Partial<SandboxLayout>): string[] =>
    operations(
      sandboxArgs(
        layout({
          stage: { copy: '/tmp/theinference-stage-1', modules: '/opt/grader/node_modules' },
          ...over,
        }),
      ),
    ).filter((o) => /^(ro-bind|bind|tmpfs|remount-ro) /.test(o));

  it("shows the grader's copy at the submission's path, with the grader's runtime packages as its node_modules", () => {
    expect(staged({})).toEqual([
      'ro-bind /usr /usr',
      'ro-bind /etc/passwd /etc/passwd',
      'ro-bind /opt/grader/node_modules /opt/grader/node_modules',
      'ro-bind /tmp/theinference-stage-1 /home/me/course',
      'ro-bind /opt/grader/node_modules /home/me/course/node_modules',
      'ro-bind /opt/grader/package.json /opt/grader/package.json',
      'ro-bind /opt/grader/dist/grade/run/standby.js /opt/grader/dist/grade/run/standby.js',
      'tmpfs /tmp/theinference-run-1/tmp',
      'remount-ro /dev',
      'remount-ro /',
    ]);
  });

  it('run as another user, is uid 0 inside, and binds the same, read-only', () => {
    const ops = operations(
      sandboxArgs(
        layout({
          stage: { copy: '/tmp/theinference-stage-1', modules: '/opt/grader/node_modules' },
          unprivileged: true,
        }),
      ),
    );
    expect(ops).toContain('ro-bind /tmp/theinference-stage-1 /home/me/course');
    expect(ops).toEqual(expect.arrayContaining(['uid 0', 'gid 0']));
    expect(ops.filter((o) => /^(bind|bind-fd|dev-bind) /.test(o))).toEqual([]);
  });

  it('hides a grader installed separately (a CI job) wherever its node_modules is shown, bringing back what it runs where it is', () => {
    const root = '/opt/job/node_modules/theinference';
    const ops = staged({
      packageRoot: root,
      readOnly: ['/opt/job/node_modules'],
      packageFiles: [`${root}/package.json`, `${root}/dist/grade/run/standby.js`],
      stage: { copy: '/tmp/theinference-stage-1', modules: '/opt/job/node_modules' },
    });
    expect(ops).toEqual([
      'ro-bind /usr /usr',
      'ro-bind /etc/passwd /etc/passwd',
      'ro-bind /opt/job/node_modules /opt/job/node_modules',
      'ro-bind /tmp/theinference-stage-1 /home/me/course',
      'ro-bind /opt/job/node_modules /home/me/course/node_modules',
      `tmpfs ${root}`,
      `ro-bind ${root}/package.json ${root}/package.json`,
      `ro-bind ${root}/dist/grade/run/standby.js ${root}/dist/grade/run/standby.js`,
      `remount-ro ${root}`,
      'tmpfs /home/me/course/node_modules/theinference',
      'remount-ro /home/me/course/node_modules/theinference',
      'tmpfs /tmp/theinference-run-1/tmp',
      'remount-ro /dev',
      'remount-ro /',
    ]);
  });

  it("hides a grader the student installed in the course's own node_modules, which is the grader's install", () => {
    const root = '/home/me/course/node_modules/theinference';
    const ops = staged({
      packageRoot: root,
      readOnly: ['/home/me/course/node_modules'],
      packageFiles: [`${root}/package.json`],
      stage: { copy: '/tmp/theinference-stage-1', modules: '/home/me/course/node_modules' },
    });
    expect(ops).toEqual([
      'ro-bind /usr /usr',
      'ro-bind /etc/passwd /etc/passwd',
      'ro-bind /tmp/theinference-stage-1 /home/me/course',
      'ro-bind /home/me/course/node_modules /home/me/course/node_modules',
      `tmpfs ${root}`,
      `ro-bind ${root}/package.json ${root}/package.json`,
      `remount-ro ${root}`,
      'tmpfs /tmp/theinference-run-1/tmp',
      'remount-ro /dev',
      'remount-ro /',
    ]);
  });
});

describe('hiddenPaths', () => {
  const own = (p: string) => ({ source: p, dest: p });
  it.each<[string, string, string[], string, string[]]>([
    ['a course beside the grader', '/opt/grader', ['/usr', '/opt/grader/node_modules', '/c'], '/c', []],
    [
      'the grader installed in the course',
      '/c/node_modules/theinference',
      ['/usr', '/c'],
      '/c',
      ['/c/node_modules/theinference'],
    ],
    [
      'a workspace whose node_modules holds the grader',
      '/w/node_modules/theinference',
      ['/usr', '/w/node_modules', '/w/c'],
      '/w/c',
      ['/w/node_modules/theinference'],
    ],
    [
      'the reference, in the package root',
      '/opt/grader',
      ['/usr', '/opt/grader'],
      '/opt/grader',
      ['/opt/grader/snapshots'],
    ],
    [
      'the reference in an installed copy',
      '/c/node_modules/theinference',
      ['/usr', '/c/node_modules', '/c/node_modules/theinference'],
      '/c/node_modules/theinference',
      ['/c/node_modules/theinference/snapshots'],
    ],
  ])('%s', (_, root, visible, dir, hidden) => {
    expect(hiddenPaths(root, visible.map(own), { dir }).map((h) => h.path)).toEqual(hidden);
  });
});

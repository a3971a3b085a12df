// The real `theinference test --watch`, driven through piped stdin as a script would: saves re-grade, the
// verdict follows the code, `q` exits with the last verdict, Ctrl-C stops a run in flight, and nothing is left
// behind (no temp file in the grader's TMPDIR, no process: the tools' bash commands included, sandboxed or not).
import { chmod, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { isTsxCache, processRunning } from '../../grade/course-fixture.ts';
import { makeCourse, repo, type TestCourse, writeLoopCourse } from './course-dir.ts';

const VERDICT = /^(\d+) passed, (\d+) failed$/m;
// The course page's three examples (a Read, a Bash, a Glob): enough to see a broken Read alias fail, and each
// run takes a fraction of the whole suite's time on a busy machine.
const CASES = 'course-*';
// Several real grading runs each; generous for a loaded 2-core machine (waits below are bounded too).
const E2E_TIMEOUT_MS = 150_000;
let course: TestCourse | undefined;
// How watch mode is started (below): its child's type follows from these options.
type WatchOptions = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: 'pipe';
  detached: true;
  reject: false;
  buffer: false;
};
let watch: ResultPromise<WatchOptions> | undefined;

afterEach(async () => {
  if (watch?.pid !== undefined && watch.exitCode === null) process.kill(-watch.pid, 'SIGKILL');
  await course?.remove();
});

// Starts watch mode on the course in its own process group, collecting stdout.
function startWatch(
  c: TestCourse,
  isolation = 'required',
  env: NodeJS.ProcessEnv = {},
  stage: { slug: string; cases: string } = { slug: 'register-tools', cases: CASES },
): {
  child: ResultPromise<WatchOptions>;
  output: () => string;
  waitFor: (pattern: RegExp, from: number, what: string) => Promise<RegExpExecArray & { end: number }>;
} {
  const args = [
    'test',
    '--stage',
    stage.slug,
    '--watch',
    '--dir',
    c.dir,
    '--case',
    stage.cases,
    '--timeout',
    '60000',
    '--isolation',
    isolation,
  ];
  const options: WatchOptions = {
    cwd: c.dir,
    env: { NO_COLOR: '1', TMPDIR: c.tmp, ...env },
    stdin: 'pipe',
    detached: true,
    reject: false,
    buffer: false,
  };
  const child = execa(process.execPath, [join(repo, 'bin', 'theinference.js'), ...args], options);
  let text = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (text += chunk));
  child.stderr?.resume();
  // The first match of `pattern` at or after offset `from`; a bounded wait, failing with what was printed.
  const waitFor = async (pattern: RegExp, from: number, what: string): Promise<RegExpExecArray & { end: number }> => {
    const global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
    const deadline = Date.now() + 45_000;
    for (;;) {
      global.lastIndex = from;
      const match = global.exec(text);
      if (match !== null) return Object.assign(match, { end: match.index + match[0].length });
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${what} in watch output:\n${text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { child, output: () => text, waitFor };
}

// What a live process is, for a failure message: its state and command line from /proc.
async function describeProcess(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '?');
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '?');
  return `${pid} state=${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]} ${cmdline.split('\0').join(' ')}`;
}

// The live (non-zombie) processes of a process group, described; waits a bounded time for them to go, since a
// helper such as tsx's esbuild service exits on its own only once it sees its parent's pipe close.
async function groupLeft(pgid: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const members: string[] = [];
    for (const entry of await readdir('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(await describeProcess(Number(entry)));
    }
    if (members.length === 0 || Date.now() > deadline) return members;
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The live processes still working in `dir` (warm standbys run there, in process groups of their own).
async function processesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if ((await readlink(`/proc/${entry}/cwd`).catch(() => '')) === dir)
      found.push(await describeProcess(Number(entry)));
  }
  return found;
}

// The temp dir entries a run may leave: none, except the tsx caches kept on purpose (the CLI's own, a course's).
async function leftovers(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((name) => !isTsxCache(name));
}

// What a failing count says when the program did not start, which a save caught half-written can give.
const NOT_STARTED = '(?: \\(not run: your program did not start\\))?';

describe('theinference test --watch', () => {
  it(
    're-grades on save, names the file, tracks the verdict, and exits with it on q',
    async () => {
      course = await makeCourse();
      const executeFile = join(course.dir, 'src', 'execute.ts');
      const reference = await readFile(executeFile, 'utf8');
      const broken = reference.replace(/^\s*case 'Read':\n/m, '');
      expect(broken).not.toBe(reference);
      const w = startWatch(course);
      watch = w.child;

      const first = await w.waitFor(VERDICT, 0, 'first verdict');
      expect(first[2]).toBe('0');
      const total = Number(first[1]);

      await writeFile(executeFile, broken);
      const header = await w.waitFor(
        /^─── \d\d:\d\d:\d\d · src\/execute\.ts changed · grading register-tools \(filter "course-\*"\) ───$/m,
        first.end,
        're-run header naming src/execute.ts',
      );
      const failing = await w.waitFor(VERDICT, header.end, 'failing verdict');
      expect(Number(failing[2])).toBeGreaterThan(0);
      expect(Number(failing[1]) + Number(failing[2])).toBe(total);
      await w.waitFor(
        // A save caught half-written keeps the program from starting, and the change says so (verdict.ts).
        new RegExp(`^verdict changed: all ${total} passed → ${failing[2]} failed${NOT_STARTED}$`, 'm'),
        failing.end,
        'verdict change line',
      );

      await writeFile(executeFile, reference);
      const fixedHeader = await w.waitFor(/· src\/execute\.ts changed ·/, failing.end, 'second re-run header');
      const fixed = await w.waitFor(VERDICT, fixedHeader.end, 'passing verdict');
      expect(fixed[2]).toBe('0');
      await w.waitFor(
        new RegExp(`^verdict changed: ${failing[2]} failed${NOT_STARTED} → all ${total} passed$`, 'm'),
        fixed.end,
        'verdict change line',
      );

      // The same code saved again: a re-run whose verdict is unchanged says so.
      await writeFile(executeFile, reference);
      const again = await w.waitFor(VERDICT, fixed.end, 'verdict after an unchanged save');
      await w.waitFor(
        new RegExp(`^same verdict as last run: all ${total} passed$`, 'm'),
        again.end,
        'same-verdict line',
      );

      w.child.stdin?.write('q\n');
      const result = await w.child;
      expect(result.exitCode).toBe(0);
      expect(await leftovers(course.tmp)).toEqual([]);
      expect(await groupLeft(w.child.pid as number)).toEqual([]);
      expect(await processesIn(course.dir)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    "grades the agent-loop stage the same way: a wrong loop's save fails with the finding's hint, the fix passes",
    async () => {
      course = await makeCourse(writeLoopCourse);
      const loopFile = join(course.dir, 'src', 'agent-loop.ts');
      const reference = await readFile(loopFile, 'utf8');
      const wrong = await readFile(join(repo, 'test', 'fixtures', 'wrong-loop', 'assistant-not-appended.ts'), 'utf8');
      const w = startWatch(course, 'required', {}, { slug: 'agent-loop', cases: '*' });
      watch = w.child;
      const first = await w.waitFor(VERDICT, 0, 'first verdict');
      expect(first[2]).toBe('0');
      const total = Number(first[1]);

      await writeFile(loopFile, wrong);
      const header = await w.waitFor(/· src\/agent-loop\.ts changed · grading agent-loop/, first.end, 're-run header');
      const failing = await w.waitFor(VERDICT, header.end, 'failing verdict');
      expect(failing.slice(1, 3)).toEqual(['0', String(total)]);
      // The probe ran in the watch run too: the one-turn cases are under the same message as the rest.
      const run = w.output().slice(header.end, failing.index);
      expect(run.match(/^ +hint: /gm)).toHaveLength(1);
      expect(run).toContain(`${total - 1} more cases fail the same way`);

      await writeFile(loopFile, reference);
      const fixed = await w.waitFor(VERDICT, failing.end, 'passing verdict');
      expect(fixed[2]).toBe('0');
      w.child.stdin?.write('q\n');
      expect((await w.child).exitCode).toBe(0);
      expect(await leftovers(course.tmp)).toEqual([]);
      expect(await processesIn(course.dir)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'without bubblewrap under auto, every run says the program is not sandboxed (a warning printed before the first run would be cleared off the screen)',
    async () => {
      course = await makeCourse();
      // A PATH with bash (the cases' Bash calls need it) and no bwrap.
      const bin = join(course.root, 'bin-without-bwrap');
      await mkdir(bin);
      // Enterable by every user: a grader run as root runs the program as nobody, which looks bash up here.
      await chmod(course.root, 0o711);
      await symlink('/bin/bash', join(bin, 'bash'));
      const w = startWatch(course, 'auto', { PATH: bin });
      watch = w.child;
      const warning =
        /^warning: the program under test runs without a sandbox: bubblewrap \(bwrap\) is not installed\./m;
      const first = await w.waitFor(VERDICT, 0, 'first verdict');
      expect(w.output().slice(0, first.index)).toMatch(warning);
      const executeFile = join(course.dir, 'src', 'execute.ts');
      await writeFile(executeFile, await readFile(executeFile, 'utf8'));
      const again = await w.waitFor(/· src\/execute\.ts changed ·/, first.end, 're-run header');
      const second = await w.waitFor(VERDICT, again.end, 'second verdict');
      expect(w.output().slice(again.end, second.index)).toMatch(warning);
      w.child.stdin?.write('q\n');
      expect((await w.child).exitCode, w.output()).toBe(0);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'finds a program that cannot start once: one verdict for every case, whichever process failed first',
    async () => {
      course = await makeCourse();
      const executeFile = join(course.dir, 'src', 'execute.ts');
      const w = startWatch(course);
      watch = w.child;
      const first = await w.waitFor(VERDICT, 0, 'first verdict');
      const total = Number(first[1]);

      // Each process throws a message of its own while loading: two processes' failures would be two verdicts.
      await writeFile(
        executeFile,
        await readFile(join(repo, 'test', 'fixtures', 'throws-at-import-randomly', 'src', 'execute.ts'), 'utf8'),
      );
      const header = await w.waitFor(/· src\/execute\.ts changed ·/, first.end, 're-run header');
      const failing = await w.waitFor(VERDICT, header.end, 'failing verdict');
      const run = w.output().slice(header.end, failing.index);
      expect(run.match(/^✗ your program did not start — none of the \d+ cases ran$/gm), run).toEqual([
        `✗ your program did not start — none of the ${total} cases ran`,
      ]);
      expect(
        run.match(/^ {2}hint: your code throws `Error: not ready \(0\.\d+\)` while it is loaded/gm),
        run,
      ).toHaveLength(1);

      w.child.stdin?.write('q\n');
      expect((await w.child).exitCode).toBe(1);
      expect(await leftovers(course.tmp)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  it(
    'an unknown stage is misuse no save can fix: it stops watching and exits 2 saying so',
    async () => {
      course = await makeCourse();
      const result = await execa(
        process.execPath,
        [join(repo, 'bin', 'theinference.js'), 'test', '--stage', 'no-such-stage', '--watch', '--dir', course.dir],
        {
          cwd: course.dir,
          env: { NO_COLOR: '1', TMPDIR: course.tmp },
          stdin: 'pipe',
          reject: false,
          timeout: 60_000,
        },
      );
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain("unknown stage 'no-such-stage'");
      expect(await leftovers(course.tmp)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );

  // Ctrl-C and `q`, sandboxed and not: each stops a run whose every call has started a child in the program's
  // group and is waiting for the reference bash's command, which runs in a process group of its own.
  it.each([
    ['Ctrl-C', 'required', 9876101],
    ['Ctrl-C', 'off', 9876102],
    ['q', 'required', 9876103],
    ['q', 'off', 9876104],
  ] as const)(
    '%s during a run (--isolation %s) kills the program, its children and its bash commands, removes temp dirs, and exits as documented (Ctrl-C 130, q the last verdict)',
    async (stop, isolation, marker) => {
      course = await makeCourse();
      const w = startWatch(course, isolation);
      watch = w.child;
      const first = await w.waitFor(VERDICT, 0, 'first verdict');

      const hanging = [
        `import { spawn } from 'node:child_process';`,
        `import type { Tools } from './tools/index.ts';`,
        `export function makeExecute(tools: Tools) {`,
        `  return async () => {`,
        `    spawn('sleep', ['${marker}'], { stdio: 'ignore' });`,
        `    await tools.bash('sleep ${marker + 1000}');`,
        `    return { content: '' };`,
        `  };`,
        `}`,
        ``,
      ].join('\n');
      await writeFile(join(course.dir, 'src', 'execute.ts'), hanging);
      await w.waitFor(/· src\/execute\.ts changed ·/, first.end, 're-run header');
      const started = Date.now();
      while (!(await processRunning(`sleep ${marker}`)) || !(await processRunning(`sleep ${marker + 1000}`))) {
        if (Date.now() - started > 45_000) throw new Error(`the hanging program never started:\n${w.output()}`);
        await new Promise((r) => setTimeout(r, 20));
      }

      if (stop === 'q') w.child.stdin?.write('q\n');
      else w.child.kill('SIGINT');
      const result = await w.child;
      // Ctrl-C is an interruption (130) whatever the last verdict was; `q` exits with the last verdict: it passed.
      expect(result.exitCode).toBe(stop === 'q' ? 0 : 130);
      expect(w.output().slice(first.end)).not.toMatch(VERDICT);
      expect([await processRunning(`sleep ${marker}`), await processRunning(`sleep ${marker + 1000}`)]).toEqual([
        false,
        false,
      ]);
      expect(await leftovers(course.tmp)).toEqual([]);
      expect(await groupLeft(w.child.pid as number)).toEqual([]);
      expect(await processesIn(course.dir)).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );
});

// The real `theinference test --watch`, driven through piped stdin as a script would: saves re-grade, the
// verdict follows the code, `q` exits with the last verdict, Ctrl-C stops a run in flight, and nothing is left
// behind (no temp file in the grader's TMPDIR, no process).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { makeCourse, repo, type TestCourse } from './course-dir.ts';

const VERDICT = /^(\d+) passed, (\d+) failed$/m;
let course: TestCourse | undefined;
let watch: ResultPromise | undefined;

afterEach(async () => {
  if (watch?.pid !== undefined && watch.exitCode === null) process.kill(-watch.pid, 'SIGKILL');
  await course?.remove();
});

// Starts watch mode on the course in its own process group, collecting stdout.
function startWatch(c: TestCourse): { child: ResultPromise; output: () => string; waitFor: (pattern: RegExp, from: number, what: string) => Promise<RegExpExecArray & { end: number }> } {
  const child = execa(process.execPath, [join(repo, 'bin', 'theinference.js'), 'test', '--stage', 'register-tools', '--watch', '--dir', c.dir, '--timeout', '60000'], {
    cwd: c.dir,
    env: { NO_COLOR: '1', TMPDIR: c.tmp },
    stdin: 'pipe',
    detached: true,
    reject: false,
    buffer: false,
  });
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

// True when no process with this id (or, negated, process group) exists any more.
function gone(id: number): boolean {
  try {
    process.kill(id, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

describe('theinference test --watch', () => {
  it('re-grades on save, names the file, tracks the verdict, and exits with it on q', async () => {
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
    const header = await w.waitFor(/^─── \d\d:\d\d:\d\d · src\/execute\.ts changed · grading register-tools ───$/m, first.end, 're-run header naming src/execute.ts');
    const failing = await w.waitFor(VERDICT, header.end, 'failing verdict');
    expect(Number(failing[2])).toBeGreaterThan(0);
    expect(Number(failing[1]) + Number(failing[2])).toBe(total);
    await w.waitFor(new RegExp(`^verdict changed: all ${total} passed → ${failing[2]} failed$`, 'm'), failing.end, 'verdict change line');

    await writeFile(executeFile, reference);
    const fixedHeader = await w.waitFor(/· src\/execute\.ts changed ·/, failing.end, 'second re-run header');
    const fixed = await w.waitFor(VERDICT, fixedHeader.end, 'passing verdict');
    expect(fixed[2]).toBe('0');
    await w.waitFor(new RegExp(`^verdict changed: ${failing[2]} failed → all ${total} passed$`, 'm'), fixed.end, 'verdict change line');

    // The same code saved again: a re-run whose verdict is unchanged says so.
    await writeFile(executeFile, reference);
    const again = await w.waitFor(VERDICT, fixed.end, 'verdict after an unchanged save');
    await w.waitFor(new RegExp(`^same verdict as last run: all ${total} passed$`, 'm'), again.end, 'same-verdict line');

    w.child.stdin?.write('q\n');
    const result = await w.child;
    expect(result.exitCode).toBe(0);
    expect(await readdir(course.tmp)).toEqual([]);
    expect(gone(-(w.child.pid as number))).toBe(true);
  });

  it('Ctrl-C during a run kills the program and its children, removes temp dirs, and exits with the last verdict', async () => {
    course = await makeCourse();
    const pids = join(course.root, 'pids.txt');
    const w = startWatch(course);
    watch = w.child;
    const first = await w.waitFor(VERDICT, 0, 'first verdict');

    // Every call now starts a child process, records both pids, and hangs: the run stays in flight.
    const hanging = [
      `import { spawn } from 'node:child_process';`,
      `import { appendFileSync } from 'node:fs';`,
      `export function makeExecute() {`,
      `  return async () => {`,
      `    const child = spawn('sleep', ['1000'], { stdio: 'ignore' });`,
      `    appendFileSync(${JSON.stringify(pids)}, process.pid + ' ' + child.pid + '\\n');`,
      `    await new Promise((resolve) => setTimeout(resolve, 600_000));`,
      `    return { content: '' };`,
      `  };`,
      `}`,
      ``,
    ].join('\n');
    await writeFile(join(course.dir, 'src', 'execute.ts'), hanging);
    await w.waitFor(/· src\/execute\.ts changed ·/, first.end, 're-run header');
    const started = Date.now();
    let recorded = '';
    while (recorded.trim() === '') {
      if (Date.now() - started > 45_000) throw new Error(`the hanging program never started:\n${w.output()}`);
      await new Promise((r) => setTimeout(r, 20));
      recorded = await readFile(pids, 'utf8').catch(() => '');
    }

    w.child.kill('SIGINT');
    const result = await w.child;
    expect(result.exitCode).toBe(0);
    expect(w.output().slice(first.end)).not.toMatch(VERDICT);
    // Read again: the other batch's process may have recorded its pids meanwhile.
    const all = (await readFile(pids, 'utf8')).trim().split(/\s+/).map(Number);
    const leftover = all.filter((pid) => !gone(pid));
    expect(leftover).toEqual([]);
    expect(await readdir(course.tmp)).toEqual([]);
    expect(gone(-(w.child.pid as number))).toBe(true);
  });
});

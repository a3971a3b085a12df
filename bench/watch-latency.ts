// Watch mode's save-to-verdict time: the real `theinference test --watch` on a temp copy of the course, and
// the time from rewriting src/execute.ts to the verdict line of the run that save triggered. Under a
// pseudo-terminal (`terminal`, util-linux's `script`: no native module), as a student's watch runs, a failing
// save's first failure is on screen before its verdict: the time to it is measured too. Saves alternate
// between a broken dispatcher (the Read alias missing: some cases fail) and the reference (all pass), so both
// kinds of verdict are measured. Each save comes PAUSE_MS after the previous verdict, as a person's would (the
// grader starts its warm standbys in that time; a save within milliseconds of a verdict would find them still
// starting).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { shellQuote } from '../src/shell-quote.ts';
import { copyCourse, copyPackage } from './course-copy.ts';

// The verdict line every run of the pretty reporter ends its summary with.
const VERDICT = /^(\d+) passed, (\d+) failed$/gm;
// What a terminal shows above the live count as soon as a run's first failure is judged (report/first-failure.ts).
const FIRST_FAILURE = 'first failure, as it came';

// Between a verdict and the next save: far less than a person takes to read a verdict and edit.
const PAUSE_MS = 2000;

// One save: how long until its verdict, whether that verdict was a pass, and, on a terminal, how long until a
// failing save's first failure was on screen.
export type SaveSample = { ms: number; passed: boolean; firstFailureMs?: number };

// Starts watch mode, makes `saves` saves and measures each; leaves no process and no temp dir behind.
export async function measureWatch(options: {
  packageRoot: string;
  stage: string;
  saves: number;
  isolation: string;
  timeoutMs?: number;
  // false: a copy of the package whose driver has its probe switched off (it then grades as a driver without a
  // probe would), to measure what the probe costs side by side.
  probe?: boolean;
  // Only these cases of each stage named (by file name), in a copy of the package: the suite of an earlier commit,
  // to tell what a grown suite costs from what the grader does.
  cases?: ReadonlyMap<string, ReadonlySet<string>>;
  // Under a pseudo-terminal, as a student runs it, rather than with its output piped.
  terminal?: boolean;
  // --jobs, when not watch mode's default.
  jobs?: number;
}): Promise<SaveSample[]> {
  const course = await copyCourse();
  // The driver is the grader's own (src/modes/): the probe is switched off in a copy of the package, never here.
  const copy =
    options.probe === false || options.cases !== undefined
      ? await copyPackage(options.packageRoot, 1, options.cases)
      : undefined;
  if (copy !== undefined && options.probe === false) await withoutProbe(join(copy.dir, 'dist', 'modes', 'driver.js'));
  const packageRoot = copy?.dir ?? options.packageRoot;
  const graderTmp = await mkdtemp(join(tmpdir(), 'theinference-bench-watch-tmp-'));
  const timeoutMs = options.timeoutMs ?? 30_000;
  const executeFile = join(course.dir, 'src', 'execute.ts');
  const reference = await readFile(executeFile, 'utf8');
  const broken = reference.replace(/^\s*case 'Read':\n/m, '');
  if (broken === reference)
    throw new Error("bench: src/execute.ts has no `case 'Read':` line to remove for the broken save");

  const bin = join(packageRoot, 'bin', 'theinference.js');
  const command = [
    process.execPath,
    bin,
    'test',
    '--stage',
    options.stage,
    '--watch',
    '--dir',
    course.dir,
    '--isolation',
    options.isolation,
    ...(options.jobs === undefined ? [] : ['--jobs', String(options.jobs)]),
  ];
  // -e: the command's own exit code; -E never: what the bench types is not echoed back; -q: no banner.
  const [file, args] = options.terminal
    ? ['script', ['-q', '-e', '-E', 'never', '-c', `exec ${command.map(shellQuote).join(' ')}`, '/dev/null']]
    : [command[0] as string, command.slice(1)];
  const child = execa(file, args, {
    cwd: course.dir,
    env: { ...process.env, NO_COLOR: '1', TMPDIR: graderTmp },
    stdin: 'pipe',
    reject: false,
    buffer: false,
  });
  // The screen as lines: a terminal's escapes dropped, and a carriage return (the live count redrawn) read as a
  // line's end, so that the verdict is a line of its own either way.
  // An escape cut off at a chunk's end waits for the rest.
  let output = '';
  let cut = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    const text = cut + chunk;
    const partial = /\u001b(\[[0-9;?]*)?$/.exec(text);
    cut = partial === null ? '' : partial[0];
    const whole = partial === null ? text : text.slice(0, partial.index);
    output += whole.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n?/g, '\n');
  });
  child.stderr?.resume();

  // When `text` first shows at or after `from` in the output, if it has yet: performance.now().
  const shownAt = new Map<number, number>();
  const watchFor = (text: string, from: number): (() => number | undefined) => {
    const poll = setInterval(() => {
      if (!shownAt.has(from) && output.indexOf(text, from) >= 0) shownAt.set(from, performance.now());
    }, 2);
    return () => {
      clearInterval(poll);
      return shownAt.get(from);
    };
  };

  // Resolves with the first verdict printed at or after `from` in the output.
  const nextVerdict = async (from: number): Promise<{ end: number; failed: number }> => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      VERDICT.lastIndex = from;
      const match = VERDICT.exec(output);
      if (match !== null) return { end: match.index + match[0].length, failed: Number(match[2]) };
      if (performance.now() > deadline)
        throw new Error(`bench: no verdict from watch mode within ${timeoutMs} ms; output:\n${output.slice(-2000)}`);
      if (child.exitCode !== null) throw new Error(`bench: watch mode exited early; output:\n${output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  };

  const samples: SaveSample[] = [];
  try {
    let seen = (await nextVerdict(0)).end;
    for (let i = 0; i < options.saves; i++) {
      const breaking = i % 2 === 0;
      await new Promise((r) => setTimeout(r, PAUSE_MS));
      const firstFailure = watchFor(FIRST_FAILURE, seen);
      const start = performance.now();
      await writeFile(executeFile, breaking ? broken : reference);
      const verdict = await nextVerdict(seen);
      const end = performance.now();
      const failureAt = firstFailure();
      samples.push({
        ms: end - start,
        passed: verdict.failed === 0,
        ...(options.terminal && verdict.failed > 0 ? { firstFailureMs: (failureAt ?? end) - start } : {}),
      });
      if ((verdict.failed === 0) === breaking) {
        const expected = breaking ? 'failing' : 'passing';
        throw new Error(`bench: save ${i + 1} expected a ${expected} verdict; output:\n${output.slice(-2000)}`);
      }
      seen = verdict.end;
    }
    // A terminal's key is read as it is typed; a pipe's line as it ends.
    child.stdin?.write(options.terminal ? 'q' : 'q\n');
    const result = await Promise.race([child, new Promise<null>((r) => setTimeout(() => r(null), timeoutMs))]);
    if (result === null) throw new Error('bench: watch mode did not exit after q');
    // The CLI's own tsx cache (tsx-<uid>) is kept in the OS temp dir on purpose; anything else is a leftover.
    const left = (await readdir(graderTmp)).filter((name) => !/^tsx-\d+$/.test(name));
    if (left.length > 0) throw new Error(`bench: watch mode left temp files behind: ${left.join(', ')}`);
    return samples;
  } finally {
    if (child.exitCode === null && child.pid !== undefined) child.kill('SIGKILL');
    await rm(graderTmp, { recursive: true, force: true });
    await course.remove();
    await copy?.remove();
  }
}

// Switches program.ts's probe mode off: it never takes the request the grader's first line carries.
async function withoutProbe(file: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const line = 'request ??= testCase.observe;';
  const off = text.replace(line, 'request ??= undefined;');
  if (off === text) throw new Error(`bench: the driver has no \`${line}\` to switch its probe off`);
  await writeFile(file, off);
}

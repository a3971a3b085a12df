import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, writeReferenceCourse } from './support/reference-course.ts';
import { tsxLoaderUrl } from '../src/grade/run/program-process.ts';
import { firstStageIn, STAGES } from '../src/course/stages.ts';
import { driverEntry } from '../src/modes/driver-files.ts';
import { MODE_NAMES } from '../src/modes/mode-table.ts';

const SECRET = 'hunter2-theinference';

let work = '';
let tmp = '';
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'theinference-program-test-'));
  tmp = join(work, 'tmp');
  await mkdir(tmp);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function writeCase(name: string, data: unknown): Promise<string> {
  const file = join(work, `${name}.json`);
  await writeFile(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}

// The real driver, in a process of its own, TMPDIR pointed at a directory the test owns (tsx's cache is off, so
// whatever appears there is the program's); `input` goes to its stdin. In this repository, through the thin
// program.ts a student runs by hand; in a course directory of a test's, the package's driver, as the grader runs it.
// `extra`: a time limit (the program is then killed, its sandbox left in `extra.tmpdir`).
function runProgram(args: string[], cwd = REPO, input = '', extra: { timeout?: number; tmpdir?: string } = {}) {
  // tsx from this repository, as the grader gives it: a course's own node_modules has only what its tools import.
  const entry = cwd === REPO ? 'program.ts' : driverEntry();
  return execa('node', ['--import', tsxLoaderUrl(), entry, ...args], {
    cwd,
    input,
    reject: false,
    ...(extra.timeout === undefined ? {} : { timeout: extra.timeout }),
    stripFinalNewline: false,
    env: { TMPDIR: extra.tmpdir ?? tmp, TSX_DISABLE_CACHE: '1', THEINFERENCE_TEST_SECRET: SECRET },
  });
}

// A course directory like a student's: the course's program.ts and tools, and an execute of their own whose
// every call runs `body`.
async function studentCourse(name: string, body: string[]): Promise<string> {
  const course = join(work, name);
  await writeReferenceCourse(course);
  const source = [
    "import type { Tools, ToolOutput } from './tools/index.ts';",
    'export type Execute = (name: string, input: any) => Promise<ToolOutput>;',
    'export function makeExecute(tools: Tools): Execute {',
    '  return async (name, input) => {',
    ...body.map((line) => `    ${line}`),
    '  };',
    '}',
  ];
  await writeFile(join(course, 'src/execute.ts'), source.join('\n'));
  return course;
}

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line).results);

describe('dispatch: several cases in one run', () => {
  let run: Awaited<ReturnType<typeof runProgram>>;
  beforeAll(async () => {
    const files = [
      await writeCase('read', {
        description: 'd',
        files: { 'a.txt': 'A' },
        calls: [{ tool: 'Read', input: { path: 'a.txt' } }],
      }),
      await writeCase('bash', { description: 'd', calls: [{ tool: 'Bash', input: { command: 'echo hi' } }] }),
      await writeCase('glob', {
        description: 'd',
        files: { 'a.txt': 'A' },
        calls: [{ tool: 'Glob', input: { pattern: '**' } }],
      }),
      await writeCase('leaves-a-file', {
        description: 'd',
        calls: [{ tool: 'Write', input: { path: 'left.txt', file_text: 'x' } }],
      }),
      await writeCase('placeholder', {
        description: 'd',
        files: { 'b.txt': 'B', link: { symlink: '<sandbox>/b.txt' } },
        calls: [
          { tool: 'Glob', input: { pattern: '**' } },
          { tool: 'Bash', input: { command: 'pwd' } },
          { tool: 'Read', input: { path: '<sandbox>/b.txt' } },
          { tool: 'Read', input: { path: 'link' } },
          { tool: 'Write', input: { path: '<sandbox>/w.txt', file_text: 'w' } },
          { tool: 'Bash', input: { command: 'cat <sandbox>/w.txt; echo " $HOME"' } },
        ],
      }),
      await writeCase('secret', {
        description: 'd',
        calls: [{ tool: 'Bash', input: { command: 'echo "[${THEINFERENCE_TEST_SECRET-unset}]"; env' } }],
      }),
    ];
    run = await runProgram(['dispatch', ...files]);
  });

  it('exits 0 with nothing on stderr', () => {
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('prints the course page examples byte for byte, one line per case, in order', () => {
    expect(run.stdout.split('\n').slice(0, 3).join('\n')).toBe(
      [
        '{"results":[{"content":"1: A"}]}',
        '{"results":[{"content":"hi\\n","is_error":false,"exit_code":0}]}',
        '{"results":[{"content":"a.txt"}]}',
      ].join('\n'),
    );
    expect(lines(run.stdout)).toHaveLength(6);
  });

  it('gives each case a fresh sandbox', () => {
    expect(lines(run.stdout)[4][0]).toEqual({ content: 'b.txt\nlink' });
  });

  it('expands <sandbox> in inputs and symlink targets, and puts it back in results', () => {
    expect(lines(run.stdout)[4].slice(1)).toEqual([
      { content: '<sandbox>\n', is_error: false, exit_code: 0 },
      { content: '1: B' },
      { content: '1: B' },
      { content: 'File created successfully at: <sandbox>/w.txt' },
      { content: 'w <sandbox>\n', is_error: false, exit_code: 0 },
    ]);
  });

  it('never lets a host environment variable reach bash', () => {
    const [result] = lines(run.stdout)[5];
    expect(result.content).toMatch(/^\[unset\]\n/);
    expect(result.content).not.toContain(SECRET);
  });

  it('removes every sandbox', async () => {
    expect(await readdir(tmp)).toEqual([]);
  });
});

describe('dispatch: what the code under test does', () => {
  it('records a throw per call, and sends console.log to stderr, not stdout', async () => {
    const course = await studentCourse('course', [
      "console.log('debug: calling', name);",
      "if (name === 'boom') throw new Error('kaboom');",
      'return tools.bash(input.command);',
    ]);
    const file = await writeCase('student', {
      description: 'd',
      calls: [
        { tool: 'Bash', input: { command: 'echo hi' } },
        { tool: 'boom', input: {} },
        { tool: 'Bash', input: { command: 'echo after' } },
      ],
    });
    const run = await runProgram(['dispatch', file], course);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(
      '{"results":[{"content":"hi\\n","is_error":false,"exit_code":0},{"threw":"Error: kaboom"},' +
        '{"content":"after\\n","is_error":false,"exit_code":0}]}\n',
    );
    // The throw's place in the student's file, for the reports that put a failure on its line.
    expect(run.stderr).toMatch(
      /^debug: calling Bash\ndebug: calling boom\nexecute threw Error: kaboom\n {4}at .*\(src\/execute\.ts:\d+:\d+\)\ndebug: calling Bash\n$/,
    );
    expect(await readdir(tmp)).toEqual([]);
  });
});

describe('dispatch -: cases as JSON lines on stdin, as the grader sends them', () => {
  it('answers each line in order until stdin ends, skipping blank lines, saying before each call which it is', async () => {
    const input = [
      '{"calls":[]}',
      '',
      '{"files":{"a.txt":"A"},"calls":[{"tool":"Read","input":{"path":"a.txt"}},{"tool":"echo","input":{"text":"x"}}]}',
      '',
    ].join('\n');
    const run = await runProgram(['dispatch', '-'], REPO, input);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(
      [
        '{"results":[]}',
        '{"calling":{"call":1,"of":2,"tool":"Read"}}',
        '{"calling":{"call":2,"of":2,"tool":"echo"}}',
        '{"results":[{"content":"1: A"},{"content":"x"}]}',
        '',
      ].join('\n'),
    );
  });

  it("runs the probe asked for by the first line after the last case, silencing the code's prints, and prints what it saw", async () => {
    const course = await studentCourse('probed', [
      "if (name === 'echo') { console.log('debug'); return { content: String(input.text).trim() }; }",
      'return tools.view(input.file_path);',
    ]);
    const observe = {
      methods: ['view'],
      calls: [
        { tool: 'Read', input: { path: 'p', file_path: 'f' }, answer: { content: 'seen', is_error: true } },
        { tool: 'echo', input: { text: ' t ' }, answer: { content: 'unused' } },
      ],
    };
    const input = `${JSON.stringify({ calls: [], observe })}\n{"calls":[]}\n`;
    const run = await runProgram(['dispatch', '-'], course, input);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(['{"results":[]}', '{"results":[]}']);
    expect(JSON.parse(lines[2]!)).toEqual({
      observed: [
        { calls: [{ method: 'view', args: ['f'] }], result: { content: 'seen', is_error: true } },
        { calls: [], result: { content: 't' } },
      ],
    });
  });

  it('makes a call with `again` a second time through the same execute, the stand-in answering `again` then', async () => {
    // A cache kept on the Tools object it was given: the second call never reaches tools.view.
    const course = await studentCourse('cached', [
      'const seen: Map<string, ToolOutput> = ((tools as any).seen ??= new Map());',
      'if (!seen.has(input.path)) seen.set(input.path, await tools.view(input.path));',
      'return seen.get(input.path)!;',
    ]);
    const observe = {
      methods: ['view'],
      calls: [{ tool: 'Read', input: { path: 'p' }, answer: { content: 'first' }, again: { content: 'second' } }],
    };
    const run = await runProgram(['dispatch', '-'], course, `${JSON.stringify({ calls: [], observe })}\n`);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout.trimEnd().split('\n')[1]!)).toEqual({
      observed: [
        {
          calls: [{ method: 'view', args: ['p'] }],
          result: { content: 'first' },
          again: { calls: [], result: { content: 'first' } },
        },
      ],
    });
  });

  it('says which call it is before the call starts, so a call that never yields leaves it sent', async () => {
    const course = await studentCourse('loops', [
      "if (name === 'echo') while (true) {}",
      'return tools.bash(input.command);',
    ]);
    const input = '{"calls":[{"tool":"Bash","input":{"command":"true"}},{"tool":"echo","input":{"text":"x"}}]}\n';
    const killedTmp = join(work, 'loops-tmp');
    await mkdir(killedTmp);
    const program = runProgram(['dispatch', '-'], course, input, { tmpdir: killedTmp });
    // However long the load takes on a busy machine: stopped a moment after the second call says it starts (its
    // loop never yields, so nothing can follow), or after a minute without it.
    let seen = '';
    await new Promise<void>((settle) => {
      const deadline = setTimeout(settle, 60_000);
      program.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('"call":2')) setTimeout(() => settle(clearTimeout(deadline)), 500);
      });
    });
    program.kill('SIGKILL');
    const run = await program;
    expect(run.signal).toBe('SIGKILL');
    expect(run.stdout).toBe(
      '{"calling":{"call":1,"of":2,"tool":"Bash"}}\n{"calling":{"call":2,"of":2,"tool":"echo"}}\n',
    );
  });

  it('stops at a line that is not a case, naming the line, after the cases before it printed', async () => {
    const run = await runProgram(['dispatch', '-'], REPO, '{"calls":[]}\n{ nope\n{"calls":[]}\n');
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('{"results":[]}\n');
    expect(run.stderr).toMatch(/^error: cannot read case on stdin line 2: SyntaxError/);
  });
});

describe('dispatch: misuse exits 2 with a message naming the file', () => {
  const good = { description: 'd', calls: [{ tool: 'echo', input: { text: 'x' } }] };
  const rows: Array<{ name: string; data: unknown; message: string }> = [
    { name: 'not JSON', data: '{ nope', message: 'cannot read case <file>: SyntaxError' },
    {
      name: 'calls missing',
      data: { description: 'd' },
      message: 'cannot read case <file>: Error: "calls" must be an array',
    },
    {
      name: 'a call without input',
      data: { calls: [{ tool: 'Read' }] },
      message: '"calls"[0] must be { "tool": string, "input": object }',
    },
    {
      name: 'a bad file spec',
      data: { files: { 'a.txt': 1 }, calls: [] },
      message: '"files"["a.txt"] must be a string',
    },
    {
      name: 'a file path leaving the sandbox',
      data: { files: { '../x': 'x' }, calls: [] },
      message: '"files"["../x"] must be a relative path',
    },
    ...['', '.', 'src/', 'src/./a.ts', 'a//b', '/etc/x', 'C:\\x', '\\x'].map((path) => ({
      name: `a file path naming no file below the sandbox: ${JSON.stringify(path)}`,
      data: { files: { [path]: 'x' }, calls: [] },
      message: `"files"[${JSON.stringify(path)}] must be a relative path inside the sandbox, naming a file`,
    })),
    {
      name: 'files that cannot be seeded',
      data: { files: { a: 'x', 'a/b': 'y' }, calls: [] },
      message: 'cannot seed case <file>: Error: EEXIST',
    },
  ];
  it.each(rows)('$name', async ({ name, data, message }) => {
    const first = await writeCase('good', good);
    const bad = await writeCase(name.replace(/[^\w]+/g, '-'), data);
    const run = await runProgram(['dispatch', first, bad]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message.replace('<file>', bad));
    // Each case is checked when its turn comes: the one before the bad one has printed.
    expect(run.stdout).toBe('{"results":[{"content":"x"}]}\n');
    expect(await readdir(tmp)).toEqual([]);
  });

  it('prints its usage without a case file: both ways for each mode of the table, how to name a stage, the mode of each stage', async () => {
    const run = await runProgram(['dispatch']);
    expect(run.exitCode).toBe(2);
    const lines = run.stderr.split('\n');
    expect(lines.shift()).toBe(`usage: tsx program.ts ${MODE_NAMES[0]} <case.json> [<case.json> …]`);
    expect(lines.pop()).toBe('');
    expect(lines.pop()).toBe(`each stage's mode: ${STAGES.map((s) => `${s.slug} ${s.mode}`).join(', ')}`);
    expect(lines.pop()).toBe(
      '       tsx program.ts <mode> --stage <slug> …   (a stage of the mode; its first in course order when not given)',
    );
    const width = Math.max(...MODE_NAMES.map((m) => m.length)) + 5;
    expect(lines).toEqual(
      MODE_NAMES.flatMap((m) => [
        `       tsx program.ts ${m} <case.json> [<case.json> …]`,
        `       tsx program.ts ${`${m} -`.padEnd(width)}(cases as JSON lines on stdin)`,
      ]).slice(1),
    );
  });

  it('refuses a stage of another mode, or none the course has, with its usage', async () => {
    const file = await writeCase('good', good);
    const other = STAGES.find((s) => s.mode !== 'dispatch')!.slug;
    for (const slug of [other, 'no-such-stage']) {
      const run = await runProgram(['dispatch', '--stage', slug, file]);
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toMatch(/^usage: /);
      expect(run.stdout).toBe('');
    }
  });

  it("runs the stage --stage names as its mode's first is run", async () => {
    const file = await writeCase('good', good);
    const named = await runProgram(['dispatch', '--stage', firstStageIn('dispatch')!.slug, file]);
    expect(named.exitCode).toBe(0);
    expect(named.stdout).toBe((await runProgram(['dispatch', file])).stdout);
  });
});

describe('dispatch: seeding never writes through a seeded symlink that leads out of the sandbox', () => {
  let outside = '';
  beforeAll(async () => {
    outside = join(work, 'outside');
    await mkdir(outside);
  });

  it.each([
    [
      'a file under a link to a directory outside',
      (o: string) => ({ out: { symlink: o }, 'out/planted.txt': 'x' }),
      'out/planted.txt',
    ],
    [
      'a file under a dangling link',
      (o: string) => ({ gone: { symlink: join(o, 'missing') }, 'gone/planted.txt': 'x' }),
      'gone/planted.txt',
    ],
    [
      'a link under a link to outside',
      (o: string) => ({ out: { symlink: o }, 'out/planted.txt': { symlink: '/etc' } }),
      'out/planted.txt',
    ],
  ])('refuses %s', async (_, files, path) => {
    const file = await writeCase('through-a-link', { files: files(outside), calls: [] });
    const run = await runProgram(['dispatch', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `"files"["${path}"] would be written outside the sandbox, through a symlink seeded before it`,
    );
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('refuses a second name for a seeded link (./f beside f) before seeding anything', async () => {
    const files = { f: { symlink: join(outside, 'planted.txt') }, './f': 'x' };
    const file = await writeCase('through-a-link', { files, calls: [] });
    const run = await runProgram(['dispatch', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('"files"["./f"] must be a relative path inside the sandbox, naming a file');
    expect(await readdir(outside)).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('seeds nested files in any order, each directory made once, and checks every file after a link', async () => {
    const files = {
      'a/b/c.txt': 'c',
      'top.txt': 't',
      'a/d.txt': 'd',
      'a/b/e/f.txt': 'f',
      out: { symlink: outside },
      'a/b/e/g.txt': 'g',
      'out/late.txt': 'x',
    };
    const file = await writeCase('nested', { files, calls: [] });
    const run = await runProgram(['dispatch', file]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('"files"["out/late.txt"] would be written outside the sandbox');
    const seeded = { ...files, 'out/late.txt': undefined, out: undefined };
    const ok = await writeCase('nested-ok', { files: seeded, calls: [{ tool: 'Glob', input: { pattern: '**/*' } }] });
    const good = await runProgram(['dispatch', ok]);
    expect([good.exitCode, good.stderr]).toEqual([0, '']);
    expect(good.stdout).toBe('{"results":[{"content":"a/b/c.txt\\na/b/e/f.txt\\na/b/e/g.txt\\na/d.txt\\ntop.txt"}]}\n');
    expect(await readdir(outside)).toEqual([]);
  });

  it('writes through a seeded link that stays inside, and seeds a link pointing out', async () => {
    const files = { dir: { symlink: 'real' }, 'real/keep.txt': 'k', 'dir/through.txt': 't', host: { symlink: '/etc' } };
    const file = await writeCase('inside-links', { files, calls: [{ tool: 'Glob', input: { pattern: 'real/*' } }] });
    const run = await runProgram(['dispatch', file]);
    expect([run.exitCode, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe('{"results":[{"content":"real/keep.txt\\nreal/through.txt"}]}\n');
  });
});

// What the html report adds to a class run: the same class graded by `theinference test --dir '<class>/*'` with
// only a --summary, and with `--reporter html --output class.html` as well, side by side in each round (the order
// alternating), sandboxed, without variants. The class: copies of the reference course, every other one with a
// wrong dispatcher from the catalogue (four different mistakes), so the page has mistakes, diffs and output to show.
// Each run must give every submission its verdict, and the html run must write its page.
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { writeReferenceCourse } from '../test/support/reference-course.ts';

// The class's size, and the wrong dispatchers handed in, in turn, by every other submission.
export const HTML_SUBMISSIONS = 20;
const WRONG = ['missing-alias-read', 'glob-arguments-swapped', 'camel-old-str', 'echo-trims'];

// One timed run: with the page or without, its wall time (ms), and the page's size (bytes; 0 without).
export type HtmlSample = { page: boolean; ms: number; bytes: number };

export async function measureHtmlReport(options: {
  packageRoot: string;
  stage: string;
  rounds: number;
  log: (line?: string) => void;
}): Promise<HtmlSample[]> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-html-'));
  try {
    const wrong = new Set<string>();
    for (let k = 1; k <= HTML_SUBMISSIONS; k++) {
      const name = `student-${String(k).padStart(2, '0')}`;
      const dir = join(root, 'class', name);
      await writeReferenceCourse(dir);
      if (k % 2 === 0) {
        const slug = WRONG[(k / 2) % WRONG.length]!;
        await cp(
          join(options.packageRoot, 'test/fixtures/wrong-execute', `${slug}.ts`),
          join(dir, 'src', 'execute.ts'),
        );
        wrong.add(name);
      }
    }
    const bin = join(options.packageRoot, 'bin', 'theinference.js');
    const page = join(root, 'class.html');
    const summary = join(root, 'summary.json');
    const grade = async (withPage: boolean): Promise<HtmlSample> => {
      await rm(page, { force: true });
      const args = [bin, 'test', '--stage', options.stage, '--isolation', 'required', '--no-variants'];
      args.push('--dir', join(root, 'class', '*'), '--summary', summary);
      if (withPage) args.push('--reporter', 'html', '--output', page);
      const started = performance.now();
      const run = await execa(process.execPath, args, {
        cwd: root,
        env: { ...process.env, NO_COLOR: '1', CI: '', THEINFERENCE_VARIANTS: '' },
        reject: false,
        stdin: 'ignore',
      });
      const ms = performance.now() - started;
      const rows = (JSON.parse(await readFile(summary, 'utf8')) as { submissions: { name: string; verdict: string }[] })
        .submissions;
      const bytes = withPage ? ((await stat(page).catch(() => undefined))?.size ?? 0) : 0;
      const ok =
        run.exitCode === 1 &&
        rows.length === HTML_SUBMISSIONS &&
        rows.every((r) => r.verdict === (wrong.has(r.name) ? 'fail' : 'pass')) &&
        (!withPage || bytes > 0);
      if (!ok) {
        throw new Error(
          `bench: the class run${withPage ? ' with its html page' : ''} did not do the whole job (exit ${run.exitCode})\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
        );
      }
      return { page: withPage, ms, bytes };
    };
    const samples: HtmlSample[] = [];
    for (let round = 0; round < options.rounds; round++) {
      for (const withPage of round % 2 === 0 ? [false, true] : [true, false]) {
        const sample = await grade(withPage);
        samples.push(sample);
        const what = withPage ? `with the html page (${(sample.bytes / 1024).toFixed(0)} KB)` : 'summary only';
        options.log(`  round ${round + 1}, ${what.padEnd(30)} ${(sample.ms / 1000).toFixed(1)} s`);
      }
    }
    return samples;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

// What the html report adds to a class run: the same class graded by `theinference test --dir '<class>/*'` with
// only a --summary, and with `--reporter html --output class.html` as well, side by side in each round (the order
// alternating), sandboxed, without variants. The class: copies of the reference course, every other one with a
// wrong dispatcher from the catalogue (four different mistakes), so the page has mistakes, diffs and output to show.
// Each run must give every submission its verdict, and the html run must write its page.
//
// On a shared machine two class runs differ by far more than a page costs, so the page's own cost is measured apart
// too: the class graded once in process (runClass, as the CLI does), then the page rendered and written, whole,
// PAGE_WRITES times; its median against the grading's time is what the page adds. Then the page in Chromium
// (test/support/browser.ts): its load and a sort of the submissions by score, at the class's size and at
// VIEW_LARGE submissions (the graded class copied over), VIEW_ROUNDS times each, side by side. The table is scrolled
// into view before its sort is timed, as a user sees it when clicking: the page lays out only what is near the
// screen (html-style.ts), so a sort off screen would time no layout at all.
import { cp, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { writeAtomically } from '../src/course/snapshot-file.ts';
import { renderClassHtml } from '../src/grade/report/html.ts';
import { runClass } from '../src/grade/run-class.ts';
import { writeReferenceCourse } from '../test/support/reference-course.ts';
import { pathToFileURL } from 'node:url';
import type { ClassReport } from '../src/grade/types.ts';
import { launchBrowser } from '../test/support/browser.ts';
import { summarise } from './stats.ts';

// The class's size, and the wrong dispatchers handed in, in turn, by every other submission.
export const HTML_SUBMISSIONS = 20;
const WRONG = ['missing-alias-read', 'glob-arguments-swapped', 'camel-old-str', 'echo-trims'];

// One timed run: with the page or without, its wall time (ms), and the page's size (bytes; 0 without).
export type HtmlSample = { page: boolean; ms: number; bytes: number };

// The page's own cost: the class graded in process (ms), each writing of its page (ms), and the page in a browser
// at each size: its load (navigation start to load event end) and a sort on screen, each to the next frame (ms).
export type PageCost = { gradeMs: number; writeMs: number[]; views: ClassView[] };
export type ClassView = { submissions: number; loadMs: number[]; sortMs: number[] };

// The large class the page is opened at, and how many times each page is opened.
export const VIEW_LARGE = 500;
const VIEW_ROUNDS = 5;

// How many times the page is rendered and written for its median.
const PAGE_WRITES = 20;

export async function measureHtmlReport(options: {
  packageRoot: string;
  stage: string;
  rounds: number;
  log: (line?: string) => void;
}): Promise<{ samples: HtmlSample[]; cost: PageCost }> {
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
    const started = performance.now();
    const submissions = [...Array(HTML_SUBMISSIONS).keys()].map((k) => {
      const name = `student-${String(k + 1).padStart(2, '0')}`;
      return { name, dir: join(root, 'class', name) };
    });
    const report = await runClass({ stage: options.stage, cases: [], submissions, sandbox: true });
    const gradeMs = performance.now() - started;
    if (report.submissions.some((r) => r.verdict !== (wrong.has(r.name) ? 'fail' : 'pass')))
      throw new Error('bench: the in-process class run did not give every submission its verdict');
    const writeMs: number[] = [];
    for (let k = 0; k < PAGE_WRITES; k++) {
      const t = performance.now();
      await writeAtomically(page, renderClassHtml(report));
      writeMs.push(performance.now() - t);
    }
    options.log(
      `  in process: graded in ${(gradeMs / 1000).toFixed(1)} s; the page rendered and written in ${summarise(writeMs).median.toFixed(1)} ms (median of ${PAGE_WRITES})`,
    );
    const views = await measureViews(root, report);
    for (const v of views)
      options.log(
        `  in Chromium, ${v.submissions} submissions: loaded in ${summarise(v.loadMs).median.toFixed(0)} ms, sorted in ${summarise(v.sortMs).median.toFixed(0)} ms (medians of ${VIEW_ROUNDS})`,
      );
    return { samples, cost: { gradeMs, writeMs, views } };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

// The class's page and the page of VIEW_LARGE submissions (the class's copied over, each name its own), each
// opened VIEW_ROUNDS times, the two sizes in turn.
async function measureViews(root: string, report: ClassReport): Promise<ClassView[]> {
  const large = Array.from({ length: Math.ceil(VIEW_LARGE / report.submissions.length) }, (_, round) =>
    report.submissions.map((s, i) => ({ ...s, name: `s-${round}-${i}` })),
  )
    .flat()
    .slice(0, VIEW_LARGE);
  const views: ClassView[] = [];
  const pages: string[] = [];
  for (const [k, submissions] of [report.submissions, large].entries()) {
    const file = join(root, `view-${k}.html`);
    await writeAtomically(file, renderClassHtml({ ...report, submissions }));
    pages.push(file);
    views.push({ submissions: submissions.length, loadMs: [], sortMs: [] });
  }
  const browser = await launchBrowser(root);
  try {
    for (let round = 0; round < VIEW_ROUNDS; round++) {
      for (const [k, file] of pages.entries()) {
        const { page } = await browser.open(pathToFileURL(file).href);
        const [loadMs, sortMs] = (await page.evaluate(`(async () => {
          const n = performance.getEntriesByType('navigation')[0];
          const button = document.querySelector('#submissions thead th:nth-child(3) button');
          button.scrollIntoView();
          await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
          const started = performance.now();
          button.click();
          document.body.offsetHeight;
          await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
          return [n.loadEventEnd - n.startTime, performance.now() - started];
        })()`)) as [number, number];
        views[k]!.loadMs.push(loadMs);
        views[k]!.sortMs.push(sortMs);
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  return views;
}

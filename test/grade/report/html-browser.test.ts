// The html report as staff use it: opened from disk in a real browser (Debian's Chromium, test/support/browser.ts),
// for a class graded for real. A right submission, five wrong ones from the catalogue (each one known mistake), one
// that does not compile and one full of markup and script (test/fixtures/hostile-html, under a name that is itself
// markup) are graded once; the class of 50 is those results replicated in known proportions, so the page must show
// the five mistakes with counts 17, 12, 9, 6 and 3 at its top. Asserted on screen: the counts, the ranked mistakes
// and their hints, the filters and sorting, the links, nothing run from what a submission wrote (no flag set, no
// dialog, no element forged), axe-core finding nothing, the page readable with scripts off, and the
// Content-Security-Policy stopping a script should one ever get onto the page. A console error or an uncaught
// error on the page fails the test. Screenshots are kept in test-results/html-report/.
// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText is what the page shows, which is what these tests assert
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classMistakes, mistakesOf } from '../../../src/grade/report/class-mistakes.ts';
import { renderClassHtml, render as renderHtml } from '../../../src/grade/report/html.ts';
import { runClass } from '../../../src/grade/run-class.ts';
import type { ClassReport, SubmissionResult } from '../../../src/grade/types.ts';
import { CATALOGUE } from '../../fixtures/wrong-execute/catalogue.ts';
import {
  accessibilityViolations,
  type Browser,
  keepScreenshot,
  launchBrowser,
  type Troubles,
} from '../../support/browser.ts';
import { makeCourse, REPO, useScratch } from '../course-fixture.ts';

const scratch = useScratch();

// The five known mistakes, each a catalogued wrong dispatcher, and how many of the 50 make it.
const KNOWN: [slug: string, count: number][] = [
  ['glob-arguments-swapped', 17],
  ['missing-alias-read', 12],
  ['camel-old-str', 9],
  ['view-ignores-range', 6],
  ['echo-trims', 3],
];
// The name the hostile submission goes by: markup, as a directory name may be.
const HOSTILE_NAME = `<img src=x onerror="window.__pwned='name'; alert('name')">`;

let graded: ClassReport;
let browser: Browser;
let classFile = '';
let oneFile = '';

beforeAll(async () => {
  const wrong = await Promise.all(
    KNOWN.map(async ([slug]) => {
      const dir = await makeCourse(scratch);
      await cp(join(REPO, 'test/fixtures/wrong-execute', `${slug}.ts`), join(dir, 'src/execute.ts'));
      return { name: slug, dir };
    }),
  );
  graded = await runClass({
    stage: 'register-tools',
    cases: [],
    timeoutMs: 30_000,
    jobs: 2,
    submissions: [
      { name: 'right', dir: await makeCourse(scratch) },
      ...wrong,
      { name: 'wont-compile', dir: await makeCourse(scratch, 'does-not-compile') },
      { name: HOSTILE_NAME, dir: await makeCourse(scratch, 'hostile-html') },
    ],
  });
  classFile = join(scratch.root, 'class.html');
  await writeFile(classFile, renderClassHtml(classOf50(graded)));
  oneFile = join(scratch.root, 'one.html');
  await writeFile(oneFile, renderHtml(result(HOSTILE_NAME).report));
  browser = await launchBrowser(scratch.root);
}, 300_000);

afterAll(async () => {
  await browser?.close();
});

function result(name: string): SubmissionResult {
  const found = graded.submissions.find((s) => s.name === name);
  if (found === undefined) throw new Error(`${name} was not graded`);
  return found;
}

// 50 submissions: each known mistake's submission copied as many times as its count (student-01 …, the mistakes
// interleaved as a class's would be), then the right one, the one that does not compile and the hostile one.
function classOf50(run: ClassReport): ClassReport {
  const queue = KNOWN.flatMap(([slug, count]) => Array.from({ length: count }, () => slug));
  const interleaved = queue.map((_, i) => queue[(i * 7) % queue.length]!);
  const copies = interleaved.map((slug, i) => ({ ...result(slug), name: `student-${String(i + 1).padStart(2, '0')}` }));
  const submissions = [...copies, result('right'), result('wont-compile'), result(HOSTILE_NAME)];
  return { ...run, submissions: submissions.sort((a, b) => (a.name < b.name ? -1 : 1)) };
}

// Opens a page and hands back its troubles, to be checked empty when the test is done with it.
async function open(file: string, javaScript = true): Promise<{ page: Page; troubles: Troubles }> {
  return browser.open(pathToFileURL(file).href, { javaScript });
}

function expectNoTroubles(troubles: Troubles): void {
  expect(troubles).toEqual({ console: [], errors: [], dialogs: [] });
}

describe('the graded fixtures', () => {
  it('each make the one mistake they are known for, with the catalogue hint', () => {
    for (const [slug] of KNOWN) {
      const made = mistakesOf(result(slug).report);
      expect(made, slug).toHaveLength(1);
      const pattern = CATALOGUE.find((c) => c.slug === slug)!.hint;
      for (const p of Array.isArray(pattern) ? pattern : [pattern]) expect(made[0]!.hint, slug).toMatch(p);
    }
    expect(result('right').verdict).toBe('pass');
    expect(result('wont-compile').verdict).toBe('did not start');
  });
});

// A browser on a busy 2-core machine: a full-page screenshot or axe over 50 submissions' details takes seconds.
describe('the class page in a browser', { timeout: 180_000 }, () => {
  it('shows the totals and the five known mistakes with their counts at the top, most common first', async () => {
    const { page, troubles } = await open(classFile);
    const totals = await page.locator('.totals li').allInnerTexts();
    expect(totals.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      '1 passed',
      '48 failed',
      '1 did not start',
      '0 could not be graded',
      expect.stringMatching(/^\d+ mistakes found$/),
    ]);
    const rows = page.locator('#mistake-table tbody tr');
    const top = await rows.evaluateAll((trs) =>
      trs.slice(0, 5).map((tr) => ({
        count: tr.querySelector('[data-count]')?.textContent,
        hint: tr.querySelector('.hint-text')?.textContent,
      })),
    );
    expect(top).toEqual(
      KNOWN.map(([slug, count]) => ({
        count: String(count),
        hint: mistakesOf(result(slug).report)[0]!.hint.replace(/`/g, ''),
      })),
    );
    // Below them only the hostile submission's own mistakes, one submission each.
    const rest = await rows.evaluateAll((trs) =>
      trs.slice(5).map((tr) => tr.querySelector('[data-count]')?.textContent),
    );
    expect(rest.every((c) => c === '1')).toBe(true);
    // At the top: the first mistake's row is on the first screen.
    const box = await rows.first().boundingBox();
    expect(box!.y + box!.height).toBeLessThan(900);
    await keepScreenshot(page, 'class-top');
    await keepScreenshot(page, 'class-full', true);
    expectNoTroubles(troubles);
  });

  it('lists who made each mistake and links every row to its details', async () => {
    const { page, troubles } = await open(classFile);
    const first = page.locator('#mistake-table tbody tr').first();
    await first.locator('summary').click();
    const who = first.locator('.names a');
    expect(await who.count()).toBe(17);
    const name = (await who.first().innerText()).trim();
    await who.first().click();
    const target = page.locator(':target');
    expect(await target.locator('h3').innerText()).toBe(name);
    await expect.poll(() => target.isVisible()).toBe(true);
    // Every row of the submissions table links to a details section that exists.
    const hrefs = await page
      .locator('#submissions tbody tr td:first-child a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toHaveLength(50);
    for (const href of hrefs) expect(await page.locator(`section${href}`).count(), href!).toBe(1);
    expectNoTroubles(troubles);
  });

  it('never scrolls sideways on a 400 px screen: wide tables and diffs scroll in their own region', async () => {
    const { page, troubles } = await open(classFile);
    await page.setViewportSize({ width: 400, height: 800 });
    const [scrolled, screen] = (await page.evaluate(
      '[document.documentElement.scrollWidth, window.innerWidth]',
    )) as number[];
    expect(scrolled).toBeLessThanOrEqual(screen!);
    await keepScreenshot(page, 'class-400px');
    expectNoTroubles(troubles);
  });

  it('tells who did not start, and why', async () => {
    const { page, troubles } = await open(classFile);
    const rows = page.locator('#not-started + table tbody tr, h2#not-started + table tbody tr');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(/wont-compile\s+did not start\s+the program exited with code 1/);
    expectNoTroubles(troubles);
  });

  it('filters the submissions by mistake, verdict and name, and says how many it shows', async () => {
    const { page, troubles } = await open(classFile);
    const visibleRows = () => page.locator('#submissions tbody tr:visible').count();
    expect(await visibleRows()).toBe(50);
    await expect.poll(() => page.locator('#filter-count').innerText()).toBe('Showing 50 of 50 submissions');
    const ids = classMistakes(classOf50(graded)).map((m) => m.id);
    await page.selectOption('#filter-mistake', ids[1]!);
    expect(await visibleRows()).toBe(12);
    expect(await page.locator('#filter-count').innerText()).toBe('Showing 12 of 50 submissions');
    await page.selectOption('#filter-mistake', '');
    await page.selectOption('#filter-verdict', 'did not start');
    expect(await page.locator('#submissions tbody tr:visible').allInnerTexts()).toEqual([
      expect.stringMatching(/^wont-compile\b/),
    ]);
    await page.selectOption('#filter-verdict', '');
    await page.fill('#filter-name', 'student-0');
    expect(await visibleRows()).toBe(9);
    // The button beside a mistake shows its submissions alone.
    await page.fill('#filter-name', '');
    await page.locator(`button[data-mistake="${ids[4]}"]`).click();
    expect(await visibleRows()).toBe(3);
    expectNoTroubles(troubles);
  });

  it('sorts the submissions by a column, both ways', async () => {
    const { page, troubles } = await open(classFile);
    const scores = () =>
      page
        .locator('#submissions tbody tr td:nth-child(3)')
        .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-sort'))));
    const header = page.locator('#submissions thead th:nth-child(3) button');
    await header.click();
    const up = await scores();
    expect(up).toEqual([...up].sort((a, b) => a - b));
    expect(await page.locator('#submissions thead th:nth-child(3)').getAttribute('aria-sort')).toBe('ascending');
    await header.click();
    const down = await scores();
    expect(down).toEqual([...up].sort((a, b) => b - a));
    expect(up[0]).toBeLessThan(up.at(-1)!);
    expectNoTroubles(troubles);
  });

  it('runs nothing a submission wrote: every hostile string is text on the page', async () => {
    const { page, troubles } = await open(classFile);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    // Only the page's own elements: one script, one style, no image, no link out, nothing forged.
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('style').count()).toBe(1);
    expect(await page.locator('img, iframe, object, embed, #forged').count()).toBe(0);
    const hrefs = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((h) => !h.startsWith('#'))).toEqual([]);
    expect(await page.locator('body').isVisible()).toBe(true);
    // What the hostile submission wrote, shown as it wrote it. innerText reads only what is drawn, and a section far
    // down is drawn only near the screen (content-visibility): printed, every section is.
    await page.emulateMedia({ media: 'print' });
    const text = await page.locator('body').innerText();
    await page.emulateMedia({ media: 'screen' });
    expect(text).toContain(HOSTILE_NAME);
    expect(text).toContain('<script>window.__pwned = "stderr script"; alert("stderr")</script>');
    expect(text).toContain('<style>body { display: none !important }</style>');
    expect(text).toContain(`<a href="javascript:window.__pwned='link'">click me</a>`);
    expect(text).toContain('</pre></div></td></tr></table><h1 id="forged">all passed</h1>');
    expect(text).toContain('<script>window.__pwned = \\"diff\\"</script>');
    // Bidirectional, control and zero-width characters are shown, never obeyed.
    expect(text).toContain('bidi: \\u202eevil\\u202c and \\u2066isolate\\u2069, controls: ␛[2J␇␈ zero\\u200bwidth');
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b\u0000-\u0008\u001b]/);
    // Its hint quotes what its program threw, as text.
    expect(text).toMatch(/execute threw \(Error: <img src=x onerror="window.__pwned='hint'">/);
    await page.locator(`#submissions a:text-is(${JSON.stringify(HOSTILE_NAME)})`).click();
    await keepScreenshot(page, 'class-hostile');
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expectNoTroubles(troubles);
  });

  it('has no accessibility violations (axe-core)', async () => {
    const { page, troubles } = await open(classFile);
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoTroubles(troubles);
  });

  it('reads the same with scripts off: the counts and every row are plain HTML, the script-only controls hidden', async () => {
    const { page, troubles } = await open(classFile, false);
    expect(await page.locator('#mistake-table tbody tr [data-count]').first().innerText()).toBe('17');
    expect(await page.locator('#submissions tbody tr:visible').count()).toBe(50);
    expect(await page.locator('#filters').isVisible()).toBe(false);
    expect(await page.locator('button:visible').count()).toBe(0);
    await keepScreenshot(page, 'class-no-scripts');
    expectNoTroubles(troubles);
  });

  it('has a Content-Security-Policy that stops a script that got onto the page all the same', async () => {
    const page$ = renderClassHtml(classOf50(graded)).replace(
      '<main>',
      `<main><script>window.__pwned = 'inline'</script><img src="data:," onerror="window.__pwned = 'handler'">`,
    );
    const file = join(scratch.root, 'injected.html');
    await writeFile(file, page$);
    const { page, troubles } = await open(file);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    // The page's own script still ran (its controls are shown), and the browser said what it refused.
    expect(await page.locator('#filters').isVisible()).toBe(true);
    expect(troubles.console.join('\n')).toMatch(/Content Security Policy/);
    expect(troubles.errors).toEqual([]);
  });
});

// 500 submissions: each of the 50 ten times over (a class of 500 as a large course hands it in), every name its own.
function classOf500(run: ClassReport): ClassReport {
  const fifty = classOf50(run).submissions;
  const submissions = Array.from({ length: 10 }, (_, round) =>
    fifty.map((s, i) => ({ ...s, name: `student-${String(round * 50 + i + 1).padStart(3, '0')}` })),
  ).flat();
  return { ...run, submissions };
}

// Element.checkVisibility, which the Node-only typings of this project do not declare.
type Drawable = { checkVisibility: (options: { contentVisibilityAuto: boolean }) => boolean };

describe('a class of 500 in a browser', { timeout: 300_000 }, () => {
  let file = '';
  beforeAll(async () => {
    file = join(scratch.root, 'class-500.html');
    await writeFile(file, renderClassHtml(classOf500(graded)));
  });

  // How fast it loads and sorts is the bench's to measure (bench/html-report.ts), not a test's on a shared machine.
  it('shows and sorts its 500 submissions', async () => {
    const { page, troubles } = await open(file);
    expect(await page.locator('#submissions tbody tr').count()).toBe(500);
    await page.locator('#submissions thead th:nth-child(3) button').click();
    const scores = await page
      .locator('#submissions tbody tr td:nth-child(3)')
      .evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-sort'))));
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    expect(await page.locator('#mistake-table tbody tr [data-count]').first().innerText()).toBe('170');
    await keepScreenshot(page, 'class-500-top');
    expectNoTroubles(troubles);
  });

  // Laid out only near the screen (content-visibility), yet all in the document: a link, the filter and print reach
  // a submission whose details the browser has not drawn.
  it('draws the details of a submission far down only when reached, and finds and prints it all the same', async () => {
    const { page, troubles } = await open(file);
    const failing = classOf500(graded).submissions.findLast((s) => s.verdict === 'fail')!;
    const link = page.locator(`#submissions tbody tr[data-name="${failing.name}"] td:first-child a`);
    const last = page.locator(`section${await link.getAttribute('href')}`);
    expect(await last.locator('h3').textContent()).toBe(failing.name);
    // Whether the browser draws it: false while content-visibility skips it.
    const drawn = () =>
      last.locator('h3').evaluate((h) => (h as unknown as Drawable).checkVisibility({ contentVisibilityAuto: true }));
    expect(await drawn()).toBe(false);
    // The mistake filter finds it from its row, its details never drawn.
    const made = (await link.locator('xpath=ancestor::tr').getAttribute('data-mistakes'))!.split(' ');
    await page.selectOption('#filter-mistake', made[0]!);
    expect(await page.locator(`#submissions tbody tr:visible[data-name="${failing.name}"]`).count()).toBe(1);
    expect(await drawn()).toBe(false);
    // Printed, every submission's details are drawn.
    await page.emulateMedia({ media: 'print' });
    expect(await drawn()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    // Its row's link shows its failures, each a heading and its hint.
    await link.click();
    await expect.poll(drawn).toBe(true);
    expect(await last.locator('.failure h4').first().isVisible()).toBe(true);
    expect(await last.locator('.failure .hint').first().innerText()).toMatch(/^hint: /);
    expectNoTroubles(troubles);
  });

  it('has no accessibility violations (axe-core)', async () => {
    const { page, troubles } = await open(file);
    expect(await accessibilityViolations(page)).toEqual([]);
    expectNoTroubles(troubles);
  });
});

describe('the page of one submission in a browser', { timeout: 180_000 }, () => {
  it('shows each failure with its call, hint and diff, everything the program wrote as text', async () => {
    const { page, troubles } = await open(oneFile);
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    const failures = page.locator('.failure');
    expect(await failures.count()).toBeGreaterThan(0);
    const echo = failures.filter({ hasText: '<script>window.__pwned = \\"diff\\"</script>' }).first();
    expect(await echo.locator('.hint').innerText()).toMatch(/^hint: /);
    expect(await echo.locator('pre .ins').first().innerText()).toMatch(/^\+ received/);
    expect(await echo.innerText()).toMatch(/Call \d+: echo/);
    expect(await page.locator('script').count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, 'one-submission', true);
    expectNoTroubles(troubles);
  });
});

// A real browser for the html report's tests: Debian's Chromium (/usr/bin/chromium, installed by .ci/run) driven by
// playwright-core, headless, offline by its own flags (without the background-networking ones Chromium keeps
// calling out to a network the tests never have), with a fresh profile and its temp files in a directory of its
// own. Every page it opens is watched: a console error, an uncaught error or a dialog is recorded, and a test
// fails on any it did not expect. axe-core checks accessibility; screenshots land in test-results/ (gitignored).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import axe from 'axe-core';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { REPO } from './reference-course.ts';

export const CHROMIUM = '/usr/bin/chromium';

// Where screenshots are kept as the test run's artifacts.
export const ARTIFACTS = join(REPO, 'test-results', 'html-report');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// What went wrong on a page: console errors, uncaught errors, dialogs opened.
export type Troubles = { console: string[]; errors: string[]; dialogs: string[] };

export type Browser = {
  // A page with its troubles recorded; `javaScript: false` opens it with scripts off.
  open: (url: string, options?: { javaScript?: boolean }) => Promise<{ page: Page; troubles: Troubles }>;
  close: () => Promise<void>;
};

// Starts Chromium with a fresh profile in `base` (one per setting of scripts, made when first asked for); `close`
// ends it and removes every file it made.
export async function launchBrowser(base: string): Promise<Browser> {
  const home = await mkdtemp(join(base, 'chromium-'));
  await mkdir(join(home, 'tmp'));
  const contexts = new Map<boolean, BrowserContext>();
  const context = async (javaScript: boolean): Promise<BrowserContext> => {
    const known = contexts.get(javaScript);
    if (known !== undefined) return known;
    const profile = join(home, `profile-${javaScript ? 'scripts' : 'no-scripts'}`);
    // playwright-core makes its own temp dir (playwright-artifacts-*) where Node's tmpdir() points when it launches,
    // and removes it at close: pointed into `home`, so a test's TMPDIR holds nothing of the browser's meanwhile.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = join(home, 'tmp');
    const made = await chromium
      .launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
        javaScriptEnabled: javaScript,
        viewport: { width: 1280, height: 900 },
        offline: true,
        env: { ...process.env, TMPDIR: join(home, 'tmp'), HOME: home },
      })
      .finally(() => {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      });
    contexts.set(javaScript, made);
    return made;
  };
  return {
    open: async (url, options = {}) => {
      const page = await (await context(options.javaScript !== false)).newPage();
      const troubles: Troubles = { console: [], errors: [], dialogs: [] };
      page.on('console', (m) => {
        if (m.type() === 'error') troubles.console.push(m.text());
      });
      page.on('pageerror', (e) => troubles.errors.push(e.message));
      page.on('dialog', (d) => {
        troubles.dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(url);
      return { page, troubles };
    },
    close: async () => {
      for (const c of contexts.values()) await c.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

// axe-core's violations on the page, as `rule: where` lines (none on a page that passes). axe runs through the
// DevTools protocol, which the page's Content-Security-Policy does not govern.
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = await page.evaluate(() =>
    (globalThis as unknown as { axe: { run: () => Promise<AxeResult> } }).axe.run(),
  );
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

type AxeResult = { violations: { id: string; help: string; nodes: { target: string[] }[] }[] };

// A screenshot of the page kept as an artifact: the first screenful, or the whole page.
export async function keepScreenshot(page: Page, name: string, fullPage = false): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

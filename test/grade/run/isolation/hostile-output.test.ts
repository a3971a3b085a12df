// Issue 9's attacks on the report through what the program prints (attacks 8 and 10): terminal escapes that clear
// the screen and print a fake summary over the `[your_program]` prefix, and characters that end a line for some
// reader other than a terminal (U+2028, U+2029, NEL, a lone CR, VT, FF), after which a CI format would start a line
// without the prefix. No sandbox stops a program printing; every reporter must show these characters, not obey them.
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderReport, REPORTER_NAMES } from '../../../../src/grade/report/index.ts';
import { runStage } from '../../../../src/grade/run-stage.ts';
import { SANDBOX } from '../../../support/isolation.ts';
import { makeCourse, useScratch } from '../../course-fixture.ts';
import { BIN, COURSE_CASES, grade, survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
// Nothing a run started survives it: no process is left working in any of this file's courses.
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'courses'))).toEqual([]));
const SUMMARY = /^\d+ passed, \d+ failed$/;

describe('attack 8: terminal escapes on stderr (pretty reporter, stdout not a terminal)', () => {
  it('shows them as text after the prefix: nothing clears the screen, moves the cursor or fakes the summary', async () => {
    const run = await grade(BIN, await makeCourse(scratch, 'hostile-ansi-on-stderr'), 'required', COURSE_CASES);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).not.toMatch(/[\u001b\u009b\r\u0007]/);
    const lines = run.stdout.split('\n');
    expect(lines.filter((l) => SUMMARY.test(l))).toEqual(['0 passed, 3 failed']);
    const fakes = lines.filter((l) => l.includes('112 passed'));
    expect(fakes.length).toBeGreaterThan(0);
    expect(fakes.every((l) => /^ {2}\[your_program\] /.test(l))).toBe(true);
    expect(lines).toContain('  [your_program] ␛[2J␛[H␍112 passed, 0 failed');
  });
});

describe('attack 10: line separators on stderr, in every reporter', () => {
  // One real grading run of the hostile course, rendered by every reporter.
  let rendered: Record<string, string> = {};
  beforeAll(async () => {
    const dir = await makeCourse(scratch, 'hostile-line-separators');
    const report = await runStage({ stage: 'register-tools', dir, cases: ['course-*'], jobs: 1, sandbox: SANDBOX });
    rendered = Object.fromEntries(REPORTER_NAMES.map((name) => [name, renderReport(name, report, { color: false })]));
  });
  // The lines a reader of each format sees, in its diagnoses (where the program's output is prefixed, JUnit's
  // <system-out> too) and in the fields that hold nothing but the program's output (JSON's `output`, a string whose
  // line breaks are `\n`). A reader may end a line at any of these characters, not only at a newline.
  const LINE_ENDS = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/;
  const split = (texts: string[]): string[] => texts.flatMap((t) => t.split(LINE_ENDS));
  type Seen = { diagnoses: string[]; outputs: string[] };
  const junitCases = (text: string): Array<Record<string, unknown>> =>
    (
      new XMLParser({ ignoreAttributes: false, textNodeName: 'text' }).parse(text) as {
        testsuites: { testsuite: { testcase: Array<Record<string, unknown>> } };
      }
    ).testsuites.testsuite.testcase;
  const read: Record<string, (text: string) => Seen> = {
    pretty: (t) => ({ diagnoses: split([t]), outputs: [] }),
    tap: (t) => ({ diagnoses: split([t]), outputs: [] }),
    github: (t) => ({ diagnoses: split([t]), outputs: [] }),
    json: (t) => {
      const tests = (JSON.parse(t) as { tests: { message: string | null; output: string | null }[] }).tests;
      return { diagnoses: split(tests.map((c) => c.message ?? '')), outputs: split(tests.map((c) => c.output ?? '')) };
    },
    // A test's output is its diagnosis (the program's output in it prefixed, as in pretty's).
    gradescope: (t) => {
      const parsed = JSON.parse(t) as { output: string; tests: { output: string }[] };
      return { diagnoses: split([parsed.output, ...parsed.tests.map((c) => c.output)]), outputs: [] };
    },
    // The page's text as a browser shows it: tags dropped, character references read.
    html: (t) => ({ diagnoses: split([pageText(t)]), outputs: [] }),
    junit: (t) => {
      const cases = junitCases(t);
      const body = (c: Record<string, unknown>, key: string): string =>
        String((c[key] as { text?: unknown } | undefined)?.text ?? c[key] ?? '');
      return { diagnoses: split(cases.flatMap((c) => [body(c, 'failure'), body(c, 'system-out')])), outputs: [] };
    },
  };
  const ENTITY: Record<string, string> = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    '#39': "'",
    '#58': ':',
    '#35': '#',
    '#10': '\n',
  };
  const pageText = (page: string): string =>
    page
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, '')
      .replace(/<[^>]*>/g, '')
      .replace(/&(amp|lt|gt|quot|#39|#58|#35|#10);/g, (_, e: string) => ENTITY[e] ?? '');
  const SHOWN = /before(\\u2028|\\u2029|\\u0085|␍|␋|␌|␛\[1G)FAKE-/;

  it.each(REPORTER_NAMES.map((name) => [name]))(
    '%s: no fake summary starts a line; each is shown on the line it came in, prefixed',
    async (name) => {
      const { diagnoses, outputs } = read[name]!(rendered[name]!);
      const fakes = diagnoses.filter((l) => l.includes('FAKE-'));
      // Printed once, at import: the output of the first case of the one process (JUnit shows it twice: in the
      // failure's diagnosis and in <system-out>).
      expect(fakes.length).toBe(name === 'junit' ? 14 : 7);
      for (const line of fakes) expect(line).toMatch(new RegExp(`\\[your_program\\] ${SHOWN.source}`));
      for (const line of outputs.filter((l) => l.includes('FAKE-')))
        expect(line).toMatch(new RegExp(`^${SHOWN.source}`));
      expect(
        [...diagnoses, ...outputs].filter((l) => SUMMARY.test(l.trim()) && l.trim() !== '0 passed, 3 failed'),
      ).toEqual([]);
    },
  );
});

describe("issue 24: a result's key with a bidi override and a line separator, in every reporter", () => {
  // The characters a reader acts on that JSON.stringify leaves as they are: line and paragraph separators and the
  // bidirectional controls (test/fixtures/hostile-result-keys puts U+2028 and U+202E in a key of its result).
  const ACTS = /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
  let rendered: Record<string, string> = {};
  beforeAll(async () => {
    const dir = await makeCourse(scratch, 'hostile-result-keys');
    const report = await runStage({
      stage: 'register-tools',
      dir,
      cases: ['course-read-seeded-file'],
      jobs: 1,
      sandbox: SANDBOX,
    });
    rendered = Object.fromEntries(REPORTER_NAMES.map((name) => [name, renderReport(name, report, { color: false })]));
  });

  it.each(REPORTER_NAMES.map((name) => [name]))('%s: shows the key escaped, never acting', (name) => {
    const text = rendered[name]!;
    expect(text).not.toMatch(ACTS);
    // The key is in the report all the same, each character named.
    expect(text).toMatch(/key(\\\\|\\)u202edeliaf/);
  });
});

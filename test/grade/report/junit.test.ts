import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { mergeToString } from 'junit-report-merger';
import { afterAll, describe, expect, it } from 'vitest';
import { caseStatus } from '../../../src/grade/report/case-status.ts';
import { render } from '../../../src/grade/report/junit.ts';
import { oneLine, plainText } from '../../../src/grade/report/plain-text.ts';
import { visibleText } from '../../../src/grade/report/visible-text.ts';
import type { RunReport } from '../../../src/grade/types.ts';
import { ctx, diagnose, report, RUNS, mismatch, crash, pass, VARIANT_SEED } from './reports.ts';

// Elements that may repeat, so the parsed shape does not depend on how many there are.
const REPEATED = new Set(['testsuite', 'testcase', 'failure', 'error', 'system-out']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  htmlEntities: true,
  parseAttributeValue: false,
  isArray: (name) => REPEATED.has(name),
});

type Node = Record<string, any>;

// Anything outside XML 1.0's Char production (fast-xml-parser's validator does not check characters).
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

// The Jenkins xunit plugin's JUnit schema, as we wrote it down from its documented structure (the file's header).
const SCHEMA = join(import.meta.dirname, '..', '..', 'fixtures', 'junit', 'jenkins-junit-10.xsd');
const scratch = mkdtempSync(join(tmpdir(), 'theinference-junit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// What `xmllint --schema` (libxml2-utils, as .ci/run installs it) says of a report: '' when it validates.
function schemaErrors(xml: string): string {
  const file = join(scratch, 'report.xml');
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

// Well-formed XML 1.0, parsed.
function parse(xml: string): Node {
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml).not.toMatch(NOT_XML_CHAR);
  return parser.parse(xml);
}

describe('junit reporter', () => {
  describe.each(Object.entries(RUNS))('%s run', (_, run) => {
    const xml = render(run, ctx);
    const doc: Node = parser.parse(xml);
    const suites: Node = doc.testsuites;
    const suite: Node = suites.testsuite[0];
    const cases: Node[] = suite.testcase ?? [];
    const statuses = run.cases.map(caseStatus);
    const count = (s: string) => String(statuses.filter((x) => x === s).length);

    it('is well-formed XML 1.0 with a declaration', () => {
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
      parse(xml);
    });

    it("validates against the Jenkins xunit plugin's JUnit schema", () => {
      expect(schemaErrors(xml)).toBe('');
    });

    it('is one <testsuite> named for the stage inside <testsuites>, both with the counts and the summed case times', () => {
      expect(suites.testsuite).toHaveLength(1);
      const summed = (run.cases.reduce((ms, c) => ms + c.durationMs, 0) / 1000).toFixed(6);
      for (const node of [suites, suite]) {
        expect(node.tests).toBe(String(run.cases.length));
        expect(node.failures).toBe(count('fail'));
        expect(node.errors).toBe(count('error'));
        expect(node.time).toBe(summed);
      }
      expect(suite.skipped).toBe('0');
      expect(suites.skipped).toBeUndefined();
      expect(suite.name).toBe(run.stage);
    });

    it("names the stage's student file on the suite, and in each failure's last line as a stack frame", () => {
      expect(suite.file).toBe(run.stage === 'register-tools' ? 'src/execute.ts' : undefined);
      for (const node of cases) {
        const problem = node.failure?.[0] ?? node.error?.[0];
        if (problem === undefined || run.stage !== 'register-tools') continue;
        expect(problem['#text'].split('\n').at(-1)).toMatch(/^ {4}at makeExecute \(src\/execute\.ts:\d+:1\)$/);
      }
    });

    it('has one <testcase> per case: classname = stage, name = case, time in seconds', () => {
      expect(cases.map((c) => c.name)).toEqual(run.cases.map((c) => oneLine(c.name)));
      for (const [i, c] of cases.entries()) {
        expect(c.classname).toBe(run.stage);
        expect(c.time).toBe((run.cases[i]!.durationMs / 1000).toFixed(6));
      }
    });

    it('gives a wrong answer a <failure>, a missing answer an <error>, with the diagnosis as body', () => {
      run.cases.forEach((c, i) => {
        const node = cases[i]!;
        const status = caseStatus(c);
        expect(node.failure === undefined).toBe(status !== 'fail');
        expect(node.error === undefined).toBe(status !== 'error');
        const problem = node.failure?.[0] ?? node.error?.[0];
        if (problem === undefined) return;
        expect(problem.type).toBe(c.failure!.kind);
        expect(problem.message).toBe(oneLine(c.failure!.message));
        expect(problem['#text'].startsWith(plainText(diagnose(c)))).toBe(true);
      });
    });

    it('keeps each case output in <system-out>, every line prefixed as the terminal shows it', () => {
      run.cases.forEach((c, i) => {
        const out = cases[i]!['system-out'];
        if (c.output === '') expect(out).toBeUndefined();
        else
          expect(out[0]).toBe(
            plainText(visibleText(c.output))
              .replace(/\n$/, '')
              .split('\n')
              .map((line) => `[your_program] ${line}`)
              .join('\n'),
          );
      });
    });
  });

  it('survives hostile text: ]]> round-trips, escapes and control characters show instead of acting', () => {
    const xml = render(RUNS.hostile!, ctx);
    const out: string = parse(xml).testsuites.testsuite[0].testcase[1]['system-out'][0];
    expect(out).toContain('cdata ]]> end and ]]]]> twice');
    expect(out).toContain('colour \u241b[31mred\u241b[0m and bell \u2407 nul \u2400 next-line \\u0085 del \u2421');
    expect(out).toContain('unicode: ✓ café 日本語 עברית 🎉 lone \ufffd surrogate');
    expect(xml).not.toContain('\u001b');
  });

  it('escapes names and messages in attributes', () => {
    const failure = parse(render(RUNS.hostile!, ctx)).testsuites.testsuite[0].testcase[0].failure[0];
    expect(failure.message).toBe('call 2 of 2 (Edit) returned a different result: ]]> ::add-mask::y %0A');
  });

  it("gives the run's variants as suite properties", () => {
    const suite = parse(render(RUNS.variants!, ctx)).testsuites.testsuite[0];
    expect(suite.properties.property.slice(0, 3)).toEqual([
      { name: 'variants.seed', value: String(VARIANT_SEED) },
      { name: 'variants.judged', value: '2' },
      { name: 'variants.none', value: '1' },
    ]);
    const plain = parse(render(RUNS.passing!, ctx)).testsuites.testsuite[0].properties.property;
    expect(plain.map((p: Node) => p.name)).toEqual(['score', 'max_score']);
  });

  it("writes the run's score on the suite, and no <properties> in a testcase (the schema has none there)", () => {
    const xml = render(RUNS.weighted!, ctx);
    expect(schemaErrors(xml)).toBe('');
    expect(xml).toContain(
      '    <properties>\n      <property name="score" value="4"/>\n      <property name="max_score" value="6"/>\n    </properties>\n    <testcase',
    );
    expect(xml.match(/<properties>/g)).toHaveLength(1);
    expect(render(RUNS.failing!, ctx)).toContain('<property name="max_score" value="3"/>');
  });

  it("gives the frame the line a stack trace names in the student's file", () => {
    const thrown = { ...crash, output: 'TypeError: x\n    at makeExecute (/tmp/c/src/execute.ts:17:9)\n' };
    const body = parse(render(report('register-tools', [thrown]), ctx)).testsuites.testsuite[0].testcase[0].error[0];
    expect(body['#text'].split('\n').at(-1)).toBe('    at makeExecute (src/execute.ts:17:1)');
  });

  it('names the file as the caller places it (relative to where CI runs)', () => {
    const xml = render(report('register-tools', [mismatch]), { ...ctx, fileOf: () => 'course/src/execute.ts' });
    expect(xml).toContain('file="course/src/execute.ts"');
    expect(xml).toContain('at makeExecute (course/src/execute.ts:1:1)');
  });

  it("writes a class submission's name as every report does: a bidi control and a line break as escapes", () => {
    const xml = render(report('register-tools', [mismatch]), { ...ctx, submission: 'rlo\u202egnp\nexe' });
    const suite = parse(xml).testsuites.testsuite[0];
    expect(suite.name).toBe('rlo\\u202egnp\\nexe');
    expect(suite.testcase[0].classname).toBe('rlo\\u202egnp\\nexe.register-tools');
    expect(xml).not.toMatch(/\u202e/u);
  });

  it('writes a passing case as an empty element', () => {
    expect(render(report('s', [pass('echo')]), ctx)).toContain('<testcase classname="s" name="echo" time="0.041000"/>');
  });

  it('merges across shards: suites concatenated as junit-report-merger does keep every case once', () => {
    const shards: RunReport[] = [report('register-tools', [mismatch, pass('echo')]), report('register-tools', [crash])];
    const suites = shards.map((r) => {
      const xml = render(r, ctx);
      return xml.slice(xml.indexOf('<testsuite '), xml.indexOf('</testsuites>'));
    });
    const merged = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('')}</testsuites>\n`;
    const parsed: Node[] = parse(merged).testsuites.testsuite;
    expect(parsed.map((s) => s.name)).toEqual(['register-tools', 'register-tools']);
    const ids = parsed.flatMap((s) => s.testcase.map((c: Node) => `${c.classname}/${c.name}`));
    expect(ids).toEqual(['register-tools/read-alias', 'register-tools/echo', 'register-tools/bash-alias']);
  });

  it("merged by junit-report-merger: one suite, the counts and score properties add up to the whole's", async () => {
    const weighted = RUNS.weighted!;
    const halves = [weighted.cases.slice(0, 2), weighted.cases.slice(2)].map((cases) =>
      render(report(weighted.stage, cases), ctx),
    );
    for (const half of halves) expect(schemaErrors(half)).toBe('');
    const merged = await mergeToString(halves);
    // The merger rolls the suites' `skipped` up onto <testsuites>, where the Jenkins schema has none: Jenkins takes
    // the shard files as they are (docs/reporters.md). Apart from that the merged file is valid.
    expect(schemaErrors(merged)).toContain("Element 'testsuites', attribute 'skipped'");
    expect(schemaErrors(merged.replace(/(<testsuites[^>]*) skipped="0"/, '$1'))).toBe('');
    const suites: Node[] = parse(merged).testsuites.testsuite;
    expect(suites).toHaveLength(1);
    expect(suites[0]!.tests).toBe(String(weighted.cases.length));
    const blocks: Node[] = [suites[0]!.properties].flat();
    const summed = (name: string) =>
      blocks.reduce((sum, b) => sum + Number([b.property].flat().find((p: Node) => p.name === name)?.value ?? 0), 0);
    expect(summed('score')).toBe(4);
    expect(summed('max_score')).toBe(6);
  });
});

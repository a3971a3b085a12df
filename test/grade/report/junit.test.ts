import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
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

    it('is one <testsuite> named for the stage inside <testsuites>, both with the counts', () => {
      expect(suites.testsuite).toHaveLength(1);
      for (const node of [suites, suite]) {
        expect(node.tests).toBe(String(run.cases.length));
        expect(node.failures).toBe(count('fail'));
        expect(node.errors).toBe(count('error'));
        expect(node.skipped).toBe('0');
        expect(node.time).toBe('1.234');
      }
      expect(suite.name).toBe(run.stage);
    });

    it('has one <testcase> per case: classname = stage, name = case, time in seconds', () => {
      expect(cases.map((c) => c.name)).toEqual(run.cases.map((c) => oneLine(c.name)));
      for (const [i, c] of cases.entries()) {
        expect(c.classname).toBe(run.stage);
        expect(c.time).toBe((run.cases[i]!.durationMs / 1000).toFixed(3));
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
        expect(problem['#text']).toBe(plainText(diagnose(c)));
      });
    });

    it('keeps each case output in <system-out>', () => {
      run.cases.forEach((c, i) => {
        const out = cases[i]!['system-out'];
        if (c.output === '') expect(out).toBeUndefined();
        else expect(out[0]).toBe(plainText(visibleText(c.output)));
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
    expect(suite.properties.property).toEqual([
      { name: 'variants.seed', value: String(VARIANT_SEED) },
      { name: 'variants.judged', value: '2' },
      { name: 'variants.none', value: '1' },
    ]);
    expect(parse(render(RUNS.passing!, ctx)).testsuites.testsuite[0].properties).toBeUndefined();
  });

  it("writes a weighted run's score on the suite and each case's points and visibility that its file sets", () => {
    const xml = render(RUNS.weighted!, ctx);
    parse(xml);
    expect(xml).toContain(
      '    <properties>\n      <property name="score" value="4"/>\n      <property name="max_score" value="6"/>\n    </properties>\n    <testcase',
    );
    expect(xml).toContain(
      '<testcase classname="register-tools" name="edit-hidden" time="0.052">\n      <properties>\n        <property name="points" value="2"/>\n        <property name="visibility" value="hidden"/>\n      </properties>\n      <failure ',
    );
    expect(xml).toContain('<property name="visibility" value="after_due_date"/>');
    expect(render(RUNS.failing!, ctx)).not.toContain('<properties>');
  });

  it('writes a passing case as an empty element', () => {
    expect(render(report('s', [pass('echo')]), ctx)).toContain('<testcase classname="s" name="echo" time="0.041"/>');
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
});

import { Parser, type FinalResults, type Result } from 'tap-parser';
import { describe, expect, it } from 'vitest';
import { caseStatus } from '../../../src/grade/report/case-status.ts';
import { oneLine, plainText } from '../../../src/grade/report/plain-text.ts';
import { render, tapDescription } from '../../../src/grade/report/tap.ts';
import { ctx, diagnose, RUNS, VARIANT_SEED } from './reports.ts';

type Parsed = {
  asserts: Result[];
  comments: string[];
  extra: string[];
  final: FinalResults;
  version: number | undefined;
};

// A strict TAP 14 parse: any non-TAP line or malformed YAML block shows up in `extra` or as a failure.
function parseTap(text: string): Parsed {
  const parser = new Parser({ strict: true });
  const parsed: Partial<Parsed> = { asserts: [], comments: [], extra: [] };
  parser.on('version', (v: number) => (parsed.version = v));
  parser.on('assert', (r: Result) => parsed.asserts!.push(r));
  parser.on('comment', (c: string) => parsed.comments!.push(c));
  parser.on('extra', (e: string) => parsed.extra!.push(e));
  parser.on('complete', (f: FinalResults) => (parsed.final = f));
  parser.end(text);
  return parsed as Parsed;
}

describe('tap reporter', () => {
  describe.each(Object.entries(RUNS))('%s run', (_, run) => {
    const text = render(run, ctx);
    const { asserts, comments, extra, final, version } = parseTap(text);

    it('is TAP version 14 with a plan, and nothing a strict parser rejects', () => {
      expect(text.startsWith('TAP version 14\n')).toBe(true);
      expect(version).toBe(14);
      expect(extra).toEqual([]);
      expect(final.plan).toMatchObject({ start: 1, end: run.cases.length });
      expect(final.failures.filter((f) => f.tapError)).toEqual([]);
    });

    it('counts every case, ok or not ok, under its name', () => {
      expect([final.count, final.pass, final.fail]).toEqual([run.cases.length, run.passed, run.failed]);
      expect(asserts.map((a) => [a.id, a.ok, a.name])).toEqual(
        run.cases.map((c, i) => [i + 1, c.status === 'pass', oneLine(c.name).trim()]),
      );
    });

    it('gives each failure a YAML diagnostic that parses back to its fields', () => {
      run.cases.forEach((c, i) => {
        const diag = asserts[i]!.diag;
        if (c.status === 'pass') {
          expect(diag).toBeNull();
          return;
        }
        const f = c.failure!;
        expect(diag.message).toBe(plainText(f.message));
        expect(diag.severity).toBe(caseStatus(c));
        expect(diag.kind).toBe(f.kind);
        expect(diag.callIndex).toBe(f.callIndex);
        expect(diag.tool).toBe(f.call?.tool);
        expect(diag.input).toEqual(f.call?.input);
        expect(diag.expected).toEqual(f.expected);
        expect(diag.received).toEqual(f.received);
        expect(diag.hint).toBe(f.hint === undefined ? undefined : oneLine(f.hint));
        // node-tap's names for the two sides, and tape's.
        expect(diag.wanted).toEqual(f.expected);
        expect(diag.found).toEqual(f.received);
        expect(diag.actual).toEqual(f.received);
        if (f.expected !== undefined && f.received !== undefined) {
          expect(diag.diff).toMatch(/^--- expected\n\+\+\+ actual\n@@ /);
        } else expect(diag.diff).toBeUndefined();
        // A stack frame, as tape and node-tap's `stack` write one: tap-mocha-reporter and tap-spec read strings there.
        if (run.stage === 'register-tools') {
          expect(diag.at).toMatch(/^makeExecute \(src\/execute\.ts:\d+:1\)$/);
          expect(diag.stack).toBe(diag.at);
        }
        expect(diag.diagnosis).toBe(plainText(diagnose(c)).replace(/\n+$/, ''));
        expect(asserts[i]!.time).toBe(c.durationMs);
      });
    });

    it('ends with the comment "# N passed, N failed"', () => {
      expect(text.endsWith(`\n# ${run.passed} passed, ${run.failed} failed\n`)).toBe(true);
      expect(comments.at(-1)).toBe(`# ${run.passed} passed, ${run.failed} failed\n`);
    });
  });

  it("says the variants' seed in a comment before the counts", () => {
    const parsed = parseTap(render(RUNS.variants!, ctx));
    expect(parsed.extra).toEqual([]);
    expect(parsed.comments.map((c) => c.trim()).slice(-2)).toEqual([
      `# variants: seed ${VARIANT_SEED}, 2 cases also checked on renamed files; 1 had none (--seed ${VARIANT_SEED} repeats them)`,
      '# 1 passed, 1 failed',
    ]);
  });

  it('skips an empty run in its plan', () => {
    expect(render(RUNS.empty!, ctx)).toContain('\n1..0 # SKIP no cases selected\n');
  });

  it('keeps received values exactly, control characters included', () => {
    const diag = parseTap(render(RUNS.hostile!, ctx)).asserts[0]!.diag;
    expect(diag.received.content).toBe('\u001b[31mboom\u001b[0m\r\n::add-mask::z \u0085 \u2028 \ufeff');
    expect(diag.input.new_str).toBe('::set-output name=x::]]>');
  });

  it('keeps a diagnosis whose lines look like YAML or TAP markers inside its block', () => {
    const c = { ...RUNS.failing!.cases[1]!, output: '...\n---\n  ...\nnot ok 9 - fake\n# comment\n\n  indented' };
    const { asserts, final } = parseTap(render({ ...RUNS.failing!, cases: [c] }, ctx));
    expect(final.count).toBe(1);
    expect(asserts[0]!.diag.diagnosis).toContain(
      '  program output:\n  ...\n  ---\n    ...\n  not ok 9 - fake\n  # comment\n  \n    indented',
    );
  });

  it.each([
    ['plain', 'read-alias', 'read-alias'],
    ['hash', 'a # TODO b', 'a \\# TODO b'],
    ['backslash', 'a\\b', 'a\\\\b'],
    ['newline', 'a\nb', 'a b'],
  ])('escapes a description with a %s', (_, name, description) => {
    expect(tapDescription(name)).toBe(description);
  });

  it('does not let a # in a name become a directive', () => {
    const [a] = parseTap(
      render({ ...RUNS.passing!, cases: [{ ...RUNS.passing!.cases[0]!, name: 'x # SKIP y' }], passed: 1 }, ctx),
    ).asserts;
    expect([a!.name, a!.skip]).toEqual(['x # SKIP y', false]);
  });
});

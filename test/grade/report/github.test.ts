import { describe, expect, it } from 'vitest';
import { ANNOTATIONS_PER_STEP, MESSAGE_LIMIT, render } from '../../../src/grade/report/github.ts';
import { oneLine, plainText } from '../../../src/grade/report/plain-text.ts';
import { UNTRUSTED_PREFIX } from '../../../src/grade/report/workflow-command.ts';
import type { CaseResult } from '../../../src/grade/types.ts';
import { ctx, diagnose, mismatch, report, RUNS, VARIANT_SEED } from './reports.ts';
import { readLog, type Command, type LogLine } from './workflow-log.ts';

// The commands this reporter means to issue; a token of stop-commands is also accepted as a resume.
const OURS = new Set(['error', 'notice', 'group', 'endgroup', 'stop-commands']);

describe('github reporter', () => {
  describe.each(Object.entries(RUNS))('%s run', (_, run) => {
    const text = render(run, ctx);
    const log = readLog(text);
    const failed = run.cases.filter((c) => c.status === 'fail');
    const tokens = new Set(log.commands.filter((c) => c.name === 'stop-commands').map((c) => c.data));
    const named = (name: string): Command[] => log.commands.filter((c) => c.name === name);

    it('issues only its own commands: annotations, groups, and stop/resume pairs', () => {
      for (const c of log.commands) expect(OURS.has(c.name) || tokens.has(c.name)).toBe(true);
      expect(log.commands.filter((c) => tokens.has(c.name))).toHaveLength(tokens.size);
    });

    it('annotates each failing case, up to the per-step bound, with its message and hint', () => {
      const errors = named('error');
      expect(errors).toHaveLength(Math.min(failed.length, ANNOTATIONS_PER_STEP));
      const annotated = failed.filter((c) => errors.some((e) => e.properties.title === oneLine(c.name)));
      expect(annotated).toHaveLength(errors.length);
      errors.forEach((e, i) => {
        const c = annotated[i]!;
        const line = e.properties.line === undefined ? {} : { line: e.properties.line };
        expect(e.properties).toEqual({ file: 'src/execute.ts', ...line, title: oneLine(c.name) });
        expect(e.data.startsWith(plainText(c.failure!.message))).toBe(true);
        if (c.failure!.hint !== undefined) expect(e.data).toContain(`Hint: ${plainText(c.failure!.hint)}`);
        expect(e.data.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
      });
    });

    it('says in one notice how many failures were left without an annotation', () => {
      const left = failed.length - ANNOTATIONS_PER_STEP;
      const notices = named('notice');
      if (left <= 0) return expect(notices).toEqual([]);
      expect(notices).toHaveLength(1);
      expect(notices[0]!.data).toMatch(new RegExp(`^${left} more failing cases have no annotation`));
    });

    it('puts each full diagnosis, intact, in a group titled with its case', () => {
      const groups = named('group');
      expect(groups.map((g) => g.data)).toEqual(failed.map((c) => `FAIL ${oneLine(c.name)}`));
      const ends = named('endgroup');
      groups.forEach((g, i) => {
        const inside = log.plain.filter((l) => l.line > g.line && l.line < ends[i]!.line);
        const body = inside.map((l) => l.text.slice(UNTRUSTED_PREFIX.length)).join('\n');
        expect(body).toBe(plainText(diagnose(failed[i]!)));
      });
    });

    it('never lets an untrusted line start a command: every one prefixed, all inside stop-commands', () => {
      const untrusted: LogLine[] = log.plain.slice(0, -1);
      for (const l of untrusted) {
        expect(l.stopped).toBe(true);
        expect(l.text.startsWith(UNTRUSTED_PREFIX)).toBe(true);
        expect(l.text.trimStart().startsWith('::')).toBe(false);
      }
    });

    it('keeps every ::command inert by its prefix alone, were stop-commands ignored', () => {
      const unstopped = readLog(text, { honourStop: false });
      const fromStudent = unstopped.commands.filter((c) => !OURS.has(c.name) && !tokens.has(c.name));
      expect(fromStudent.filter((c) => !log.lines[c.line]!.includes('##['))).toEqual([]);
    });

    it('summarises, then ends with the plain line "N passed, N failed"', () => {
      expect(log.lines.at(-1)).toBe(`${run.passed} passed, ${run.failed} failed`);
      expect(text.endsWith('\n')).toBe(true);
      const summary = log.plain.find((l) => l.text.startsWith(`${UNTRUSTED_PREFIX}${run.stage}: `));
      expect(summary).toBeDefined();
      expect(summary!.line).toBeLessThan(named('group')[0]?.line ?? Infinity);
    });

    it('has no colour and no carriage return', () => {
      expect(text).not.toMatch(/[\u001b\r]/);
    });
  });

  it('quarantines hostile output: no mask, output, or early group end reaches the runner', () => {
    const log = readLog(render(RUNS.hostile!, ctx));
    const names = log.commands.map((c) => c.name);
    for (const bad of ['add-mask', 'set-output', 'warning', 'pwned', 'debug']) expect(names).not.toContain(bad);
    expect(names.filter((n) => n === 'endgroup')).toHaveLength(1);
    const shown = log.plain.map((l) => l.text);
    expect(shown).toContain(`${UNTRUSTED_PREFIX}  ::add-mask::x`);
    expect(shown).toContain(`${UNTRUSTED_PREFIX}  mid-line ##[add-mask]secret and ##[group]fake`);
  });

  it('annotates the first case of every cause before a second case of any: one mistake leaves room for others', () => {
    const same = Array.from({ length: 12 }, (_, i) => ({ ...mismatch, name: `read-${String(i).padStart(2, '0')}` }));
    const other: CaseResult = {
      ...mismatch,
      name: 'zz-edit',
      failure: { ...mismatch.failure!, hint: 'Edit passes old_str and new_str' },
    };
    const errors = readLog(render(report('register-tools', [...same, other]), ctx)).commands.filter(
      (c) => c.name === 'error',
    );
    expect(errors.map((e) => e.properties.title)).toEqual([
      ...same.slice(0, ANNOTATIONS_PER_STEP - 1).map((c) => c.name),
      'zz-edit',
    ]);
  });

  it('gives a program that did not start one annotation, and no notice of cases left out', () => {
    const notStarted = (name: string): CaseResult => ({
      ...mismatch,
      name,
      output: 'Error: not ready\n    at file:///c/src/execute.ts:3:7\n',
      failure: {
        kind: 'crash',
        message: 'the program exited with code 1 before running any case',
        beforeAnyCase: true,
      },
    });
    const names = Array.from({ length: 15 }, (_, i) => `case-${i}`);
    const commands = readLog(render(report('register-tools', names.map(notStarted)), ctx)).commands;
    const errors = commands.filter((c) => c.name === 'error');
    expect(errors.map((e) => [e.properties.title, e.properties.line])).toEqual([['case-0', '3']]);
    expect(commands.filter((c) => c.name === 'notice')).toEqual([]);
  });

  it('puts a failure thrown inside execute on the line its stack names', () => {
    const threw: CaseResult = {
      ...mismatch,
      output: 'execute threw TypeError: x\n    at <anonymous> (src/execute.ts:15:38)\n',
    };
    const [error] = readLog(render(report('register-tools', [threw]), ctx)).commands.filter((c) => c.name === 'error');
    expect(error?.properties).toMatchObject({ file: 'src/execute.ts', line: '15' });
  });

  it('escapes a hostile case name in the annotation title and group title', () => {
    const [error] = readLog(render(RUNS.hostile!, ctx)).commands;
    expect(error).toMatchObject({ name: 'error', properties: { title: 'edit # weird \\ name: a,b' } });
    expect(error!.data).toContain('::add-mask::y %0A');
  });

  it('cuts an annotation message over the limit, visibly', () => {
    const long: CaseResult = { ...mismatch, failure: { ...mismatch.failure!, message: 'x'.repeat(5000) } };
    const [error] = readLog(render(report('register-tools', [long]), ctx)).commands;
    expect(error!.data).toHaveLength(MESSAGE_LIMIT);
    expect(error!.data.endsWith('…')).toBe(true);
  });

  it("says the variants' seed in the summary", () => {
    expect(render(RUNS.variants!, ctx)).toContain(
      `| variants: seed ${VARIANT_SEED}, 2 cases also checked on renamed files`,
    );
  });

  it('gives the command that re-runs just the failures, as the CLI made it', () => {
    const command = "npx theinference test --stage register-tools --case read-alias --case 'it'\\''s odd'";
    const text = render(report('register-tools', [mismatch, { ...mismatch, name: "it's odd" }]), {
      ...ctx,
      rerunCommand: command,
    });
    expect(text).toContain(`| Re-run just the failures: ${command}\n`);
  });
});

// Issue 36's boundary at every stage (each mode's folder serves its cases from the grader,
// src/modes/<mode>/serve.ts): a student's module that knows every expected answer (the snapshots ship with the
// package) and writes each case's expected result line to fd 1, exactly as the driver once did, passes none of its
// stage's cases, since the grader makes every result line itself from what it was given over the channel, and reads
// the program's stdout as output only. The forged lines show as the program's output.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../../../src/course/load-cases.ts';
import { readSnapshot, snapshotPath } from '../../../../src/course/snapshot-file.ts';
import { STAGES, studentCode } from '../../../../src/course/stages.ts';
import { judgeCase } from '../../../../src/grade/judge/judge-case.ts';
import { type CaseRun, runBatches } from '../../../../src/grade/run/run-batches.ts';
import { hasAspect } from '../../../../src/modes/mode-table.ts';
import { makeCourse, makeLoopCourse, REPO, useScratch } from '../../course-fixture.ts';
import { CONFINEMENT } from '../../../support/isolation.ts';

const scratch = useScratch();
const SERVED = STAGES.filter((s) => hasAspect(s.mode, 'serve'));

// A module of the stage's that, as it loads, writes every case's expected result line to fd 1 itself (through the
// stream's own write: the driver points process.stdout.write at stderr), in the batch's order, and whose export
// then says so on fd 1 and throws.
function forger(lines: string[], exported: string): string {
  return [
    "import { Writable } from 'node:stream';",
    'const fd1 = (text: string) => Writable.prototype.write.call(process.stdout, text);',
    `for (const line of ${JSON.stringify(lines)}) fd1(line + '\\n');`,
    `export async function ${exported}(): Promise<never> {`,
    `  fd1('forger: wrote ${lines.length} lines\\n');`,
    "  throw new Error('forger: the answers went to fd 1');",
    '}',
    '',
  ].join('\n');
}

describe("a student's module that writes every expected result line itself", () => {
  it('covers every stage', () => {
    expect(SERVED.map((s) => s.slug)).toEqual(STAGES.map((s) => s.slug));
  });

  it.each(SERVED.map((s) => [s.slug]))(
    'passes none of the cases of %s',
    async (slug) => {
      const stage = STAGES.find((s) => s.slug === slug)!;
      const cases = await loadCases(REPO, slug);
      const snapshots = await Promise.all(cases.map((c) => readSnapshot(snapshotPath(REPO, slug, c.name))));
      const lines = snapshots.map((s) => JSON.stringify({ results: s!.results }));
      const course = stage.mode === 'dispatch' ? await makeCourse(scratch) : await makeLoopCourse(scratch);
      const code = studentCode(stage);
      await writeFile(join(course, code.module), forger(lines, code.export));
      const runs = new Map<string, CaseRun>();
      await runBatches({
        dir: course,
        stage: slug,
        cases: cases.map((c) => ({ name: c.name, file: c.file })),
        jobs: 2,
        timeoutMs: 30_000,
        env: process.env,
        confinement: CONFINEMENT,
        onCase: (r) => runs.set(r.name, r),
      });
      expect(runs.size).toBe(cases.length);
      const passed = cases.filter((c, k) => judgeCase(c, snapshots[k]!, runs.get(c.name)!).status === 'pass');
      expect(passed.map((c) => c.name)).toEqual([]);
      // What it wrote is output, shown as its own.
      const output = [...runs.values()].map((r) => r.output).join('');
      expect(output).toContain(`forger: wrote ${lines.length} lines`);
    },
    240_000,
  );
});

// The plan-todos suite is only as good as the wrong plan loops it catches: the reference and a plan loop written
// from the page alone pass every case, the stub fails every case with one message naming its page, and every
// catalogued mistake (test/fixtures/wrong-plan/) fails a case with the one message catalogued for it. Each case runs
// through the plan mode's driver (the loop mode's fake Messages API and the real SDK), in this process.
import { beforeAll, expect, test } from 'vitest';
import { auditCatalogue } from '../src/grade/audit/audit-catalogue.ts';
import { type GradedCase, gradeInProcess, loadGradedCases } from '../src/grade/audit/grade-in-process.ts';
import { groupFailures } from '../src/grade/report/group-failures.ts';
import { runPlanLoop } from '../src/plan-loop.ts';
import { runPlanLoop as stub } from '../course-template/src/plan-loop.ts';
import { planLoop } from './fixtures/wrong-plan/plan-loop-parts.ts';
import { CATALOGUE } from './fixtures/wrong-plan/catalogue.ts';
import { REPO } from './support/reference-course.ts';

let graded: GradedCase[] = [];
beforeAll(async () => {
  graded = await loadGradedCases(REPO, 'plan-todos');
});

test('the stage has at least 20 cases, at least half of them from real recorded turns, each saying where from', () => {
  const sources = graded.map((g) => (g.case.data as { source?: Record<string, unknown> }).source);
  const recorded = sources.filter((s) => s?.format === 'claude-code' && typeof s.transcript === 'string');
  const byHand = sources.filter((s) => s?.written === 'by hand' && typeof s.why === 'string');
  expect(graded.length).toBeGreaterThanOrEqual(20);
  expect(recorded.length + byHand.length).toBe(graded.length);
  expect(recorded.length * 2).toBeGreaterThanOrEqual(graded.length);
});

test('the reference passes every case', { timeout: 120_000 }, async () => {
  const results = await gradeInProcess(graded, runPlanLoop);
  expect(results.filter((r) => r.status !== 'pass').map((r) => r.name)).toEqual([]);
});

test("a plan loop written from the page alone (the catalogue's parts, none changed) passes every case", {
  timeout: 120_000,
}, async () => {
  const results = await gradeInProcess(graded, planLoop({}));
  expect(results.filter((r) => r.status !== 'pass').map((r) => r.name)).toEqual([]);
});

test('the stub fails every case with one message, which names the page', { timeout: 120_000 }, async () => {
  const results = await gradeInProcess(graded, stub);
  expect(results.every((r) => r.status === 'fail')).toBe(true);
  const groups = groupFailures(results);
  expect(groups).toHaveLength(1);
  const failure = groups[0]?.results[0]?.failure;
  expect(failure?.message).toMatch(
    /^runPlanLoop threw \("Error: runPlanLoop is not written yet \(src\/plan-loop\.ts\)/,
  );
  expect(JSON.stringify(failure?.received)).toContain('the course page \\"Plan with a todo list\\"');
});

test('audit catches every catalogued mistake (at least 15) and names each with its one message', {
  timeout: 600_000,
}, async () => {
  expect(CATALOGUE.length).toBeGreaterThanOrEqual(15);
  const { matrix } = await auditCatalogue(REPO, 'plan-todos');
  const unnamed = matrix.mistakes
    .filter((m) => !m.named)
    .map((m) => `${m.slug}: ${m.messages.map((g) => g.hint).join(' | ')}`);
  expect(unnamed).toEqual([]);
  expect(matrix.uncaught).toEqual([]);
  expect(matrix.mistakes.every((m) => m.messages.length === 1)).toBe(true);
});

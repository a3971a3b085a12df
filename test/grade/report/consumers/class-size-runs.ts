// Run reports at the size a class produces, for the consumer tests: every case of both stages (--previous), each
// failing the way real programs fail, with the grader's own diagnosis; and a program that prints 1 MB in every case.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult, RunReport } from '../../../../src/grade/types.ts';
import { REPO } from '../../../support/reference-course.ts';
import { crash, mismatch, pass, report, timeout } from '../reports.ts';

// The real case names of a stage.
export function caseNames(stage: string): string[] {
  return readdirSync(join(REPO, 'cases', stage))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));
}

// A failure inside execute: it threw, and Node's trace names the student's file and line.
export const threwInExecute = (name: string): CaseResult => ({
  ...mismatch,
  name,
  output:
    "TypeError: Cannot read properties of undefined (reading 'trim')\n" +
    '    at execute (file:///course/src/execute.ts:17:29)\n' +
    '    at runCase (file:///course/node_modules/theinference/dist/modes/dispatch/driver.js:93:24)\n',
  failure: {
    ...mismatch.failure!,
    message: 'call 1 of 2 (Read): execute threw instead of returning a result: TypeError: Cannot read properties',
    received: { threw: "TypeError: Cannot read properties of undefined (reading 'trim')" },
  },
});

// Each case of a stage failing one of four ways in turn (or passing every fifth), printing `printed`.
function stageRun(stage: string, printed: string): RunReport {
  const kinds = [threwInExecute, (n: string) => ({ ...mismatch, name: n }), (n: string) => ({ ...crash, name: n })];
  const cases = caseNames(stage).map((name, i): CaseResult => {
    const c = i % 5 === 4 ? pass(name) : i % 7 === 6 ? { ...timeout, name } : kinds[i % 3]!(name);
    return { ...c, output: `${c.output}${printed}` };
  });
  return report(stage, cases);
}

// The graded stage with the earlier one (--previous), as one report.
export function previousRun(printed = ''): RunReport {
  return { ...stageRun('register-tools', printed), previous: [stageRun('agent-loop', printed)] };
}

// 1 MB of debug printing, as a forgotten console.log in a loop writes it.
export const ONE_MB = `${'debug: the messages so far are '.padEnd(99, '.')}\n`.repeat(10_486);

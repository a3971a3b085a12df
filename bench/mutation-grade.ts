// Stryker's command runner (stryker.config.json): grades the reference in this directory (Stryker's sandbox, where
// one mutant of src/execute.ts or src/agent-loop.ts is active) through the grader, in this process, as `audit`
// grades a catalogue: every case of register-tools, then of agent-loop, against its snapshot, the probe included.
// Exit 1 at the first stage with a failing case (the mutant is killed), 0 when every case passes (it survived).
// In-process because a program process of the grader is given only a few environment names, and Stryker names the
// active mutant in one (__STRYKER_ACTIVE_MUTANT__).
import { resolve } from 'node:path';
import { runLoop } from '../src/agent-loop.ts';
import { makeExecute } from '../src/execute.ts';
import { gradeInProcess, loadGradedCases } from '../src/grade/audit/grade-in-process.ts';

const root = resolve(import.meta.dirname, '..');
// The loop's few cases first, then the dispatcher's many; a few cases at a time, so that a killed mutant stops at
// its first failing case (a mutant that survives costs a whole run: about a minute on a busy two-core machine).
const STAGES: [stage: string, impl: (...args: any[]) => unknown][] = [
  ['agent-loop', runLoop],
  ['register-tools', makeExecute],
];
const AT_A_TIME = 8;
for (const [stage, impl] of STAGES) {
  const cases = await loadGradedCases(root, stage);
  for (let k = 0; k < cases.length; k += AT_A_TIME) {
    const results = await gradeInProcess(cases.slice(k, k + AT_A_TIME), impl);
    const failed = results.find((r) => r.status === 'fail');
    if (failed !== undefined) {
      process.stderr.write(`${stage}: ${failed.name} failed: ${failed.failure?.message}\n`);
      process.exit(1);
    }
  }
}
process.exit(0);

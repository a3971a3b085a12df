// One grader run from the inside, through its public modules: how long Node and tsx take to reach this script,
// importing the grader, the first verdict (runStage starts the program processes, then validates the cases
// while they start; a process has started and graded one case), the last verdict, and rendering. Prints one
// JSON line of phase durations in milliseconds.
//
//   node --import tsx bench/grader-timeline.ts <course dir> <stage>
import { resolve } from 'node:path';

// performance.now() counts from process start: this much went to Node, tsx and transforming this file.
const reached = performance.now();
const [dirArg, stage] = process.argv.slice(2);
if (dirArg === undefined || stage === undefined) {
  process.stderr.write('usage: node --import tsx bench/grader-timeline.ts <course dir> <stage>\n');
  process.exit(2);
}
const t0 = performance.now();
const { runStage } = await import('../src/grade/run-stage.ts');
const { renderPretty } = await import('../src/grade/report/pretty.ts');
const t2 = performance.now();
let first: number | undefined;
let last = 0;
const report = await runStage({
  stage,
  dir: resolve(dirArg),
  onCaseResult: () => {
    last = performance.now();
    first ??= last;
  },
});
const t3 = performance.now();
renderPretty(report, { color: false });
const t4 = performance.now();
if (report.failed > 0) {
  process.stderr.write(
    `bench: ${report.failed} cases failed; the timeline of a failing run measures the wrong thing\n`,
  );
  process.exit(1);
}
const phases = {
  'node + tsx start-up': reached,
  'import the grader (run-stage, pretty)': t2 - t0,
  'runStage → first verdict': (first ?? t3) - t2,
  'first → last verdict': last - (first ?? last),
  'last verdict → runStage resolved': t3 - last,
  renderPretty: t4 - t3,
};
process.stdout.write(`${JSON.stringify(phases)}\n`);

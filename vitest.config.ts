import { defineConfig } from 'vitest/config';
import { lanes } from './test/support/lanes.ts';
import PlainSummaryReporter from './test/support/plain-summary-reporter.ts';

// Each test file's lane comes from what it imports (test/support/lanes.ts): `unit` (no process can start),
// `hostile` (grades a hostile fixture) and `e2e` (the rest). `vitest run` runs all three;
// `--project unit` (npm run test:unit) is the lane to run on every save.
const lane = lanes();

export default defineConfig({
  test: {
    reporters: ['default', new PlainSummaryReporter()],
    // End-to-end tests spawn real processes (the grader, tsx, bash); on a 2-core machine they need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every program process the suite starts runs in the sandbox, and a machine without one fails the suite
    // rather than passing it unprotected (.ci/run installs bubblewrap). THEINFERENCE_ISOLATION=off runs the
    // suite's own program processes without it; the tests of the sandbox itself still need bubblewrap.
    // Variants are off unless a test asks for them (a CI machine's CI=true would otherwise turn them on in every
    // run the suite starts); the tests of variants set CI or pass --variants themselves.
    env: {
      THEINFERENCE_ISOLATION: process.env.THEINFERENCE_ISOLATION ?? 'required',
      THEINFERENCE_VARIANTS: process.env.THEINFERENCE_VARIANTS ?? 'off',
      // The course's type check is off unless a test asks for it (test/cli/type-check.test.ts): a course installed
      // from this repository's sources has no dist/ types, so its tsc would only say so.
      THEINFERENCE_TYPECHECK: process.env.THEINFERENCE_TYPECHECK ?? 'off',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: lane.unit,
          // Pure tests share one module graph in worker threads: no fork and no fresh graph per file.
          pool: 'threads',
          isolate: false,
          setupFiles: ['test/support/no-processes.ts'],
        },
      },
      { extends: true, test: { name: 'e2e', include: lane.e2e } },
      { extends: true, test: { name: 'hostile', include: lane.hostile } },
    ],
  },
});

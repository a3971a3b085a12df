import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/support/plain-summary-reporter.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
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
    },
  },
});

import { defineConfig } from 'vitest/config';
import PlainSummaryReporter from './test/support/plain-summary-reporter.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', new PlainSummaryReporter()],
    // End-to-end tests spawn real processes (the grader, tsx, bash); on a 2-core machine they need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

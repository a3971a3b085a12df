import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn real processes (the grader, tsx, bash); on a 2-core machine they need room.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

import type { Reporter, TestModule } from 'vitest/node';

// Ends the run with the plain line `N passed, N failed` (", N skipped" when any were), which CI tooling reads
// whatever the test runner; vitest's own summary is not in that form.
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      // A file that failed to load has no tests to count; it still failed.
      if (module.state() === 'failed' && module.children.size === 0) failed += 1;
    }
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}

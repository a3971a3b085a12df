// A grader that compiles its own sources through tsx (a checkout whose dist/ is missing or stale; here a copy of
// the package without one) starts esbuild's service, a child of tsx's module hooks' thread that Node does not wait
// for: the grader stops it and waits until it is reaped before it exits, so it leaves no <defunct> behind.
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { writeInstall } from '../support/reference-course.ts';
import { sampleChildren, zombiesLeftBy } from '../support/child-zombies.ts';
import { useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();

describe('stopCompiler', () => {
  it('leaves no esbuild zombie behind a grader that compiled its sources through tsx', async () => {
    const bin = await writeInstall(join(scratch.root, 'grader'));
    // No tsx cache: every source is compiled, so the service surely runs.
    const grader = execa('node', [bin, 'stages'], {
      env: { NO_COLOR: '1', TSX_DISABLE_CACHE: '1' },
      reject: false,
      detached: true,
    });
    const children = sampleChildren(grader.pid!);
    const { exitCode } = await grader;
    const seen = children.stop();
    // The one child `stages` starts is the compiler.
    expect([exitCode, seen.length]).toEqual([0, 1]);
    expect(await zombiesLeftBy(seen)).toEqual([]);
  });
});

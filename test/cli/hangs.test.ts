// A case that hangs, or awaits a promise that never settles, graded by the real binary: every reporter names the
// call in flight and says what it means instead of "raise the limit", sandboxed and with --isolation off.
import { describe, expect, it } from 'vitest';
import { makeCourse } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { TIMED_OUT_CASES } from '../../src/grade/run/isolation/program-limits.ts';

const { scratch, theinference } = useBinary();

// The `hangs` fixture's Glob awaits a promise that a timer keeps waiting: an idle hang, cheap to wait out.
const HANG =
  'call 1 of 1 (Glob) did not return within 0.5 s — an infinite loop or a promise that never settles in your code';
const HINT = 'look at what `Glob` runs in your code (its branch in makeExecute and the Tools method it calls)';

describe('a case that hangs', () => {
  it.each<[string, string, (stdout: string) => void]>([
    [
      'pretty',
      'required',
      (stdout) => {
        expect(stdout).toContain(`✗ course-glob-everything — `);
        expect(stdout).toContain(`\n  ${HANG}\n  input: {"pattern":"**"}\n\n  hint: ${HINT}: a loop that never ends`);
      },
    ],
    [
      'pretty',
      'off',
      (stdout) => expect(stdout).toContain(`\n  ${HANG}\n  input: {"pattern":"**"}\n\n  hint: ${HINT}`),
    ],
    [
      'json',
      'required',
      (stdout) => {
        const test = JSON.parse(stdout).tests[0];
        expect([test.name, test.status]).toEqual(['course-glob-everything', 'error']);
        expect(test.message).toContain(`${HANG}\n  input: {"pattern":"**"}\n\n  hint: ${HINT}`);
      },
    ],
    ['junit', 'required', (stdout) => expect(stdout).toContain(`<error type="timeout" message="${HANG}">`)],
    [
      'tap',
      'required',
      (stdout) =>
        expect(stdout).toContain(
          `  message: "${HANG}"\n  severity: error\n  kind: "timeout"\n  callIndex: 0\n  tool: "Glob"\n`,
        ),
    ],
    [
      'github',
      'required',
      (stdout) =>
        expect(stdout).toContain(`::error file=src/execute.ts,title=course-glob-everything::${HANG}%0AHint: ${HINT}`),
    ],
  ])('is named by its call in the %s reporter (--isolation %s)', async (reporter, isolation, check) => {
    const course = await makeCourse(scratch, 'hangs');
    const args = [
      'test',
      '--stage',
      'register-tools',
      '--case',
      'course-glob-everything',
      '--timeout',
      '500',
      '--reporter',
      reporter,
      '--isolation',
      isolation,
    ];
    const { exitCode, stdout } = await theinference(args, course);
    expect(exitCode).toBe(1);
    check(stdout);
    expect(stdout).not.toContain('raise the limit');
  });

  it('that awaits a promise nothing resolves is named as such, with its call (Node exits 13)', async () => {
    const course = await makeCourse(scratch, 'echo-never-settles');
    const { exitCode, stdout } = await theinference(
      ['test', '--stage', 'register-tools', '--case', 'echo-returns-text', '--case', 'course-*'],
      course,
    );
    expect(exitCode).toBe(1);
    expect(stdout).toContain(
      '  call 1 of 1 (echo) never returned: a promise in your code never settled — an `await` on something that never resolves. Node exited with code 13 when nothing was left to run\n' +
        '  input: {"text":"ping\\n  two lines"}\n\n' +
        '  hint: look at what `echo` runs in your code (its branch in makeExecute and the Tools method it calls): an `await` on a promise that nothing resolves',
    );
    expect(stdout.split('\n')).toContain('3 passed, 1 failed');
  });

  it('that every call hangs stops its run after a few deadlines: the other cases fail unrun, saying why', async () => {
    const course = await makeCourse(scratch, 'hangs-every-call');
    const { exitCode, stdout } = await theinference(
      ['test', '--stage', 'register-tools', '--timeout', '300', '--reporter', 'junit'],
      course,
    );
    expect(exitCode).toBe(1);
    const errors = [...stdout.matchAll(/<error type="timeout" message="([^"]*)"/g)].map((m) => m[1]!);
    const unrun = errors.filter((message) => message.startsWith('past the deadline: not run'));
    expect(errors.length).toBe((stdout.match(/<testcase /g) ?? []).length);
    // Each batch may have one case in flight when the last deadline that counts passes.
    expect(errors.length - unrun.length).toBeGreaterThanOrEqual(TIMED_OUT_CASES);
    expect(errors.length - unrun.length).toBeLessThanOrEqual(TIMED_OUT_CASES + 4);
    expect(unrun.length).toBeGreaterThan(100);
  });
});

// The student's file as reporters name it (a JUnit frame, a GitHub annotation's file=, TAP's `at`): relative to where
// CI runs, with a directory name's control and bidi characters shown, never raw.
import { expect, it } from 'vitest';
import { studentFileOf } from '../../../src/cli/commands/test.ts';

it('names the stage file relative to the working directory', () => {
  expect(studentFileOf('/ci', '/ci/class/alice')('register-tools')).toBe('class/alice/src/execute.ts');
});

it("shows an escape, a bidi override and a line break in a directory's name instead of writing them", () => {
  const file = studentFileOf('/ci', '/ci/ev\u001b[31mil\u202e\nx')('register-tools');
  expect(file).toBe('ev\u241b[31mil\\u202e\\nx/src/execute.ts');
});

it('names no file for a stage it does not know', () => {
  expect(studentFileOf('/ci', '/ci/a')('no-such-stage')).toBeUndefined();
});

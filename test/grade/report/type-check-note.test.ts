import { describe, expect, it } from 'vitest';
import { renderTypeCheckNote, typeCheckFails } from '../../../src/grade/report/type-check-note.ts';
import type { TypeCheck } from '../../../src/grade/types.ts';

const error = (n: number) => ({ file: `src/f${n}.ts`, line: n, column: 2, code: 'TS2322', message: `m${n}` });
const errors = (n: number): TypeCheck => ({
  kind: 'errors',
  errors: Array.from({ length: n }, (_, i) => error(i + 1)),
});

describe('renderTypeCheckNote', () => {
  it('one type error: where, its code and message, and that the cases are the grade', () => {
    expect(renderTypeCheckNote(errors(1), 'note', { color: false })).toBe(
      '\n Types  1 type error (npm run typecheck); not graded: the cases above are the grade\n   src/f1.ts:1:2  TS2322 m1\n',
    );
  });

  it('under a course that grades it, the note says a type error fails the run', () => {
    expect(renderTypeCheckNote(errors(2), 'fail', { color: false })).toContain(
      ' Types  2 type errors (npm run typecheck); this course fails the run on a type error\n',
    );
  });

  it('the first five are shown, and how many more there are', () => {
    const note = renderTypeCheckNote(errors(7), 'note', { color: false });
    expect(note).toContain('   src/f5.ts:5:2  TS2322 m5\n   and 2 more\n');
    expect(note).not.toContain('f6');
  });

  it("tsc's reading of the student's files is shown as visible text: nothing in it moves the cursor", () => {
    const check: TypeCheck = {
      kind: 'errors',
      errors: [{ file: 'src/\u001b[2Ja.ts', line: 1, column: 1, code: 'TS1', message: 'x\u001b]0;t\u0007\u202ey' }],
    };
    const note = renderTypeCheckNote(check, 'note', { color: false });
    expect(note).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(note).toContain('src/␛[2Ja.ts:1:1');
  });

  it.each([
    { check: { kind: 'clean' } as TypeCheck, setting: 'note' as const },
    { check: { kind: 'clean' } as TypeCheck, setting: 'fail' as const },
    { check: { kind: 'not run', why: 'no tsconfig' } as TypeCheck, setting: 'note' as const },
    { check: { kind: 'not run', why: 'stopped' } as TypeCheck, setting: 'fail' as const },
  ])('nothing to say: $check.kind under $setting', ({ check, setting }) => {
    expect(renderTypeCheckNote(check, setting, { color: false })).toBe('');
  });

  it('a course that grades its type check hears when it did not run', () => {
    expect(renderTypeCheckNote({ kind: 'not run', why: 'no tsconfig' }, 'fail', { color: false })).toBe(
      '\n Types  not checked: no tsconfig. The cases above are the grade.\n',
    );
  });
});

describe('typeCheckFails', () => {
  it.each([
    { check: errors(1), setting: 'fail' as const, fails: true },
    { check: errors(1), setting: 'note' as const, fails: false },
    { check: { kind: 'clean' } as TypeCheck, setting: 'fail' as const, fails: false },
    { check: { kind: 'not run', why: 'x' } as TypeCheck, setting: 'fail' as const, fails: false },
  ])('$check.kind under $setting: $fails', ({ check, setting, fails }) => {
    expect(typeCheckFails(check, setting)).toBe(fails);
  });
});

import { describe, expect, it } from 'vitest';
import { readTscOutput } from '../../../src/grade/type-check/tsc-output.ts';

describe('readTscOutput', () => {
  it.each([
    {
      name: 'an error at a place',
      text: "src/execute.ts(12,17): error TS2339: Property 'read' does not exist on type 'Tools'.\n",
      errors: [
        {
          file: 'src/execute.ts',
          line: 12,
          column: 17,
          code: 'TS2339',
          message: "Property 'read' does not exist on type 'Tools'.",
        },
      ],
    },
    {
      name: 'the lines under an error are the rest of its message, left out',
      text: "src/a.ts(1,7): error TS2322: Type '{ a: 1; }' is not assignable to type 'B'.\n  Object literal may only specify known properties.\nsrc/b.ts(2,1): error TS1005: ';' expected.\n",
      errors: [
        {
          file: 'src/a.ts',
          line: 1,
          column: 7,
          code: 'TS2322',
          message: "Type '{ a: 1; }' is not assignable to type 'B'.",
        },
        { file: 'src/b.ts', line: 2, column: 1, code: 'TS1005', message: "';' expected." },
      ],
    },
    {
      name: 'an error with no place (a bad compiler option)',
      text: "error TS5023: Unknown compiler option 'strictest'.\r\n",
      errors: [{ code: 'TS5023', message: "Unknown compiler option 'strictest'." }],
    },
    {
      name: 'a path with parentheses of its own',
      text: "src/(draft)/x.ts(3,4): error TS2304: Cannot find name 'y'.",
      errors: [{ file: 'src/(draft)/x.ts', line: 3, column: 4, code: 'TS2304', message: "Cannot find name 'y'." }],
    },
    { name: 'a clean run', text: '', errors: [] },
    { name: 'text that is no error', text: 'Version 5.9.3\nsrc/a.ts(1,1): warning: nothing\n', errors: [] },
  ])('$name', ({ text, errors }) => {
    expect(readTscOutput(text)).toEqual(errors);
  });
});

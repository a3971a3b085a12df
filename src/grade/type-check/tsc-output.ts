// What `tsc --pretty false` prints, read as data: one error per `file(line,col): error TSnnnn: message` line (or
// `error TSnnnn: message` for one with no place, a bad compiler option), the lines indented under it being the
// rest of its message, which the note leaves out: its first line says what and where.

import type { TypeCheckError } from '../types.ts';

const AT = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const NOWHERE = /^error (TS\d+): (.*)$/;

// Every error in tsc's output, in its order.
export function readTscOutput(text: string): TypeCheckError[] {
  const errors: TypeCheckError[] = [];
  for (const line of text.split(/\r?\n/)) {
    const at = AT.exec(line);
    if (at !== null) {
      errors.push({ file: at[1]!, line: Number(at[2]), column: Number(at[3]), code: at[4]!, message: at[5]! });
      continue;
    }
    const nowhere = NOWHERE.exec(line);
    if (nowhere !== null) errors.push({ code: nowhere[1]!, message: nowhere[2]! });
  }
  return errors;
}

// JSON for files a class run keeps: the same data read back, with no raw character that acts on a terminal or
// reorders what a log shows.
import { expect, it } from 'vitest';
import { safeJson } from '../../../src/grade/report/safe-json.ts';

it.each([
  ['a right-to-left override', 'rlo\u202egnp.exe', '"rlo\\u202egnp.exe"'],
  ['an escape and DEL', 'a\u001b[2Jb\u007f', '"a\\u001b[2Jb\\u007f"'],
  ['a C1 control and a line separator', 'x\u009by\u2028z', '"x\\u009by\\u2028z"'],
  ['plain text and other scripts', 'zoë 日本 "q"', '"zoë 日本 \\"q\\""'],
])('writes %s as an escape, and reads back the same', (_, text, json) => {
  expect(safeJson({ name: text })).toBe(`{"name":${json}}`);
  expect(JSON.parse(safeJson({ name: text }))).toEqual({ name: text });
});

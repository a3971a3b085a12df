// A load failure's output, for the terminal: the error and the student's frames, not Node's or esbuild's.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { trimStack } from '../../../src/grade/report/trim-stack.ts';

const output = (name: string) => readFile(new URL(`../../fixtures/load-failures/${name}.txt`, import.meta.url), 'utf8');

describe('trimStack', () => {
  it("keeps esbuild's error and drops its frames and Node's excerpt of its own code", async () => {
    expect(trimStack(await output('does-not-compile'))).toEqual({
      text: 'Error [TransformError]: Transform failed with 1 error:\n/c/src/execute.ts:8:36: ERROR: Expected ")" but found ";"\n\nNode.js v20.20.2\n',
      dropped: 13,
    });
  });

  it("drops the error's properties printed after a dropped frame", async () => {
    expect(trimStack(await output('execute-missing')).text).toBe(
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/c/src/execute.ts' imported from /c/node_modules/theinference/dist/modes/kit.js\n\nNode.js v20.20.2\n",
    );
  });

  it("keeps the student's own frame and Node's excerpt of the student's code", async () => {
    const { text } = trimStack(await output('throws-at-import'));
    expect(text).toContain(
      "/c/src/execute.ts:6\nthrow new Error('dispatcher table is not ready');\n      ^\n\nError: dispatcher table is not ready\n    at <anonymous> (/c/src/execute.ts:6:7)\n",
    );
    expect(text).not.toMatch(/ModuleJob|node_modules/);
  });

  it('changes nothing in an output without foreign frames', () => {
    expect(trimStack('debug line\nError: boom\n    at f (/c/src/a.ts:1:1)\n')).toEqual({
      text: 'debug line\nError: boom\n    at f (/c/src/a.ts:1:1)\n',
      dropped: 0,
    });
  });
});

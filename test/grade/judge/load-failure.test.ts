// A program that dies loading gets one hint naming the cause, read off what Node and tsx printed.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../src/course/stages.ts';
import { loadFailureHint } from '../../../src/grade/judge/load-failure.ts';

const output = (name: string) => readFile(new URL(`../../fixtures/load-failures/${name}.txt`, import.meta.url), 'utf8');

describe('loadFailureHint', () => {
  it.each(STAGES.map((s) => [s.writes[0]!, s] as const))(
    'names the stage file %s the driver could not find, its export and the init that writes it',
    (file, s) => {
      const printed = `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/c/${file}' imported from /c/node_modules/theinference/dist/modes/kit.js`;
      expect(loadFailureHint(printed)).toBe(
        `${file} is missing: the driver imports ${s.entry} from it. Create it (\`npx theinference init --stage ${s.slug}\` writes one to start from)`,
      );
    },
  );

  it('says where the stage file is when the course directory has it elsewhere, and to move it back, not init', () => {
    const printed = `Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/c/src/agent-loop.ts' imported from /c/node_modules/theinference/dist/modes/kit.js`;
    expect(loadFailureHint(printed, { 'src/agent-loop.ts': 'agent-loop.ts' })).toBe(
      'src/agent-loop.ts is missing: the driver imports runLoop from it, and your course directory has agent-loop.ts. Move it back: `mv agent-loop.ts src/agent-loop.ts` (the grader looks for it only there)',
    );
  });

  it.each([
    [
      'does-not-compile',
      '/c/src/execute.ts:8:36 does not compile (Expected ")" but found ";"): fix it and save. Nothing runs until every file the program imports compiles',
    ],
    [
      'package-not-installed',
      'the package `fast-glob` is not installed (/c/src/tools/find-entries.ts imports it): it comes with theinference, so run `npm install` in your course directory (or wherever theinference is installed)',
    ],
    [
      'execute-missing',
      'src/execute.ts is missing: the driver imports makeExecute from it. Create it (`npx theinference init --stage register-tools` writes one to start from)',
    ],
    [
      'import-missing',
      "/c/src/helpers/util.ts does not exist (/c/src/execute.ts imports it): create it, or correct the import's path (relative, with its .ts extension)",
    ],
    [
      'export-missing',
      './src/execute.ts has no export named `makeExecute`, which another file imports: export it under that name (`export function makeExecute(…)`, not as a default export)',
    ],
    [
      // program.ts makes this error itself: the source line Node prints above it holds the message's template.
      'export-missing-via-program',
      './src/agent-loop.ts has no export named `runLoop`, which another file imports: export it under that name (`export function runLoop(…)`, not as a default export)',
    ],
    [
      'types-imported-as-values-loop-sandboxed',
      "/c/src/agent-loop.ts imports from 'theinference' as a value, but the package exports only types: write `import type { Execute, LoopRequest } from 'theinference'` (with `type`; `npm run typecheck` says TS1484 for the import without it)",
    ],
    [
      'types-imported-as-values',
      "your code imports `Execute` from 'theinference' as a value, but the package exports only types: write `import type { Execute, ToolOutput, Tools } from 'theinference'` (with `type`; `npm run typecheck` says TS1484 for the import without it)",
    ],
    [
      'types-imported-as-values-sandboxed',
      "/c/src/execute.ts imports from 'theinference' as a value, but the package exports only types: write `import type { Execute, ToolOutput, Tools } from 'theinference'` (with `type`; `npm run typecheck` says TS1484 for the import without it)",
    ],
    [
      'throws-at-import',
      "your code throws `Error: dispatcher table is not ready` while it is loaded, at /c/src/execute.ts:6: a module's top-level code (outside any function) runs when program.ts imports it, before any case. Fix it, or move it into a function",
    ],
    [
      'throws-in-a-tool',
      "your code throws `SyntaxError: Expected property name or '}' in JSON at position 2` while it is loaded, at /c/src/tools/index.ts:52: a module's top-level code (outside any function) runs when program.ts imports it, before any case. Fix it, or move it into a function",
    ],
    [
      'changes-a-built-in',
      "your code throws `TypeError: Cannot add property groupBy, object is not extensible` while it is loaded, at /c/src/agent-loop.ts:1: a module's top-level code (outside any function) runs when program.ts imports it, before any case. Fix it, or move it into a function. The grader freezes JavaScript's built-in objects (Object, Array, JSON, Promise and their prototypes) before your code loads: if the object is one of those, leave it as it is (Node 20 needs no polyfill the course uses)",
    ],
  ])('%s', async (name, hint) => {
    expect(loadFailureHint(await output(name))).toBe(hint);
  });

  it('names the scoped package, not its subpath', () => {
    expect(
      loadFailureHint("Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@scope/pkg/sub' imported from /c/src/x.ts"),
    ).toMatch(/^the package `@scope\/pkg` is not one the grader gives your program/);
  });

  it("says a package the course does not provide is not one to install: the grader never uses the course's node_modules", () => {
    expect(
      loadFailureHint("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'left-pad' imported from /c/src/execute.ts"),
    ).toBe(
      "the package `left-pad` is not one the grader gives your program (/c/src/execute.ts imports it): your code is graded with Node's built-in modules and the course's own packages (@anthropic-ai/sdk, fast-glob) only, from theinference's own install, never from your course directory, so that it grades the same on every machine and in CI. Do without it",
    );
  });

  it('knows nothing of a crash that is not about loading', () => {
    expect(loadFailureHint('Error: boom\n    at Tools.bash (/c/src/tools/bash.ts:3:9)\n')).toBeUndefined();
  });
});

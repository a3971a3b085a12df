// Why a program died while loading, read off what Node and tsx printed, and the one thing to do about it:
// a file that does not compile, a package not installed, a file not there, an export missing, a throw at the top
// level of a module. Pure: the output in, a hint out (or undefined when the output says none of these).

import { COURSE_DEPENDENCIES, STAGES } from '../../course/stages.ts';

// A stage's student file the course directory has elsewhere: its path as the stage names it -> where it is.
export type Misplaced = Record<string, string>;

type Recogniser = (output: string, found: Misplaced) => string | undefined;

// esbuild, through tsx: `/c/src/execute.ts:8:36: ERROR: Expected ")" but found ";"`.
function doesNotCompile(output: string): string | undefined {
  const error = /^(?:✘ \[ERROR\] |.*?)(\/\S+?:\d+:\d+): ERROR: (.+)$/m.exec(output);
  if (error === null) return undefined;
  return `${error[1]} does not compile (${error[2]}): fix it and save. Nothing runs until every file the program imports compiles`;
}

// The package's types imported as values (`import { Execute } from 'theinference'`, no `type`): at run time the
// import needs a module with those exports, and the package has none (sandboxed, its files are not even there).
// Sandboxed, the package is not there at all, under its name (`Cannot find package 'theinference'`) or by a file
// of it; unsandboxed, it is there without the export.
function typesAsValues(output: string): string | undefined {
  const byFile =
    /Cannot find module '[^']*\/node_modules\/theinference\/[^']*' imported from (\S+)/.exec(output) ??
    /Cannot find package 'theinference' imported from (\S+)/.exec(output);
  const byName = /^\w*Error: The requested module 'theinference' does not provide an export named '([^']+)'/m.exec(
    output,
  );
  if (byFile === null && byName === null) return undefined;
  const what = byName === null ? "imports from 'theinference'" : `imports \`${byName[1]}\` from 'theinference'`;
  const where = byFile === null ? 'your code' : byFile[1]!;
  // The types of the stage the importing file belongs to: the loop's, or the dispatcher's.
  const types = /agent-loop\.ts$/.test(where) ? 'Execute, LoopRequest' : 'Execute, ToolOutput, Tools';
  return `${where} ${what} as a value, but the package exports only types: write \`import type { ${types} } from 'theinference'\` (with \`type\`; \`npm run typecheck\` says TS1484 for the import without it)`;
}

// A sandboxed program gets the packages of the grader's own install, never the course directory's node_modules
// (src/grade/run/isolation/sandbox-layout.ts): a package the course does not provide is not one to install.
function packageNotInstalled(output: string): string | undefined {
  const missing = /Cannot find package '([^']+)' imported from (\S+)/.exec(output);
  if (missing === null) return undefined;
  const name = missing[1]!.startsWith('@') ? missing[1]!.split('/').slice(0, 2).join('/') : missing[1]!.split('/')[0]!;
  if (COURSE_DEPENDENCIES.includes(name)) {
    return `the package \`${name}\` is not installed (${missing[2]} imports it): it comes with theinference, so run \`npm install\` in your course directory (or wherever theinference is installed)`;
  }
  return `the package \`${name}\` is not one the grader gives your program (${missing[2]} imports it): your code is graded with Node's built-in modules and the course's own packages (${COURSE_DEPENDENCIES.join(', ')}) only, from theinference's own install, never from your course directory, so that it grades the same on every machine and in CI. Do without it`;
}

// `found`: where the stage's student file is instead, when the course directory has it elsewhere (misplaced-file.ts).
function fileNotThere(output: string, found: Misplaced): string | undefined {
  const missing = /Cannot find module '([^']+)' imported from (\S+)/.exec(output);
  if (missing === null) return undefined;
  const [, file, from] = missing;
  // A stage's student file, which the driver (src/modes/) imports, or an old program.ts did.
  const stage = STAGES.find((s) => file!.endsWith(`/${s.writes[0]}`));
  if (stage !== undefined && /\/(?:program\.ts|modes\/kit\.[jt]s)$/.test(from!)) {
    const path = stage.writes[0]!;
    const elsewhere = found[path];
    if (elsewhere !== undefined)
      return `${path} is missing: the driver imports ${stage.entry} from it, and your course directory has ${elsewhere}. Move it back: \`mv ${elsewhere} ${path}\` (the grader looks for it only there)`;
    return `${path} is missing: the driver imports ${stage.entry} from it. Create it (\`npx theinference init --stage ${stage.slug}\` writes one to start from)`;
  }
  return `${file} does not exist (${from} imports it): create it, or correct the import's path (relative, with its .ts extension)`;
}

// `SyntaxError: The requested module './src/execute.ts' does not provide an export named 'makeExecute'`.
function exportMissing(output: string): string | undefined {
  // The error's own line: the source line Node prints above it may be the template that made the message.
  const missing = /^\w*Error: The requested module '([^']+)' does not provide an export named '([^']+)'/m.exec(output);
  if (missing === null) return undefined;
  return `${missing[1]} has no export named \`${missing[2]}\`, which another file imports: export it under that name (\`export function ${missing[2]}(…)\`, not as a default export)`;
}

// A throw while a module is evaluated: Node's stack runs through ModuleJob.run, and the frames above it are
// the student's code (the first outside node_modules says where).
function throwsAtImport(output: string): string | undefined {
  const lines = output.split('\n');
  const evaluation = lines.findIndex((l) => /^\s+at (async )?ModuleJob\.run /.test(l));
  if (evaluation === -1) return undefined;
  const thrown = lines.find((l) => /^\w*Error(?: \[\w+\])?: /.test(l));
  const where = lines
    .slice(0, evaluation)
    .map((l) => /^\s+at .*?\(?(\/[^():]+:\d+):\d+\)?$/.exec(l)?.[1])
    .find((path) => path !== undefined && !path.includes('/node_modules/'));
  const what = thrown === undefined ? 'throws' : `throws \`${thrown.slice(0, 160)}\``;
  const hint = `your code ${what} while it is loaded${where === undefined ? '' : `, at ${where}`}: a module's top-level code (outside any function) runs when program.ts imports it, before any case. Fix it, or move it into a function`;
  return thrown !== undefined && FROZEN.test(thrown) ? `${hint}. ${SEALED}` : hint;
}

// What a change to a frozen object throws. The object may be the student's own, so the sentence after it says what
// the driver freezes without claiming it is one of those (src/modes/seal.ts).
const FROZEN =
  /^TypeError: Cannot (?:add property .*, object is not extensible|assign to read only property|redefine property)/;
const SEALED =
  "The grader freezes JavaScript's built-in objects (Object, Array, JSON, Promise and their prototypes) before your code loads: if the object is one of those, leave it as it is (Node 20 needs no polyfill the course uses)";

const RECOGNISERS: Recogniser[] = [
  doesNotCompile,
  typesAsValues,
  packageNotInstalled,
  fileNotThere,
  exportMissing,
  throwsAtImport,
];

// What to do about a program that failed while loading, or undefined when its output names no known cause.
export function loadFailureHint(output: string, found: Misplaced = {}): string | undefined {
  for (const recognise of RECOGNISERS) {
    const hint = recognise(output, found);
    if (hint !== undefined) return hint;
  }
  return undefined;
}

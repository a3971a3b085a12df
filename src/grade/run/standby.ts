// A warm standby program process, run as `node --import <tsx> standby.ts <mode> [<warm specifier>…]` in the course
// directory. Node and tsx are loaded ahead of time, and so are the warm specifiers, as program.ts would import them
// (the stage's packages and modules, src/course/stages.ts): a save then pays only for what it changed. It waits
// until its work arrives on stdin (the cases, as JSON lines, exactly as `program.ts <mode> -` reads them); then
// every module loaded from a file that has changed since, and every module that imports one, is loaded afresh
// (standby-hooks.mjs), and it sets process.argv as `node program.ts <mode> -` would and imports program.ts, whose own
// main-module check runs its main, which reads those very lines. Each standby serves exactly one batch.
import { createRequire, register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

// The query that asks standby-hooks.mjs to compile a module and evaluate nothing of it (the same text there).
const COMPILE_ONLY = '?theinference-compile-only';

const [mode = 'dispatch', ...warm] = process.argv.slice(2);
// As Node sets it for `node program.ts`: the absolute path, not resolved through links.
const program = resolve('program.ts');
const refresh = warm.length > 0 ? await warmUp(warm) : async () => {};

// Wait without reading: what arrives stays buffered for program.ts.
await new Promise((ready) => process.stdin.once('readable', ready));
// Readable with nothing in it: stdin ended without work (the grader went away).
if (process.stdin.readableLength > 0) {
  await refresh();
  process.argv = [process.argv[0] ?? process.execPath, program, mode, '-'];
  await import(pathToFileURL(program).href);
} else {
  process.stdin.destroy();
}

// Imports each warm specifier (one that fails is left to fail again when program.ts imports it), and resolves to
// what makes the modules loaded since fresh where their files changed.
async function warmUp(specifiers: string[]): Promise<() => Promise<void>> {
  const { port1, port2 } = new MessageChannel();
  register(new URL('./standby-hooks.mjs', import.meta.url), {
    data: { port: port2, standby: import.meta.url, anchor: pathToFileURL(program).href },
    transferList: [port2],
  });
  port1.unref();
  // A module that failed keeps its failure for its URL, whatever its files hold by the time the work comes; and
  // the grader may be rewriting the sandbox's copy of the course while this reads it (a run's start): after a
  // failure the course is loaded afresh whole (packages aside), each file read again.
  let failed = false;
  // What a module prints while it loads goes to stderr, as program.ts sends it once it runs: stdout carries only
  // result lines, and a debugging console.log at the top of a student's module is harmless.
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    for (const specifier of specifiers) {
      await import(specifier).catch(() => {
        failed = true;
      });
    }
    // program.ts compiled, not run (standby-hooks.mjs): tsx keeps a transform by the file's text, so the import
    // when the work comes finds it made, unless the file changed since (then it is compiled afresh, as before).
    await import(`${pathToFileURL(program).href}${COMPILE_ONLY}`).catch(() => {});
  } finally {
    process.stdout.write = write;
  }
  // So is a course with a file loaded through require(), which require's own cache keeps, unseen by the hooks.
  const cache = createRequire(import.meta.url).cache;
  const required = Object.keys(cache).filter((file) => !file.split(/[\\/]/).includes('node_modules'));
  return async () => {
    for (const file of required) delete cache[file];
    port1.ref();
    const reply = new Promise((done) => port1.once('message', done));
    port1.postMessage(failed || required.length > 0 ? 'refresh-all' : 'refresh');
    await reply;
    port1.close();
  };
}

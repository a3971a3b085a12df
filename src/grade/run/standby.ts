// A warm standby program process, run as `node --import <tsx> standby.ts <driver> <mode> [--stage <slug>]
// [<warm specifier>…]` in the course directory. Node, tsx and the package's driver are loaded ahead of time, and so
// are the warm specifiers (the stage's packages, as the driver imports them, and its course modules, from the
// course directory: src/course/stages.ts): a save then pays only for what it changed. It waits until its work
// arrives on stdin (the line that says go, as `<driver> <mode> --stage <slug> -` reads it; the driver then asks the
// grader for its cases over its channel); then every module loaded from a file that has changed since, and every
// module that imports one, is loaded afresh (standby-hooks.mjs), and it runs the driver's main. Each standby serves
// exactly one batch.
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { readIn, sealLanguage } from '../../modes/seal.ts';

type Driver = {
  main: (argv: string[], course?: URL, first?: Uint8Array) => Promise<number>;
  preload: (mode: string) => Promise<void>;
};

// Sealed before any module of the course loads (src/modes/seal.ts), as the driver is when run as a program.
sealLanguage();
const [driverPath = '', mode = 'dispatch', ...after] = process.argv.slice(2);
// The driver's own arguments (src/modes/driver-files.ts `driverArgs`), then the warm specifiers.
const staged = after[0] === '--stage';
const driverArgs = staged ? [mode, ...after.slice(0, 2)] : [mode];
const warm = staged ? after.slice(2) : after;
// The course directory, which the warm course modules are resolved from (as the driver loads them).
const course = pathToFileURL(`${process.cwd()}/`).href;
const refresh = warm.length > 0 ? await warmUp(warm) : async () => {};
// The package's driver, loaded (not run: it runs as a program only when it is the main module) while waiting.
const driver = (await import(pathToFileURL(driverPath).href)) as Driver;
await driver.preload(mode);

// The first bytes of work, read as the driver reads the rest (never through process.stdin, which the course's
// modules loaded above could listen to); none: stdin ended without work (the grader went away).
const first = await readIn();
if (first.length > 0) {
  await refresh();
  process.exitCode = await driver.main([...driverArgs, '-'], undefined, first);
}

// Imports each warm specifier (one that fails is left to fail again when the driver imports it), and resolves to
// what makes the modules loaded since fresh where their files changed.
async function warmUp(specifiers: string[]): Promise<() => Promise<void>> {
  const { port1, port2 } = new MessageChannel();
  register(new URL('./standby-hooks.mjs', import.meta.url), {
    data: { port: port2, standby: import.meta.url, anchor: course },
    transferList: [port2],
  });
  port1.unref();
  // A module that failed keeps its failure for its URL, whatever its files hold by the time the work comes; and
  // the grader may be rewriting the sandbox's copy of the course while this reads it (a run's start): after a
  // failure the course is loaded afresh whole (packages aside), each file read again.
  let failed = false;
  // What a module prints while it loads goes to stderr, as the driver sends it once it runs: stdout carries only
  // result lines, and a debugging console.log at the top of a student's module is harmless.
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  try {
    for (const specifier of specifiers) {
      await import(specifier).catch(() => {
        failed = true;
      });
    }
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

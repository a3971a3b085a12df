// The unit lane's setup: a test there starts no process. test/support/lanes.ts puts a file in the unit lane when
// nothing it imports can start one; should one start a process anyway (through a path that walk cannot see, such
// as an import built at run time), it fails here at once, saying where the test belongs, rather than slowing the
// lane down or passing by luck.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach } from 'vitest';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
const PATCHED = Symbol.for('theinference.test.no-processes');
// What tried to start a process during the current test: code under test may catch the throw (the Bash tool turns
// it into an error result), so the test also fails after it ends. Kept on globalThis: without isolation this file
// runs again for every test file, while the functions it put in place stay those of the first run.
const global = globalThis as { [PATCHED]?: string[] };
global[PATCHED] ??= [];
const attempts = global[PATCHED];
const message = (what: string): string =>
  `a unit test started a process (${what}): the unit lane runs pure tests only. Import what starts it (execa, ` +
  'node:child_process, a test/support helper that does) in the test file itself, and test/support/lanes.ts moves ' +
  'it to the e2e lane';

afterEach(() => {
  const tried = attempts.splice(0);
  if (tried.length > 0) throw new Error(message(tried.join('; ')));
});

if (!(PATCHED in childProcess)) {
  for (const name of STARTERS) {
    Object.assign(childProcess, {
      [name]: (command: unknown) => {
        const what = `child_process.${name} ${JSON.stringify(command)}`;
        attempts.push(what);
        throw new Error(message(what));
      },
    });
  }
  Object.assign(childProcess, { [PATCHED]: true });
  // ESM imports of node:child_process (execa's among them) see the throwing functions too.
  syncBuiltinESMExports();
}

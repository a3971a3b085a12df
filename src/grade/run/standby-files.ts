// The files of the grader package a warm standby loads besides the driver's (standby-pool.ts starts it): what a
// program process must be able to read, so the sandbox shows them and a copy of the install holds them.
import { fileURLToPath } from 'node:url';

// The bootstrap next to this file, whether the grader runs from its .ts sources or compiled to .js, and the module
// hooks it registers (plain JavaScript in both).
export const BOOTSTRAP = fileURLToPath(
  new URL(import.meta.url.endsWith('.ts') ? './standby.ts' : './standby.js', import.meta.url),
);
const HOOKS = fileURLToPath(new URL('./standby-hooks.mjs', import.meta.url));

// The package's files a standby loads besides the driver's.
export function standbyFiles(): string[] {
  return [BOOTSTRAP, HOOKS];
}

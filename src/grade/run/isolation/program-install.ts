// Which install a submission's program process runs from: the grader's own, or, for a grader run as root whose
// install nobody cannot reach (a course directory under /root, mode 0700: a student's dev container), a copy of what
// the program reads of it, placed where nobody can read it (place-install.ts). A student cannot fix where a container
// keeps their course, and the grader can, so only Node itself out of nobody's reach still stops the program
// (program-user.ts says so). The reference's runs keep the grader's user and its own install. Decided once per
// grader process.
import { join, relative } from 'node:path';
import { driverFiles } from '../../../modes/driver-files.ts';
import { standbyFiles } from '../standby-files.ts';
import { placeInstall } from './place-install.ts';
import { bindableTmpdir, closedToOthers, closedToProgramUser, PROGRAM_USER } from './program-user.ts';
import { isInside } from './sandbox-args.ts';
import { graderModules, installPaths } from './sandbox-layout.ts';

// The install a program run as PROGRAM_USER reads: `root` is its package root (the grader's own, real, when
// nobody reaches it), `at` maps a path of the grader's own install to the same file in it; or why there is none.
export type ProgramInstall = { root: string; at: (path: string) => string } | { error: string };

let chosen: Promise<ProgramInstall> | undefined;

// The install of a submission's program processes; the grader's own for a grader not run as root.
export function programInstall(): Promise<ProgramInstall> {
  chosen ??= choose();
  return chosen;
}

async function choose(): Promise<ProgramInstall> {
  const { node, root, packages } = installPaths();
  const own = { root, at: (path: string) => path };
  if (PROGRAM_USER === undefined) return own;
  const closedNode = closedToProgramUser(node);
  if (closedNode !== undefined) return { error: closedNode };
  if ([root, ...packages].every((path) => closedToOthers(path) === undefined)) return own;
  const modules = graderModules();
  if (modules === undefined) return { error: 'the grader cannot find its runtime packages to copy them' };
  const placed = await placeInstall(
    { packageRoot: root, modules, files: [...driverFiles(), ...standbyFiles()] },
    bindableTmpdir(),
  );
  if ('error' in placed) return placed;
  return {
    root: placed.root,
    at: (path) => (isInside(root, path) ? join(placed.root, relative(root, path)) : path),
  };
}

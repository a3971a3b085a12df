// Where the package's driver is, and the files it runs: a program process runs the driver of the grader's own
// install (src/grade/run/), never a file of the graded directory, and the sandbox shows it exactly these files of
// the package (the rest, the reference above all, stays hidden). From source (tests, the repository) they are
// `src/…/*.ts`; from an install, the compiled `dist/…/*.js`. test/modes/driver-files.test.ts holds DRIVER_FILES
// equal to what the driver imports.
import { fileURLToPath } from 'node:url';
import { stageOf } from '../course/stages.ts';
import { DEFAULT_MODE, type ModeName } from './mode-table.ts';

const FROM_SOURCE = import.meta.url.endsWith('.ts');

// The driver's files, from this directory (src/modes/ or dist/modes/), without their extension; a folder ends in
// `/`. Its own folder, the course's vocabulary it imports (the stages, whose rows say which module of the course a
// stage's mode loads, and the error they fail with), the /proc reader it kills a case's leftovers with
// (leftovers.ts), the compact stage's words and limits its judge names (compact-contract.ts), the record of a call
// that left a timer running (left-timer.ts; never the dispatcher contract's table, which is register-tools' answer),
// and what a stage's `provides` names (the tools of the earlier stages, which the driver gives the student's code:
// src/modes/dispatch/).
export const DRIVER_FILES = [
  './',
  '../course/seed-path',
  '../course/sandbox-placeholder',
  '../course/stages',
  '../course/closest-name',
  '../course/left-timer',
  '../compact-contract',
  '../errors',
  '../process-table',
  '../tools/',
];

// The absolute path of a driver file named as DRIVER_FILES names it.
function pathOf(name: string): string {
  const file = name.endsWith('/') ? name : `${name}.${FROM_SOURCE ? 'ts' : 'js'}`;
  return fileURLToPath(new URL(file, import.meta.url)).replace(/(.)\/$/, '$1');
}

// The driver entry: `node --import <tsx> <driverEntry()> <mode> --stage <slug> -` in a course directory runs its
// cases.
export function driverEntry(): string {
  return pathOf('./driver');
}

// What follows the driver entry on its command line, before the cases (`-`, or files): the mode of `stage` and the
// stage, whose row says which module of the course the mode loads; for a stage the course does not list (a test's
// made-up one), the default mode alone, which runs its first stage's.
export function driverArgs(stage: string | undefined): string[] {
  const row = stage === undefined ? undefined : stageOf(stage);
  return row === undefined ? [DEFAULT_MODE] : [row.mode, '--stage', row.slug];
}

// The mode the driver runs `stage`'s cases in, as driverArgs names it.
export function driverMode(stage: string | undefined): ModeName {
  return driverArgs(stage)[0] as ModeName;
}

// Every file and folder of the package the driver needs, absolute.
export function driverFiles(): string[] {
  return DRIVER_FILES.map(pathOf);
}

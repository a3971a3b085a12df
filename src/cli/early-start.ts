// Program processes started before the CLI is loaded. A program process needs about 0.4 s to start Node and
// register tsx, and none of that depends on the course's code or on the flags beyond --dir; the CLI needs about
// 0.2 s to load its modules and parse them. bin/theinference.js calls this first, so the two overlap: the
// processes wait as standbys (src/grade/run/standby.ts) until the run hands them their cases.
//
// The flags are only glanced at here; commander parses them for real. A guess that turns out wrong costs
// nothing but the unused processes: the run takes a standby only for the directory it was started in, and
// the caller closes the pool, killing whatever is left, however the command ends.
import { availableParallelism } from 'node:os';
import { courseDirFor } from '../course/find-course-dir.ts';
import { stageOf } from '../course/stages.ts';
import { defaultJobs } from '../grade/run/default-jobs.ts';
import { defaultIsolationMode, isIsolationMode } from '../grade/run/isolation/isolation-mode.ts';
import { findBwrap, probeSandbox } from '../grade/run/isolation/probe-sandbox.ts';
import { standbyPool, type StandbyPool } from '../grade/run/standby-pool.ts';

// Starts the program processes a one-off `test` run will want, or returns undefined for any other command
// (and for --watch, which keeps standbys of its own).
export function startEarly(argv: string[], cwd: string, env: NodeJS.ProcessEnv): StandbyPool | undefined {
  if (argv[0] !== 'test' || argv.some((a) => a === '--watch' || a === '--help' || a === '-h')) return undefined;
  // A class (several --dir, or a glob) is graded a submission at a time: no one directory to start in.
  const dirs = argv.filter((a, i) => a.startsWith('--dir=') || argv[i - 1] === '--dir');
  if (dirs.length > 1 || dirs.some((d) => /[*?[\]{}]/.test(d))) return undefined;
  const jobs = Number(flagValue(argv, '--jobs') ?? defaultJobs());
  if (!Number.isSafeInteger(jobs) || jobs < 1) return undefined; // the CLI says what is wrong with it
  const given = flagValue(argv, '--isolation');
  const mode = isIsolationMode(given) ? given : defaultIsolationMode(env);
  // Sandboxed when the sandbox works here, as the CLI will decide. Finding out takes a trivial sandbox's start
  // (about 25 ms, begun here for the CLI), so when bwrap is on PATH the standbys start sandboxed at once; if it
  // turns out not to work, the run finds them confined otherwise and starts its own. Without bwrap, `required`
  // starts none (the CLI says why and exits 2) and `auto` starts them unsandboxed.
  if (mode !== 'off') void probeSandbox(env);
  const sandbox =
    mode === 'off'
      ? false
      : findBwrap(env) !== undefined || (mode === 'required' ? Promise.reject(new Error('no bwrap')) : false);
  const pool = standbyPool({
    dir: courseDirFor(cwd, flagValue(argv, '--dir')),
    env,
    size: Math.min(jobs, availableParallelism()),
    sandbox,
    // The stage's program.ts mode: a standby waiting in another is never handed out.
    mode: stageOf(flagValue(argv, '--stage') ?? '')?.mode ?? 'dispatch',
  });
  void pool.fill();
  return pool;
}

// The value of `--name value` or `--name=value`, the last one given winning as in commander.
export function flagValue(argv: string[], name: string): string | undefined {
  let value: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === name) value = argv[i + 1];
    else if (arg.startsWith(`${name}=`)) value = arg.slice(name.length + 1);
  });
  return value;
}

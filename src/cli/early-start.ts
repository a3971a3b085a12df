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
import { readdirSync } from 'node:fs';
import { casesDir, packageRoot, stageOf } from '../course/stages.ts';
import { readTimings } from '../grade/case-timings.ts';
import { defaultJobs, jobsForWork } from '../grade/run/default-jobs.ts';
import { nameMatcher, parseShard, shardOf } from '../grade/select-cases.ts';
import { defaultIsolationMode, isIsolationMode } from '../grade/run/isolation/isolation-mode.ts';
import { findBwrap, probeSandbox } from '../grade/run/isolation/probe-sandbox.ts';
import { MEMORY_ENV } from '../grade/run/isolation/program-limits.ts';
import { standbyPool, type StandbyPool } from '../grade/run/standby-pool.ts';

// Starts the program processes a one-off `test` run will want, or returns undefined for any other command
// (and for --watch, which keeps standbys of its own).
export function startEarly(argv: string[], cwd: string, env: NodeJS.ProcessEnv): StandbyPool | undefined {
  if (argv[0] !== 'test' || argv.some((a) => a === '--watch' || a === '--help' || a === '-h')) return undefined;
  // A class (several --dir, or a glob) is graded a submission at a time: no one directory to start in.
  const dirs = argv.filter((a, i) => a.startsWith('--dir=') || argv[i - 1] === '--dir');
  if (dirs.length > 1 || dirs.some((d) => /[*?[\]{}]/.test(d))) return undefined;
  const dir = courseDirFor(cwd, flagValue(argv, '--dir'));
  const given = flagValue(argv, '--jobs');
  const jobs = given === undefined ? guessJobs(argv, dir) : Number(given);
  if (!Number.isSafeInteger(jobs) || jobs < 1) return undefined; // the CLI says what is wrong with it
  const isolation = flagValue(argv, '--isolation');
  const mode = isIsolationMode(isolation) ? isolation : defaultIsolationMode(env);
  // Sandboxed when the sandbox works here, as the CLI will decide. Finding out takes a trivial sandbox's start
  // (about 25 ms, begun here for the CLI), so when bwrap is on PATH the standbys start sandboxed at once; if it
  // turns out not to work, the run finds them confined otherwise and starts its own. Without bwrap, `required`
  // starts none (the CLI says why and exits 2) and `auto` starts them unsandboxed.
  if (mode !== 'off') void probeSandbox(env);
  const sandbox =
    mode === 'off'
      ? false
      : findBwrap(env) !== undefined || (mode === 'required' ? Promise.reject(new Error('no bwrap')) : false);
  // As the CLI will pass --memory on (src/cli/commands/test.ts), so that the run takes these standbys.
  const memory = flagValue(argv, '--memory');
  const stage = flagValue(argv, '--stage');
  const pool = standbyPool({
    dir,
    env: memory === undefined ? env : { ...env, [MEMORY_ENV]: memory },
    size: Math.min(jobs, availableParallelism()),
    sandbox,
    // The stage: a standby waiting to run another is never handed out.
    ...(stage === undefined ? {} : { stage }),
  });
  void pool.fill();
  return pool;
}

// The processes the run will choose (run-stage.ts, jobsForWork) for the cases the flags select, by name, with the
// course's timings; defaultJobs when that cannot be told from a glance (--failed, a flag the CLI will refuse).
function guessJobs(argv: string[], dir: string): number {
  const stage = flagValue(argv, '--stage');
  if (stage === undefined || argv.includes('--failed')) return defaultJobs();
  try {
    const files = readdirSync(casesDir(packageRoot(), stage)).filter((f) => f.endsWith('.json'));
    const patterns = flagValues(argv, '--case').map(nameMatcher);
    const names = files
      .map((f) => f.slice(0, -'.json'.length))
      .filter((name) => patterns.length === 0 || patterns.some((matches) => matches(name)))
      .sort();
    const shard = flagValue(argv, '--shard');
    const typicalMs = stageOf(stage)?.typicalCaseMs ?? 0;
    const work = { expectedMs: readTimings(dir, stage), typicalMs };
    return jobsForWork(shard === undefined ? names : shardOf(names, parseShard(shard)), work);
  } catch {
    return defaultJobs();
  }
}

// Every value of `--name value` or `--name=value`, in order.
export function flagValues(argv: string[], name: string): string[] {
  return argv.flatMap((arg, i) => {
    if (arg === name) return argv[i + 1] === undefined ? [] : [argv[i + 1]!];
    return arg.startsWith(`${name}=`) ? [arg.slice(name.length + 1)] : [];
  });
}

// The value of `--name value` or `--name=value`, the last one given winning as in commander.
export function flagValue(argv: string[], name: string): string | undefined {
  return flagValues(argv, name).at(-1);
}

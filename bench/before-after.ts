// `npm run bench:before-after`: this package against an earlier commit of it, side by side in one run, on the
// bench's own ratios: cold (register-tools, the grader sandboxed against the floor), loop (agent-loop, the same)
// and watch (save → verdict, sandboxed). Each tree is measured by its own floor, its own bin and its own watch
// bench, on its own reference. A ratio compares the same work: when the suites differ, a tree is graded again on
// only the cases both have, and the verdicts are on those series (before-after-plan.ts). The series take turns command by command, the order rotated each round, so the shared
// machine's drift weighs on all alike. Every grader run starts without the course's case timings (which choose
// its number of processes, and which a run under load records inflated), as a first run does.
//
// The earlier commit is by default the last one before the driver moved into the package (issue 24: the parent
// of the first commit touching src/modes/). It is exported once (git archive) into a temp directory named for it,
// with a node_modules of its own from its own lock file (npm ci, which builds it), and kept there for the next
// run; --fresh makes it again. The report goes to the terminal, and into docs/bench-results.md between its
// `before-after` markers when the rest of the machine was quiet meanwhile (others-cpu.ts), or with --write.
//
//   node --import tsx bench/before-after.ts [--before <commit>] [--rounds N] [--watch-rounds N] [--saves N]
//                                           [--fresh] [--write]
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { timingsPath } from '../src/grade/case-timings.ts';
import { cpuTimeMs } from '../src/process-table.ts';
import {
  formatRatio,
  NO_WORSE,
  onShared,
  perRound,
  planSeries,
  rotate,
  type Series,
  type Suites,
  verdict,
} from './before-after-plan.ts';
import { copyPackage } from './course-copy.ts';
import { describeMachine } from './machine.ts';
import { othersCores, readCpu } from './others-cpu.ts';
import { renderResultsPage, writeResultsPage } from './results-page.ts';
import { runCommand } from './run-command.ts';
import { formatSeconds, summarise } from './stats.ts';
import type { SaveSample } from './watch-latency.ts';

const packageRoot = resolve(import.meta.dirname, '..');
const node = process.execPath;
// Past this many cores' worth of other work on average, the run is not written into docs/bench-results.md
// (without --write): its numbers say more about the neighbours than about the grader.
const QUIET_OTHERS_CORES = 0.5;

// A tree measured: which side it is and its package root (built: bin runs dist/).
type Tree = { name: 'before' | 'after'; root: string };
// A series ready to run: its tree, and the package root its floor reads cases from (the tree's, or a copy holding
// only the series' cases).
type Ready = Series & { tree: Tree; pkg: string };

const printed: string[] = [];
const log = (line = ''): void => {
  printed.push(line);
  process.stdout.write(`${line}\n`);
};

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function count(name: string, fallback: number): number {
  const value = Number(option(name) ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`bench: ${name} takes a whole number of at least 1, e.g. ${name} ${fallback}`);
  return value;
}

const rounds = count('--rounds', 5);
const watchRounds = count('--watch-rounds', 2);
const saves = count('--saves', 6);

async function git(...args: string[]): Promise<string> {
  return (await execa('git', args, { cwd: packageRoot })).stdout.trim();
}

// The commit to compare with: --before, or the parent of the first commit that touched src/modes/.
async function beforeCommit(): Promise<string> {
  const given = option('--before');
  if (given !== undefined) return git('rev-parse', '--verify', `${given}^{commit}`);
  const first = (await git('log', '--reverse', '--format=%H', '--', 'src/modes')).split('\n')[0];
  if (first === undefined || first === '')
    throw new Error('bench: no commit touches src/modes/ here; name the earlier commit with --before <commit>');
  return git('rev-parse', `${first}^`);
}

// The earlier commit's tree with its own node_modules (npm ci from its own lock file, which builds dist/), made
// once per commit and kept; a tree whose install did not finish is made again.
async function prepareBefore(commit: string): Promise<string> {
  const root = join(tmpdir(), `theinference-bench-before-${commit.slice(0, 12)}`);
  const ready = join(root, '.bench-ready');
  if (process.argv.includes('--fresh')) await rm(root, { recursive: true, force: true });
  if (existsSync(ready)) return root;
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  // The sandbox's user (nobody, when the grader runs as root) must reach the tree it grades from.
  await chmod(root, 0o755);
  // To the terminal only: how a run began is not a result, and the page keeps no temp path.
  process.stdout.write(`preparing ${commit.slice(0, 12)} in ${root} (git archive, npm ci)…\n`);
  const archive = execa('git', ['archive', '--format=tar', commit], { cwd: packageRoot, encoding: 'buffer' });
  await execa('tar', ['-x', '-C', root], { input: (await archive).stdout });
  await execa('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: root, stdio: 'ignore' });
  await writeFile(ready, `${commit}\n`);
  return root;
}

// Each tree must run its compiled CLI, as an install does: a checkout whose src/ changed after its last build runs
// its sources through tsx (bin/find-cli.js), a third of a second slower a run. Checked before and after measuring:
// a tree edited meanwhile (a merge, say) measured something else.
async function checkCompiled(trees: Tree[]): Promise<void> {
  for (const tree of trees) {
    const { findCli } = (await import(pathToFileURL(join(tree.root, 'bin', 'find-cli.js')).href)) as {
      findCli: (root: string) => { needsTsx: boolean };
    };
    if (findCli(tree.root).needsTsx)
      throw new Error(`bench: ${tree.root} would run its sources through tsx: its dist/ is older; npm run build there`);
  }
}

const tsxOf = (tree: Tree): string =>
  pathToFileURL(createRequire(join(tree.root, 'package.json')).resolve('tsx/esm')).href;

// The stages measured: cold is register-tools, loop is agent-loop, as bench/run.ts and bench/loop-stage.ts name
// them. Watch saves are measured on register-tools.
const STAGES = [
  { label: 'cold', stage: 'register-tools' },
  { label: 'loop', stage: 'agent-loop' },
] as const;
const WATCH_STAGE = 'register-tools';

// The case files of each measured stage of a tree.
async function suitesOf(tree: Tree): Promise<Suites> {
  const suites = new Map<string, Set<string>>();
  for (const { stage } of STAGES) {
    const files = await readdir(join(tree.root, 'cases', stage));
    suites.set(stage, new Set(files.filter((file) => file.endsWith('.json'))));
  }
  return suites;
}

// The series with their package roots: a restricted one's floor reads its cases from a copy of its tree's package
// holding only those. Its grader runs from the tree itself, given each case by name (--case): a grader graded a
// course directory other than its own package root would first copy that directory into its sandbox (the tree
// whole: docs, tests, dist), which no other series pays.
async function readySeries(series: Series[], trees: Record<Tree['name'], Tree>): Promise<Ready[]> {
  return Promise.all(
    series.map(async (s) => {
      const tree = trees[s.side];
      const pkg = s.cases === undefined ? tree.root : (await copyPackage(tree.root, 1, s.cases)).dir;
      return { ...s, tree, pkg };
    }),
  );
}

// The copies' temp directories (each is `<temp>/theinference`).
const removeCopies = (ready: Ready[]): Promise<unknown> =>
  Promise.all(ready.filter((r) => r.pkg !== r.tree.root).map((r) => rm(resolve(r.pkg, '..'), { recursive: true })));

// How many cases a series grades of `stage`.
const casesOf = (r: Ready, suites: Record<Tree['name'], Suites>, stage: string): number =>
  (r.cases ?? suites[r.side]).get(stage)?.size ?? 0;

// One measured command: wall time, and CPU time (this process's and its reaped children's: the command's own,
// since commands run one at a time), both in ms.
type Sample = { ms: number; cpuMs: number };
type Command = { key: string; run: () => Promise<unknown> };

// The floor and the sandboxed grader of a series on `stage`, each checked to grade exactly that series' cases.
function stageCommands(r: Ready, label: string, stage: string, cases: number): Command[] {
  const expect = new RegExp(`^${cases} passed, 0 failed$`, 'm');
  const floor = join(r.tree.root, 'bench', 'floor.ts');
  const bin = join(r.tree.root, 'bin', 'theinference.js');
  const only = [...(r.cases?.get(stage) ?? [])].flatMap((file) => ['--case', file.slice(0, -'.json'.length)]);
  return [
    {
      key: `${r.name}: ${label} floor`,
      run: () =>
        runCommand(node, ['--import', tsxOf(r.tree), floor, r.tree.root, stage, r.pkg], { cwd: r.tree.root, expect }),
    },
    {
      key: `${r.name}: ${label} grader`,
      run: async () => {
        // No timings of an earlier run: the grader plans its processes as on a first run, in every series alike.
        await rm(timingsPath(r.tree.root, stage), { force: true });
        const args = [bin, 'test', '--stage', stage, '--dir', r.tree.root, '--isolation', 'required', ...only];
        return runCommand(node, args, { cwd: r.tree.root, expect });
      },
    },
  ];
}

// Each command once untimed (and checked), then `rounds` rounds; within a round, stage by stage, the series in an
// order rotated each round, each series' floor right before its grader.
async function measureCold(ready: Ready[], suites: Record<Tree['name'], Suites>): Promise<Map<string, Sample[]>> {
  const inRound = (round: number): Command[] =>
    STAGES.flatMap(({ label, stage }) =>
      rotate(ready, round).flatMap((r) => stageCommands(r, label, stage, casesOf(r, suites, stage))),
    );
  for (const c of inRound(0)) await c.run();
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round < rounds; round++) {
    for (const c of inRound(round)) {
      const [start, cpu] = [performance.now(), cpuTimeMs(process.pid)];
      await c.run();
      const sample = { ms: performance.now() - start, cpuMs: cpuTimeMs(process.pid) - cpu };
      samples.set(c.key, [...(samples.get(c.key) ?? []), sample]);
    }
  }
  return samples;
}

// Watch mode by each tree's own bench (its bench/watch-latency.ts, its reference course), the series in turn, the
// order rotated each round. A series on the shared cases hands them to that bench, which grades a copy of its
// package holding only those.
async function measureWatchAll(ready: Ready[]): Promise<Map<string, SaveSample[]>> {
  const samples = new Map<string, SaveSample[]>();
  for (let round = 0; round < watchRounds; round++) {
    for (const one of rotate(ready, round)) {
      const { measureWatch } = (await import(pathToFileURL(join(one.tree.root, 'bench', 'watch-latency.ts')).href)) as {
        measureWatch: (o: {
          packageRoot: string;
          stage: string;
          saves: number;
          isolation: string;
          cases?: Suites;
        }) => Promise<SaveSample[]>;
      };
      const got = await measureWatch({
        packageRoot: one.tree.root,
        stage: WATCH_STAGE,
        saves,
        isolation: 'required',
        ...(one.cases === undefined ? {} : { cases: one.cases }),
      });
      samples.set(one.name, [...(samples.get(one.name) ?? []), ...got]);
    }
  }
  return samples;
}

// The machine's load averages (1, 5 and 15 minutes).
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

// What was measured, for the report.
type Measured = {
  ready: Ready[];
  cold: Map<string, Sample[]>;
  watch: Map<string, SaveSample[]>;
};

const COLUMN = 28;
const LABEL = 34;

// A series' samples of a command, as wall or CPU ms.
const msOf = (m: Measured, r: Ready, command: string, cpu = false): number[] =>
  (m.cold.get(`${r.name}: ${command}`) ?? []).map((s) => (cpu ? s.cpuMs : s.ms));
// A series' watch saves with a failing or a passing verdict, in ms.
const savesOf = (m: Measured, r: Ready, passed: boolean): number[] =>
  (m.watch.get(r.name) ?? []).filter((s) => s.passed === passed).map((s) => s.ms);

// Every command's time by series (wall, then the graders' CPU), and every series' ratios.
function reportSeries(m: Measured): string[] {
  const lines = [`${'command'.padEnd(LABEL)}${m.ready.map((r) => r.name.padEnd(COLUMN)).join('')}`.trimEnd()];
  const row = (label: string, cells: string[]): string =>
    `${label.padEnd(LABEL)}${cells.map((c) => c.padEnd(COLUMN)).join('')}`.trimEnd();
  const seconds = (xs: number[]): string => (xs.length === 0 ? '—' : formatSeconds(summarise(xs)));
  for (const { label } of STAGES) {
    for (const cpu of [false, true])
      for (const part of ['floor', 'grader'])
        lines.push(
          row(
            `${label} ${part}${cpu ? ', CPU' : ''}`,
            m.ready.map((r) => seconds(msOf(m, r, `${label} ${part}`, cpu))),
          ),
        );
  }
  for (const passed of [false, true])
    lines.push(
      row(
        `watch ${passed ? 'passing' : 'failing'}`,
        m.ready.map((r) => seconds(savesOf(m, r, passed))),
      ),
    );
  lines.push('', 'grader / floor, per round (median and range), in wall time and in CPU time:');
  for (const { label } of STAGES)
    for (const cpu of [false, true])
      lines.push(
        row(
          `${label}: grader / floor${cpu ? ', CPU' : ''}`,
          m.ready.map((r) =>
            formatRatio(perRound(msOf(m, r, `${label} grader`, cpu), msOf(m, r, `${label} floor`, cpu))),
          ),
        ),
      );
  return lines;
}

// The verdicts, each on the two series that grade the cases both trees have.
function reportVerdicts(m: Measured): string[] {
  const [b, a] = [onShared(m.ready, 'before'), onShared(m.ready, 'after')] as [Ready, Ready];
  const lines = [
    `verdicts on the cases both trees have ("${b.name}" against "${a.name}"; "no worse": after ≤ ${NO_WORSE} × before):`,
  ];
  const row = (label: string, value: string, v: string): string =>
    `${label.padEnd(LABEL)}${value.padEnd(COLUMN + 12)}${v}`;
  for (const { label } of STAGES) {
    for (const cpu of [false, true]) {
      const ratio = (r: Ready): number =>
        perRound(msOf(m, r, `${label} grader`, cpu), msOf(m, r, `${label} floor`, cpu)).median;
      const [before, after] = [ratio(b), ratio(a)];
      const name = `${label}: grader / floor${cpu ? ', CPU' : ''}`;
      lines.push(row(name, `${before.toFixed(2)} → ${after.toFixed(2)}`, verdict(after, before)));
    }
  }
  for (const { label } of STAGES) {
    for (const cpu of [false, true]) {
      const paired = perRound(msOf(m, a, `${label} grader`, cpu), msOf(m, b, `${label} grader`, cpu));
      const name = `${label} grader${cpu ? ', CPU' : ''}: after / before`;
      lines.push(row(name, formatRatio(paired), verdict(paired.median, 1)));
    }
  }
  for (const passed of [false, true]) {
    const [before, after] = [summarise(savesOf(m, b, passed)), summarise(savesOf(m, a, passed))];
    const name = `watch ${passed ? 'passing' : 'failing'}: save → verdict`;
    const value = `${(before.median / 1000).toFixed(2)} s → ${(after.median / 1000).toFixed(2)} s`;
    lines.push(row(name, value, verdict(after.median, before.median)));
  }
  return lines;
}

async function main(): Promise<void> {
  const commit = await beforeCommit();
  const trees = {
    before: { name: 'before', root: await prepareBefore(commit) },
    after: { name: 'after', root: packageRoot },
  } satisfies Record<Tree['name'], Tree>;
  const suites = { before: await suitesOf(trees.before), after: await suitesOf(trees.after) };
  const series = planSeries(suites.before, suites.after);
  if (series.some((s) => s.side === 'before' && s.cases !== undefined))
    throw new Error(
      `bench: ${commit.slice(0, 12)} has cases this tree lacks, and its watch bench cannot be limited to the shared ones; name a later commit with --before`,
    );
  const head = await git('rev-parse', '--short=12', 'HEAD');
  log(`theinference bench, before / after: ${commit.slice(0, 12)} (before) against ${head} (after, this tree)`);
  log(`machine: ${describeMachine()}; load ${load()} at the start`);
  const sizes = STAGES.map(
    ({ stage }) => `${stage} ${suites.before.get(stage)?.size} → ${suites.after.get(stage)?.size}`,
  );
  log(`cases: ${sizes.join(', ')}; series: ${series.map((s) => s.name).join('; ')}`);
  log(
    `method: each command once untimed (checked), then ${rounds} rounds; in a round, stage by stage, each series' floor then its grader, the series' order rotated each round;`,
  );
  log(
    `        each grader run without the course's case timings (as a first run); watch: ${watchRounds} rounds of ${saves} saves per series, in turn. Sandboxed (--isolation required) throughout.`,
  );
  log();

  await checkCompiled(Object.values(trees));
  const ready = await readySeries(series, trees);
  const start = readCpu();
  let measured: Measured;
  try {
    measured = { ready, cold: await measureCold(ready, suites), watch: await measureWatchAll(ready) };
  } finally {
    await removeCopies(ready);
  }
  const others = othersCores(start, readCpu());
  await checkCompiled(Object.values(trees));

  for (const line of [...reportSeries(measured), '', ...reportVerdicts(measured)]) log(line);
  log(`the rest of the machine used ${others.toFixed(2)} cores on average meanwhile; load ${load()} at the end`);
  await writeReport(others);
}

// Into docs/bench-results.md, when the rest of the machine was quiet enough or --write says so.
async function writeReport(others: number): Promise<void> {
  if (!(others < QUIET_OTHERS_CORES) && !process.argv.includes('--write')) {
    process.stdout.write(
      `not written to docs/bench-results.md: other work used ${others.toFixed(2)} cores (the limit is ${QUIET_OTHERS_CORES}); --write writes it anyway\n`,
    );
    return;
  }
  const run = {
    date: new Date().toISOString(),
    command: ['npm run bench:before-after --', ...process.argv.slice(2)].join(' ').replace(/ --$/, ''),
    lines: printed,
  };
  await writeResultsPage(join(packageRoot, 'docs', 'bench-results.md'), (page) =>
    renderResultsPage(page, run, 'before-after'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

// `npm run bench:before-after`: this package against an earlier commit of it, side by side in one run, on the
// bench's own ratios: cold (register-tools, the grader sandboxed against the floor), loop (agent-loop, the same)
// and watch (save → verdict, sandboxed). Each tree is measured by its own floor, its own bin and its own watch
// bench, on its own reference; the two take turns round by round (the order swapped each round), so the shared
// machine's drift weighs on both alike. Compare the ratios: each is taken within one round of one tree.
//
// The earlier commit is by default the last one before the driver moved into the package (issue 24: the parent
// of the first commit touching src/modes/). It is exported once (git archive) into a temp directory named for it,
// with a node_modules of its own from its own lock file (npm ci, which builds it), and kept there for the next
// run; --fresh makes it again. The report goes to the terminal and into docs/bench-results.md between its
// `before-after` markers.
//
//   node --import tsx bench/before-after.ts [--before <commit>] [--rounds N] [--watch-rounds N] [--saves N] [--fresh]
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describeMachine } from './machine.ts';
import { renderResultsPage, writeResultsPage } from './results-page.ts';
import { runCommand } from './run-command.ts';
import { formatSeconds, summarise, type Summary } from './stats.ts';
import type { SaveSample } from './watch-latency.ts';

const packageRoot = resolve(import.meta.dirname, '..');
const node = process.execPath;
const ALL_PASS = /^\d+ passed, 0 failed$/m;
// The tolerance of "no worse": the machine drifts by more than this over minutes, less within one run.
const NO_WORSE = 1.05;

// A tree measured: its name in the report and its package root (built: bin runs dist/).
type Tree = { name: 'before' | 'after'; root: string };
// One timed command of a tree.
type Approach = { name: string; run: (tree: Tree) => Promise<unknown> };

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
  log(`preparing ${commit.slice(0, 12)} in ${root} (git archive, npm ci)…`);
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

// The floor and the sandboxed grader of one stage, as bench/run.ts and bench/loop-stage.ts run them.
function stageApproaches(stage: string, label: string): Approach[] {
  return [
    {
      name: `${label} floor`,
      run: (tree) =>
        runCommand(node, ['--import', tsxOf(tree), join(tree.root, 'bench', 'floor.ts'), tree.root, stage], {
          cwd: tree.root,
          expect: ALL_PASS,
        }),
    },
    {
      name: `${label} grader`,
      run: (tree) =>
        runCommand(
          node,
          [
            join(tree.root, 'bin', 'theinference.js'),
            'test',
            '--stage',
            stage,
            '--dir',
            tree.root,
            '--isolation',
            'required',
          ],
          { cwd: tree.root, expect: ALL_PASS },
        ),
    },
  ];
}

const APPROACHES = [...stageApproaches('register-tools', 'cold'), ...stageApproaches('agent-loop', 'loop')];

// Each approach of each tree once untimed (and checked), then `rounds` rounds: every approach of one tree, then
// of the other, the trees' order swapped each round.
async function measureCold(trees: Tree[]): Promise<Map<string, number[]>> {
  for (const tree of trees) for (const a of APPROACHES) await a.run(tree);
  const times = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
      for (const a of APPROACHES) {
        const start = performance.now();
        await a.run(tree);
        const key = `${tree.name}: ${a.name}`;
        times.set(key, [...(times.get(key) ?? []), performance.now() - start]);
      }
    }
  }
  return times;
}

// The stage whose saves watch mode is measured on.
const WATCH_STAGE = 'register-tools';

// One series of watch saves: a tree, graded on its own suite or only on `cases` (by stage, then file name).
type Series = { name: string; tree: Tree; cases?: ReadonlyMap<string, ReadonlySet<string>> };

// The case files of a tree's stage.
async function caseFiles(tree: Tree, stage: string): Promise<Set<string>> {
  return new Set((await readdir(join(tree.root, 'cases', stage))).filter((file) => file.endsWith('.json')));
}

// Each tree on its own suite; and when the suites differ, the after tree on the cases both have, so that a save
// is compared on equal work too: what a grown suite costs is not what the grader does.
async function watchSeries(before: Tree, after: Tree): Promise<Series[]> {
  const [was, is] = [await caseFiles(before, WATCH_STAGE), await caseFiles(after, WATCH_STAGE)];
  const shared = new Set([...was].filter((file) => is.has(file)));
  const own: Series[] = [
    { name: 'before', tree: before },
    { name: 'after', tree: after },
  ];
  if (shared.size === was.size && shared.size === is.size) return own;
  return [...own, { name: `${shared.size} shared cases`, tree: after, cases: new Map([[WATCH_STAGE, shared]]) }];
}

// Watch mode by each tree's own bench (its bench/watch-latency.ts, its reference course), the series in turn, the
// order rotated each round.
async function measureWatchAll(series: Series[]): Promise<Map<string, SaveSample[]>> {
  const samples = new Map<string, SaveSample[]>();
  for (let round = 0; round < watchRounds; round++) {
    for (const one of [...series.slice(round % series.length), ...series.slice(0, round % series.length)]) {
      const { measureWatch } = (await import(pathToFileURL(join(one.tree.root, 'bench', 'watch-latency.ts')).href)) as {
        measureWatch: (o: {
          packageRoot: string;
          stage: string;
          saves: number;
          isolation: string;
          cases?: ReadonlyMap<string, ReadonlySet<string>>;
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

// The stages whose suites the report counts, and how many cases each tree's has ("register-tools 117 → 123").
const STAGES = [WATCH_STAGE, 'agent-loop'];
async function suiteSizes(trees: Tree[], stage: string): Promise<string> {
  const sizes = await Promise.all(trees.map(async (tree) => (await caseFiles(tree, stage)).size));
  return `${stage} ${sizes.reverse().join(' → ')}`;
}

// The saves of a series with a failing or a passing verdict, in ms.
function savesOf(watch: Map<string, SaveSample[]>, name: string, passed: boolean): number[] {
  return (watch.get(name) ?? []).filter((s) => s.passed === passed).map((s) => s.ms);
}

// The watch rows: each save's time by series, then the median of each against the before tree's. A series of
// the after tree on fewer cases is compared with the before tree's own suite, which has those cases.
function reportWatch(series: Series[], watch: Map<string, SaveSample[]>, column: number): string[] {
  const lines: string[] = [];
  const [before, ...afters] = series;
  if (before === undefined) return lines;
  for (const passed of [false, true]) {
    const base = summarise(savesOf(watch, before.name, passed));
    for (const after of afters) {
      const got = summarise(savesOf(watch, after.name, passed));
      const label = `watch ${passed ? 'passing' : 'failing'}: ${after.name === 'after' ? 'own suites' : after.name}`;
      lines.push(
        `${label.padEnd(34)}${formatSeconds(base).padEnd(column)}${formatSeconds(got).padEnd(column)}${verdict(got.median, base.median)}`,
      );
    }
  }
  return lines;
}

// The machine's load averages (1, 5 and 15 minutes): on a shared machine, how much else ran.
const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const range = (s: Summary): string => `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
const perRound = (a: number[], b: number[]): Summary => summarise(a.map((x, i) => x / (b[i] ?? Number.NaN)));
const verdict = (after: number, before: number): string =>
  after <= before * NO_WORSE ? 'no worse' : `WORSE (×${(after / before).toFixed(2)})`;

async function main(): Promise<void> {
  const commit = await beforeCommit();
  const before: Tree = { name: 'before', root: await prepareBefore(commit) };
  const after: Tree = { name: 'after', root: packageRoot };
  const trees = [after, before];
  const series = await watchSeries(before, after);
  const head = await git('rev-parse', '--short=12', 'HEAD');
  log(`theinference bench, before / after: ${commit.slice(0, 12)} (before) against ${head} (after, this tree)`);
  log(`machine: ${describeMachine()}; load ${load()} at the start`);
  log(`cases: ${(await Promise.all(STAGES.map((stage) => suiteSizes(trees, stage)))).join(', ')}`);
  log(
    `method: each command of each tree once untimed (checked), then ${rounds} rounds of every command of one tree, then of the other, the order swapped each round;`,
  );
  log(
    `        watch: ${watchRounds} rounds of ${saves} saves per series (${series.map((s) => (s.cases === undefined ? s.name : `after on ${s.name}`)).join('; ')}), the series in turn. Sandboxed (--isolation required) throughout.`,
  );
  log();

  await checkCompiled(trees);
  const times = await measureCold(trees);
  const watch = await measureWatchAll(series);
  await checkCompiled(trees);
  const of = (tree: Tree, name: string): number[] => times.get(`${tree.name}: ${name}`) ?? [];

  log(`${'command'.padEnd(34)}${'before'.padEnd(28)}after`);
  for (const a of APPROACHES)
    log(
      `${a.name.padEnd(34)}${formatSeconds(summarise(of(before, a.name))).padEnd(28)}${formatSeconds(summarise(of(after, a.name)))}`,
    );
  for (const line of reportWatch(series, watch, 28)) log(line);
  log();

  log(`ratios (median and range over the rounds; "no worse": after ≤ ${NO_WORSE} × before; watch: the medians above):`);
  log(`${''.padEnd(34)}${'before'.padEnd(20)}${'after'.padEnd(20)}`);
  for (const label of ['cold', 'loop']) {
    const ratio = (tree: Tree): Summary => perRound(of(tree, `${label} grader`), of(tree, `${label} floor`));
    const [b, a] = [ratio(before), ratio(after)];
    log(
      `${`${label}: grader / floor`.padEnd(34)}${range(b).padEnd(20)}${range(a).padEnd(20)}${verdict(a.median, b.median)}`,
    );
  }
  for (const a of APPROACHES.filter((x) => x.name.endsWith('grader'))) {
    const paired = perRound(of(after, a.name), of(before, a.name));
    log(`${`${a.name}: after / before`.padEnd(34)}${range(paired).padEnd(40)}${verdict(paired.median, 1)}`);
  }
  log(`load ${load()} at the end`);

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

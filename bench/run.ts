// `npm run bench`: the grader against the floor, a vitest suite and one process per case, measured side by side
// in one run, at 115 cases and at ten times as many, and the sandbox's cost (the grader with --isolation required against --isolation off, same rounds);
// its peak memory; where its start-up time goes; and watch mode's save-to-verdict time, sandboxed and not.
// Timing is reported, never asserted: a target missed prints FAIL and the run still exits 0. A measurement
// that did not grade every case correctly is not a measurement: that exits 1. Raw numbers go to
// bench/results/latest.json (not committed).
//
// And what variants cost (the grader with and without them), a class of 50 submissions in one run against 50
// separate runs, and what writing the html report adds to a class run.
//
//   node --import tsx bench/run.ts [--runs N] [--saves N] [--class-rounds N]
//        [--only cold,stage,loop,memory,profile,phases,watch,hangs,variants,class,html,import,record,record-hangs,proxy]
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { copyCourse, copyPackage } from './course-copy.ts';
import { describeMachine } from './machine.ts';
import { measureMemory, type MemorySample } from './memory.ts';
import { gradePerProcess } from './per-process.ts';
import { freshTmp, profileSteps } from './profile.ts';
import { measureProxy, quantile, type ProxyBench } from './proxy-latency.ts';
import { measureHangs, type HangSample } from './hangs.ts';
import { measureLoopStage } from './loop-stage.ts';
import { measureClass, SUBMISSIONS, type ClassSample } from './class-run.ts';
import { HTML_SUBMISSIONS, type HtmlSample, measureHtmlReport, type PageCost } from './html-report.ts';
import { measureImport } from './record-import.ts';
import { measureRecordHangs } from './record-hangs.ts';
import { measureRecord } from './record-session.ts';
import { runCommand } from './run-command.ts';
import { formatMegabytes, formatSeconds, summarise, type Summary } from './stats.ts';
import { mergeBenchBlocks, writeResultsPage } from './results-page.ts';
import { measureStaging } from './stage-cost.ts';
import { makeVitestSuite } from './vitest-suite.ts';
import { REPLAY_BASH_MS } from '../src/record/record-transcripts.ts';
import { measureWatch, type SaveSample } from './watch-latency.ts';

const STAGE = 'register-tools';
const packageRoot = resolve(import.meta.dirname, '..');
// This repository is the course directory: its program.ts, src/execute.ts and src/tools/ are the reference.
const dir = packageRoot;
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
const node = process.execPath;
const bin = join(packageRoot, 'bin', 'theinference.js');
const ALL_PASS = /^\d+ passed, 0 failed$/m;

type Approach = { name: string; run: () => Promise<unknown> };

const runs = flag('--runs', 3);
const saves = flag('--saves', 6);
// A class round grades 50 submissions twice over (one run, then 50 runs), with and without variants: minutes each.
const classRounds = flag('--class-rounds', 1);
const SECTIONS = [
  'cold',
  'stage',
  'loop',
  'memory',
  'profile',
  'phases',
  'watch',
  'hangs',
  'variants',
  'class',
  'html',
  'import',
  'record',
  'record-hangs',
  'proxy',
] as const;
type Section = (typeof SECTIONS)[number];
const only = sections();
// Every line the bench prints while a bench is `current` is also kept for that bench's block of
// docs/bench-results.md (its details as it measures, then its targets); the run's header goes to stdout only.
const printed = new Map<Section, string[]>();
let current: Section | undefined;
const log = (line = ''): void => {
  if (current !== undefined) printed.set(current, [...(printed.get(current) ?? []), line]);
  process.stdout.write(`${line}\n`);
};

// Runs one bench's measurement with what it prints kept for its block.
async function measuring<T>(section: Section, measure: () => Promise<T>): Promise<T> {
  current = section;
  try {
    return await measure();
  } finally {
    current = undefined;
  }
}

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`bench: ${name} takes a whole number of at least 1, e.g. ${name} ${fallback}`);
  return value;
}

// Which sections to run: every one, or those `--only` names (a comma-separated list), for a quicker look at one.
function sections(): Set<Section> {
  const at = process.argv.indexOf('--only');
  if (at === -1) return new Set(SECTIONS);
  const names = (process.argv[at + 1] ?? '').split(',');
  const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(`bench: --only takes some of ${SECTIONS.join(',')}, got '${unknown.join(',')}'`);
  return new Set(names as Section[]);
}

async function main(): Promise<void> {
  const caseCount = (await readdir(join(packageRoot, 'cases', STAGE))).filter((n) => n.endsWith('.json')).length;
  log(`theinference bench: stage ${STAGE}, ${caseCount} cases, course dir ${dir}`);
  log(`machine: ${describeMachine()}`);
  log(
    `method: one untimed warm-up run of each approach (also checks it grades every case correctly), then ${runs} rounds;`,
  );
  log('        each round runs every approach once, in rotated order; wall time from spawn to exit.');
  log('        The grader runs sandboxed (bubblewrap) unless an approach says --isolation off.');
  log();

  const times = only.has('cold') ? await measuring('cold', measureApproaches) : new Map<string, number[]>();
  const staged = only.has('stage') ? await measuring('stage', measureStagedRuns) : undefined;
  const loop = only.has('loop')
    ? await measuring('loop', () => measureLoopStage({ packageRoot, tsx, log, rounds: measureRounds }))
    : undefined;
  const memory = only.has('memory') ? await measuring('memory', measureGraderMemory) : [];
  const profile = only.has('profile') ? await measuring('profile', measureProfile) : new Map<string, number[]>();
  const phases = only.has('phases') ? await measuring('phases', measurePhases) : [];
  const watch = only.has('watch') ? await measuring('watch', measureWatchMode) : [];
  const hangs = only.has('hangs') ? await measuring('hangs', measureHangMode) : [];
  const variants = only.has('variants') ? await measuring('variants', measureVariants) : new Map<string, number[]>();
  const klass = only.has('class') ? await measuring('class', measureClassRuns) : [];
  const html = only.has('html') ? await measuring('html', measureHtmlRuns) : undefined;
  const proxy = only.has('proxy') ? await measuring('proxy', measureLiveProxy) : undefined;
  const imported = only.has('import')
    ? await measuring('import', () => measureImport({ packageRoot, runs, log }))
    : undefined;
  const recorded = only.has('record')
    ? await measuring('record', () => measureRecord({ packageRoot, runs, log }))
    : undefined;
  const recordHangs = only.has('record-hangs')
    ? await measuring('record-hangs', () => measureRecordHangs({ packageRoot, log }))
    : [];

  const per = (name: string): number[] => times.get(name) ?? [];
  const ratio = (a: number[], b: number[]): Summary => summarise(a.map((x, i) => x / (b[i] ?? Number.NaN)));
  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');
  const range = (s: Summary): string => `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
  log('targets (cold: ratios per round, grader time / other time in the same round; median and range):');
  if (only.has('cold')) {
    current = 'cold';
    const vsFloor = ratio(per(GRADER), per(FLOOR));
    const vsVitest = ratio(per(GRADER), per(VITEST));
    const vsOff = ratio(per(GRADER), per(GRADER_OFF));
    const tenfold = ratio(per(GRADER_10X), per(FLOOR_10X));
    const tenfoldOne = ratio(per(GRADER_10X_ONE), per(FLOOR_10X));
    const tenfoldMany = ratio(per(GRADER_10X_MANY), per(FLOOR_10X));
    log(
      `${'  grader / floor  ≤ 1.0'.padEnd(TARGET_WIDTH)}${range(vsFloor).padEnd(24)}${verdict(vsFloor.median <= 1.0)}`,
    );
    log(
      `${`  ${SUITE_COPIES}x suite: grader / floor ≤ 0.7`.padEnd(TARGET_WIDTH)}${range(tenfold).padEnd(24)}${verdict(tenfold.median <= 0.7)}`,
    );
    log(`${`  ${SUITE_COPIES}x suite: grader --jobs 1 / floor`.padEnd(TARGET_WIDTH)}${range(tenfoldOne)}`);
    log(`${`  ${SUITE_COPIES}x suite: grader --jobs 8 / floor`.padEnd(TARGET_WIDTH)}${range(tenfoldMany)}`);
    log(
      `${'  grader / vitest ≤ 0.8'.padEnd(TARGET_WIDTH)}${range(vsVitest).padEnd(24)}${verdict(vsVitest.median <= 0.8)}`,
    );
    log(
      `${'  sandboxed / --isolation off ≤ 1.05'.padEnd(TARGET_WIDTH)}${range(vsOff).padEnd(24)}${verdict(vsOff.median <= 1.05)}`,
    );
  }
  if (staged !== undefined) {
    current = 'stage';
    const vsShown = ratio(staged.times.get(STAGED) ?? [], staged.times.get(SHOWN) ?? []);
    log(
      `${'  staged / shown as it is ≤ 1.05'.padEnd(TARGET_WIDTH)}${range(vsShown).padEnd(24)}${verdict(vsShown.median <= 1.05)}`,
    );
    const copy = summarise(staged.staging);
    log(
      `${'  staging a course directory ≤ 20 ms'.padEnd(TARGET_WIDTH)}${`${copy.median.toFixed(1)} ms`.padEnd(24)}${verdict(copy.median <= 20)}`,
    );
  }
  // The loop stage is held to register-tools' targets: a student's run of either stage should feel the same.
  if (loop !== undefined) {
    current = 'loop';
    log(
      `${'  agent-loop: grader / floor ≤ 1.5'.padEnd(TARGET_WIDTH)}${range(loop.vsFloor).padEnd(24)}${verdict(loop.vsFloor.median <= 1.5)}`,
    );
    log(
      `${'  agent-loop: sandboxed / off ≤ 1.05'.padEnd(TARGET_WIDTH)}${range(loop.vsOff).padEnd(24)}${verdict(loop.vsOff.median <= 1.05)}`,
    );
  }
  // Both kinds of save are held to the target: a student sees failing verdicts more often than passing ones. A
  // failing save's first failure, on screen before its verdict, is the answer a student waits for.
  current = 'watch';
  for (const isolation of WATCH_MODES) {
    const firsts = watch.filter((s) => s.isolation === isolation && s.probe).flatMap((s) => s.firstFailureMs ?? []);
    if (firsts.length > 0) {
      log(
        `  watch save → first failure${isolation === 'off' ? ', off' : ''} ≤ 0.3 s`.padEnd(TARGET_WIDTH) +
          `${formatSeconds(summarise(firsts)).padEnd(24)}${verdict(summarise(firsts).median <= 300)}`,
      );
    }
    for (const passed of [false, true]) {
      const of = (probe: boolean) =>
        watch.filter((s) => s.passed === passed && s.isolation === isolation && s.probe === probe).map((s) => s.ms);
      const ms = of(true);
      if (ms.length === 0) continue;
      const kind = `${passed ? 'passing' : 'failing'}${isolation === 'off' ? ', off' : ''}`;
      log(
        `  watch save → ${kind} verdict ≤ 0.8 s`.padEnd(TARGET_WIDTH) +
          `${formatSeconds(summarise(ms)).padEnd(24)}${verdict(summarise(ms).median <= 800)}`,
      );
      // What the probe adds to a save: its verdict's median against the same with the probe off, in one run.
      const off = of(false);
      if (off.length === 0) continue;
      const cost = summarise(ms).median / summarise(off).median;
      log(
        `  watch ${kind}: probe on/off ≤ 1.1`.padEnd(TARGET_WIDTH) +
          `${cost.toFixed(2).padEnd(24)}${verdict(cost <= 1.1)}`,
      );
    }
  }
  // Hangs side by side: all of them together cost about one timeout (10 s), plus the processes' starts.
  current = 'hangs';
  for (const hang of new Set(hangs.map((h) => h.hang))) {
    for (const isolation of WATCH_MODES) {
      const ms = hangs.filter((h) => h.hang === hang && h.isolation === isolation).map((h) => h.ms);
      if (ms.length === 0) continue;
      const name = `  hangs: ${hang.split(' (')[0]}${isolation === 'off' ? ', off' : ''} ≤ 15 s`;
      const s = summarise(ms);
      const seconds = `${(s.median / 1000).toFixed(2)} s (${(s.min / 1000).toFixed(2)}–${(s.max / 1000).toFixed(2)})`;
      log(`${name.padEnd(TARGET_WIDTH)}${seconds.padEnd(24)}${verdict(s.median <= 15_000)}`);
    }
  }
  if (only.has('variants')) {
    current = 'variants';
    const cost = ratio(variants.get(WITH_VARIANTS) ?? [], variants.get(WITHOUT_VARIANTS) ?? []);
    log(`${'  with variants / without ≤ 2'.padEnd(TARGET_WIDTH)}${range(cost).padEnd(24)}${verdict(cost.median <= 2)}`);
  }
  current = 'class';
  for (const withVariants of [false, true]) {
    const ms = (approach: string) =>
      klass.filter((k) => k.variants === withVariants && k.approach === approach).map((k) => k.ms);
    const [one, separate] = [ms('one run'), ms('separate runs')];
    if (one.length === 0) continue;
    const saved = ratio(separate, one);
    const name = `  ${SUBMISSIONS} runs / 1 run of ${SUBMISSIONS}${withVariants ? ', variants' : ''} ≥ 1.3`;
    log(`${name.padEnd(TARGET_WIDTH)}${range(saved).padEnd(24)}${verdict(saved.median >= 1.3)}`);
    const floor = ms('floor');
    if (floor.length === 0) continue;
    const vsFloor = ratio(one, floor);
    const label = `  1 run of ${SUBMISSIONS} / the class's floor ≤ 0.6`;
    log(`${label.padEnd(TARGET_WIDTH)}${range(vsFloor).padEnd(24)}${verdict(vsFloor.median <= 0.6)}`);
  }
  if (html !== undefined) {
    current = 'html';
    // The page is written once, after every submission is graded: its share of a class run should be small.
    const cost = ratio(
      html.samples.filter((h) => h.page).map((h) => h.ms),
      html.samples.filter((h) => !h.page).map((h) => h.ms),
    );
    const name = `  class of ${HTML_SUBMISSIONS}: with html page / without (CLI, noisy)`;
    log(`${name.padEnd(TARGET_WIDTH)} ${range(cost)}`);
    const added = (html.cost.gradeMs + summarise(html.cost.writeMs).median) / html.cost.gradeMs;
    const label = `  class of ${HTML_SUBMISSIONS}: (grading + page) / grading ≤ 1.01`;
    log(`${label.padEnd(TARGET_WIDTH)} ${added.toFixed(4).padEnd(24)}${verdict(added <= 1.01)}`);
    // The class view in Chromium: the large class against the graded one, side by side, and each against its bound.
    const [small, large] = html.cost.views;
    if (small !== undefined && large !== undefined) {
      for (const [what, key, bound] of [
        ['load', 'loadMs', 1000],
        ['sort', 'sortMs', 200],
      ] as const) {
        const grows = ratio(large[key], small[key]);
        const name = `  class view ${what}: ${large.submissions} / ${small.submissions} submissions`;
        log(`${name.padEnd(TARGET_WIDTH)} ${range(grows)}`);
        const median = summarise(large[key]).median;
        const label = `  class view ${what} of ${large.submissions} < ${bound} ms`;
        log(`${label.padEnd(TARGET_WIDTH)} ${`${median.toFixed(0)} ms`.padEnd(24)}${verdict(median < bound)}`);
      }
    }
  }
  if (proxy !== undefined) {
    current = 'proxy';
    for (const [name, q] of [
      ['median', 0.5],
      ['p99', 0.99],
    ] as const) {
      const gained = quantile(proxy.proxied, q) - quantile(proxy.direct, q);
      log(
        `  live proxy: chunk latency gained, ${name.padEnd(6)} ≤ 5 ms  ${`${gained.toFixed(2)} ms`.padEnd(24)}${verdict(gained <= 5)}`,
      );
    }
    const growth = proxyMemoryGrowthMb(proxy);
    log(
      `  live proxy: memory growth over the long stream ≤ 32 MB  ${`${growth.toFixed(0)} MB`.padEnd(18)}${verdict(growth <= 32)}`,
    );
  }
  if (imported !== undefined) {
    current = 'import';
    const cold = summarise(imported.session.coldMs);
    log(`  import 3.4 MB session < 1 s        ${formatSeconds(cold).padEnd(24)}${verdict(cold.max < 1000)}`);
    // Both ways of repeating a real session: its calls once (same ids), or every copy's calls kept (unique ids).
    for (const r of imported.repeated) {
      const label = `import 200 MB peak RSS < 200 MB (${r.variant})`.padEnd(46);
      log(`  ${label}${`${(r.peakRssKb / 1024).toFixed(0)} MB`.padEnd(24)}${verdict(r.peakRssKb < 200 * 1024)}`);
    }
    const line = imported.oneLine;
    log(
      `${'  secrets in one 8 MB line < 20 s'.padEnd(38)}${`${(line.ms / 1000).toFixed(2)} s`.padEnd(24)}${verdict(line.ms < 20_000)}`,
    );
  }
  if (recorded !== undefined) {
    current = 'record';
    log(
      `  record 3.4 MB session < 10 s       ${formatSeconds(recorded.session).padEnd(24)}${verdict(recorded.session.max < 10_000)}`,
    );
    const share = recorded.seen === 0 ? 0 : recorded.kept / recorded.seen;
    log(`  record yield ≥ 40 % of calls       ${`${(100 * share).toFixed(1)} %`.padEnd(24)}${verdict(share >= 0.4)}`);
  }

  // Linear: each hanging command waits out the replay's bound once, so the slope from the fewest to the most is
  // about the bound (5 s) per command; replaying a window again without each dropped one makes it grow with N.
  current = 'record-hangs';
  const [fewest, most] = [recordHangs[0], recordHangs.at(-1)];
  if (fewest !== undefined && most !== undefined && most !== fewest) {
    const slope = (most.ms - fewest.ms) / (most.commands - fewest.commands) / REPLAY_BASH_MS;
    log(
      '  record: each hanging command ≤ 1.2 × bound'.padEnd(TARGET_WIDTH) +
        `${`${slope.toFixed(2)} × ${REPLAY_BASH_MS / 1000} s`.padEnd(24)}${verdict(slope <= 1.2)}`,
    );
    const growth = most.ms / fewest.ms;
    const linear = most.commands / fewest.commands;
    log(
      `  record: ${most.commands} / ${fewest.commands} hanging ≤ ${linear} (N², ${linear ** 2})`.padEnd(TARGET_WIDTH) +
        `${`${growth.toFixed(2)}`.padEnd(24)}${verdict(growth <= linear)}`,
    );
  }
  current = undefined;

  await mkdir(join(packageRoot, 'bench', 'results'), { recursive: true });
  const results = {
    date: new Date().toISOString(),
    machine: describeMachine(),
    stage: STAGE,
    caseCount,
    runs,
    times: Object.fromEntries(times),
    staged: staged === undefined ? undefined : { times: Object.fromEntries(staged.times), staging: staged.staging },
    loop,
    memory,
    profile: Object.fromEntries(profile),
    phases,
    watch,
    hangs,
    variants: Object.fromEntries(variants),
    class: klass,
    html,
    import: imported,
    record: recorded,
    recordHangs,
    proxy,
  };
  await writeFile(join(packageRoot, 'bench', 'results', 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const run = {
    date: results.date,
    command: ['npm run bench --', ...process.argv.slice(2)].join(' ').replace(/ --$/, ''),
    machine: results.machine,
    blocks: SECTIONS.filter((s) => only.has(s)).map((name) => ({ name, lines: printed.get(name) ?? [] })),
  };
  await writeResultsPage(join(packageRoot, 'docs', 'bench-results.md'), (page) =>
    mergeBenchBlocks(page, run, SECTIONS),
  );
}

const FLOOR = 'floor: 1 tsx process, every case in-process';
const VITEST = 'vitest: 1 file, 1 test per case';
const PER_PROCESS = 'per-process tsx, 2 at a time';
const GRADER = 'grader, cold (sandboxed: --isolation required)';
const GRADER_OFF = 'grader, cold, --isolation off';
// The suite with every case there SUITE_COPIES times (1,150 cases), each with its snapshot: a course that records
// sessions every week, or grades a class, reaches four figures.
const SUITE_COPIES = 10;
const FLOOR_10X = `floor, ${SUITE_COPIES}x suite`;
const GRADER_10X = `grader, cold, ${SUITE_COPIES}x suite (sandboxed)`;
const GRADER_10X_ONE = `grader, cold, ${SUITE_COPIES}x suite, --jobs 1`;
// Twice the processes the default chooses for the 10x suite on 2 cores (4): whether more would have paid.
const GRADER_10X_MANY = `grader, cold, ${SUITE_COPIES}x suite, --jobs 8`;
// The width of a target's name in the summary.
const TARGET_WIDTH = 46;
// Watch mode is measured sandboxed (what a student gets where bubblewrap works) and not, one after the other.
const WATCH_MODES = ['required', 'off'] as const;

async function measureApproaches(): Promise<Map<string, number[]>> {
  const vitest = await makeVitestSuite({ packageRoot, dir, stage: STAGE });
  // The 10x suite: a copy of the package (compiled) with every case copied, graded in a copy of the course.
  const tenfold = await copyPackage(packageRoot, SUITE_COPIES);
  const course = await copyCourse();
  const gradeTenfold = (extra: string[]) => () =>
    runCommand(
      node,
      [join(tenfold.dir, 'bin', 'theinference.js'), 'test', '--stage', STAGE, '--dir', course.dir, ...extra],
      { cwd: course.dir, expect: ALL_PASS },
    );
  try {
    const approaches: Approach[] = [
      {
        name: FLOOR,
        run: () =>
          runCommand(node, ['--import', tsx, join(packageRoot, 'bench', 'floor.ts'), dir, STAGE], {
            cwd: dir,
            expect: ALL_PASS,
          }),
      },
      { name: VITEST, run: () => runCommand(vitest.command, vitest.args, { cwd: vitest.root }) },
      { name: PER_PROCESS, run: () => gradePerProcess({ packageRoot, dir, stage: STAGE, tsx, concurrency: 2 }) },
      {
        name: GRADER,
        run: () =>
          runCommand(node, [bin, 'test', '--stage', STAGE, '--dir', dir, '--isolation', 'required'], {
            cwd: dir,
            expect: ALL_PASS,
          }),
      },
      {
        name: GRADER_OFF,
        run: () =>
          runCommand(node, [bin, 'test', '--stage', STAGE, '--dir', dir, '--isolation', 'off'], {
            cwd: dir,
            expect: ALL_PASS,
          }),
      },
      {
        name: FLOOR_10X,
        run: () =>
          runCommand(node, ['--import', tsx, join(packageRoot, 'bench', 'floor.ts'), course.dir, STAGE, tenfold.dir], {
            cwd: course.dir,
            expect: ALL_PASS,
          }),
      },
      { name: GRADER_10X, run: gradeTenfold(['--isolation', 'required']) },
      { name: GRADER_10X_ONE, run: gradeTenfold(['--isolation', 'required', '--jobs', '1']) },
      { name: GRADER_10X_MANY, run: gradeTenfold(['--isolation', 'required', '--jobs', '8']) },
    ];
    const times = await measureRounds(approaches);
    log(`${'approach'.padEnd(48)}median (range, n)`);
    for (const a of approaches) log(a.name.padEnd(48) + formatSeconds(summarise(times.get(a.name) ?? [])));
    log();
    return times;
  } finally {
    await vitest.remove();
    await tenfold.remove();
    await course.remove();
  }
}

const STAGED = 'a course directory (staged: the grader copies it)';
const SHOWN = 'the package root (the reference: shown as it is)';

// The grader on a student's course directory, which it stages, beside the same files graded where they are (this
// repository, whose reference the sandbox shows as it is), same rounds; and the staging alone.
async function measureStagedRuns(): Promise<{ times: Map<string, number[]>; staging: number[] }> {
  log('the staged copy (issue 14), both sandboxed, same rounds method:');
  const course = await copyCourse();
  try {
    const grade = (where: string) => () =>
      runCommand(node, [bin, 'test', '--stage', STAGE, '--dir', where, '--isolation', 'required'], {
        cwd: where,
        expect: ALL_PASS,
      });
    const approaches = [
      { name: STAGED, run: grade(course.dir) },
      { name: SHOWN, run: grade(dir) },
    ];
    const times = await measureRounds(approaches);
    for (const a of approaches) log(`  ${a.name.padEnd(58)}${formatSeconds(summarise(times.get(a.name) ?? []))}`);
    const staging = await measureStaging(20);
    log(
      `  ${'staging alone (read + copy, after an edit), in process'.padEnd(58)}${summarise(staging).median.toFixed(1)} ms`,
    );
    log();
    return { times, staging };
  } finally {
    await course.remove();
  }
}

async function measureGraderMemory(): Promise<MemorySample[]> {
  log('peak memory of the grader process tree (3 separate runs, not timed):');
  const memory: MemorySample[] = [];
  for (let i = 0; i < 3; i++)
    memory.push(await measureMemory(node, [bin, 'test', '--stage', STAGE, '--dir', dir], dir));
  log(
    `  sum of the tree's resident sets, sampled every 10 ms: ${formatMegabytes(summarise(memory.map((m) => m.treeKb)))}`,
  );
  const largest = memory.map((m) => m.largestKb).filter((kb): kb is number => kb !== undefined);
  const gnu = largest.length > 0 ? formatMegabytes(summarise(largest)) : '(GNU time not installed)';
  log(`  largest single process (GNU time %M):                ${gnu}`);
  log();
  return memory;
}

async function measureProfile(): Promise<Map<string, number[]>> {
  log('start-up profile (same rounds method):');
  const profile = await profileSteps({ packageRoot, dir, stage: STAGE, tsx });
  try {
    const stepTimes = await measureRounds(
      profile.steps.map((s) => ({
        name: s.label,
        run: () =>
          Promise.all(
            Array.from({ length: s.copies ?? 1 }, async () => {
              const tmp = s.tmpdir === undefined ? undefined : await freshTmp(s.tmpdir);
              try {
                return await runCommand(s.command, s.args, { cwd: s.cwd, ...(tmp ? { env: tmp.env } : {}) });
              } finally {
                await tmp?.remove();
              }
            }),
          ),
      })),
    );
    for (const s of profile.steps)
      log(`  ${s.label.padEnd(68)}${formatSeconds(summarise(stepTimes.get(s.label) ?? []))}`);
    log();
    return stepTimes;
  } finally {
    await profile.remove();
  }
}

async function measurePhases(): Promise<Array<Record<string, number>>> {
  log(`grader phases, in-process through its modules (bench/grader-timeline.ts, ${runs} runs):`);
  const phases: Array<Record<string, number>> = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await runCommand(
      node,
      ['--import', tsx, join(packageRoot, 'bench', 'grader-timeline.ts'), dir, STAGE],
      { cwd: dir },
    );
    phases.push(JSON.parse(stdout) as Record<string, number>);
  }
  for (const phase of Object.keys(phases[0] ?? {}))
    log(`  ${phase.padEnd(52)}${formatSeconds(summarise(phases.map((p) => p[phase] ?? 0)))}`);
  log();
  return phases;
}

async function measureWatchMode(): Promise<Array<SaveSample & { isolation: string; probe: boolean }>> {
  log(
    `watch mode under a pseudo-terminal, save to first failure and to verdict (${runs} rounds of ${saves} saves alternating broken/fixed src/execute.ts, the probe on and off in turn, each --isolation in turn):`,
  );
  const watch: Array<SaveSample & { isolation: string; probe: boolean }> = [];
  for (const isolation of WATCH_MODES) {
    // The probe on and off side by side: the same course, its program.ts's probe mode switched off in the other,
    // the two taking turns for `runs` rounds so that the machine's load weighs on both alike.
    for (let round = 0; round < runs; round++) {
      for (const probe of round % 2 === 0 ? [true, false] : [false, true]) {
        const samples = await measureWatch({ packageRoot, stage: STAGE, saves, isolation, probe, terminal: true });
        watch.push(...samples.map((s) => ({ ...s, isolation, probe })));
      }
    }
    for (const probe of [true, false]) {
      const of = (passed: boolean) =>
        watch.filter((s) => s.isolation === isolation && s.probe === probe && s.passed === passed).map((s) => s.ms);
      const which = `--isolation ${isolation.padEnd(8)}${probe ? '' : ' probe off'}`.padEnd(32);
      const firsts = watch
        .filter((s) => s.isolation === isolation && s.probe === probe)
        .flatMap((s) => s.firstFailureMs ?? []);
      if (firsts.length > 0) log(`  ${which} save → first failure:   ${formatSeconds(summarise(firsts))}`);
      if (of(false).length > 0) log(`  ${which} save → failing verdict: ${formatSeconds(summarise(of(false)))}`);
      if (of(true).length > 0) log(`  ${which} save → passing verdict: ${formatSeconds(summarise(of(true)))}`);
    }
  }
  log();
  return watch;
}

async function measureHangMode(): Promise<HangSample[]> {
  log(
    `hangs: the whole stage on a course whose echo never returns (its echo cases hang), default --timeout and --jobs, ${runs} rounds:`,
  );
  const samples = await measureHangs({ packageRoot, stage: STAGE, runs, isolations: WATCH_MODES });
  for (const hang of new Set(samples.map((s) => s.hang))) {
    for (const isolation of WATCH_MODES) {
      const ms = samples.filter((s) => s.hang === hang && s.isolation === isolation).map((s) => s.ms);
      log(
        `  ${hang.padEnd(56)} --isolation ${isolation.padEnd(8)} ${formatSeconds(summarise(ms))}  (${samples[0]?.verdict})`,
      );
    }
  }
  log();
  return samples;
}

const WITHOUT_VARIANTS = 'grader, cold, sandboxed, --no-variants';
const WITH_VARIANTS = 'grader, cold, sandboxed, --variants';

// Every case again as its variant, and the reference beside it: the same course, the same rounds.
async function measureVariants(): Promise<Map<string, number[]>> {
  log(`variants: the reference course graded without and with them, ${runs} rounds:`);
  const grade = (flag: string) => () =>
    runCommand(node, [bin, 'test', '--stage', STAGE, '--dir', dir, '--isolation', 'required', flag], {
      cwd: dir,
      env: { CI: '', THEINFERENCE_VARIANTS: '' },
      expect: ALL_PASS,
    });
  const times = await measureRounds([
    { name: WITHOUT_VARIANTS, run: grade('--no-variants') },
    { name: WITH_VARIANTS, run: grade('--variants') },
  ]);
  for (const [name, ms] of times) log(`  ${name.padEnd(48)}${formatSeconds(summarise(ms))}`);
  log();
  return times;
}

async function measureClassRuns(): Promise<ClassSample[]> {
  log(
    `a class: ${SUBMISSIONS} submissions (every fifth wrong) in one run against ${SUBMISSIONS} separate runs one after another and, without variants, against the class's floor (one process, every submission's cases in turn), default --jobs, sandboxed, ${classRounds} round(s) each way:`,
  );
  const samples = await measureClass({ packageRoot, stage: STAGE, rounds: classRounds, tsx, log });
  log();
  return samples;
}

async function measureHtmlRuns(): Promise<{ samples: HtmlSample[]; cost: PageCost }> {
  log(
    `the html report: a class of ${HTML_SUBMISSIONS} (every other one wrong) graded with a --summary only and with --reporter html as well, side by side, sandboxed, ${classRounds} round(s); then the page's own cost:`,
  );
  const measured = await measureHtmlReport({ packageRoot, stage: STAGE, rounds: classRounds, log });
  log();
  return measured;
}

async function measureLiveProxy(): Promise<ProxyBench> {
  log(
    `live proxy (bench/proxy-latency.ts): ${runs} rounds of 500 SSE events 2 ms apart, direct and through the proxy, then a 200 MB stream:`,
  );
  const proxy = await measureProxy({ packageRoot, tsx, rounds: runs });
  const ms = (samples: number[], q: number): string => `${quantile(samples, q).toFixed(2)} ms`;
  for (const via of ['direct', 'proxied'] as const) {
    log(
      `  ${via.padEnd(8)} per-event latency: median ${ms(proxy[via], 0.5)}, p99 ${ms(proxy[via], 0.99)} (n=${proxy[via].length})`,
    );
  }
  const mb = proxy.memoryKb.map((kb) => kb / 1024);
  log(
    `  ${proxy.streamedMb.toFixed(0)} MB through the proxy in ${proxy.streamSeconds.toFixed(1)} s; its resident set ${mb[0]?.toFixed(0)} MB at the start, ${Math.max(...mb).toFixed(0)} MB at most, ${mb.at(-1)?.toFixed(0)} MB at the end`,
  );
  log();
  return proxy;
}

// How far the proxy's resident set rose above where it stood a tenth of the way into the long stream (warmed up).
function proxyMemoryGrowthMb(proxy: ProxyBench): number {
  const warm = proxy.memoryKb[Math.floor(proxy.memoryKb.length / 10)] ?? 0;
  return (Math.max(...proxy.memoryKb) - warm) / 1024;
}

// Runs each approach once untimed, then `runs` rounds, rotating the order each round so that no approach always
// follows the same neighbour. Returns each approach's wall times in round order.
async function measureRounds(approaches: Approach[]): Promise<Map<string, number[]>> {
  for (const a of approaches) await a.run();
  const times = new Map<string, number[]>(approaches.map((a) => [a.name, []]));
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < approaches.length; k++) {
      const a = approaches[(round + k) % approaches.length] as Approach;
      const start = performance.now();
      await a.run();
      times.get(a.name)?.push(performance.now() - start);
    }
  }
  return times;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});

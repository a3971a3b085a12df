// Where a cold grader run's time goes: each step of start-up measured on its own, so that the ratio against
// the floor can be explained step by step (Node itself, tsx registration, compiling program.ts and the tools,
// tsx's transform cache, the CLI's own imports, one program process).
import { driverEntry } from '../src/modes/driver-files.ts';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeSandbox } from '../src/grade/run/isolation/probe-sandbox.ts';
import { sandboxArgs } from '../src/grade/run/isolation/sandbox-args.ts';
import { sandboxLayout } from '../src/grade/run/isolation/sandbox-layout.ts';

// One start-up step: a command measured like the approaches.
export type ProfileStep = {
  label: string;
  command: string;
  args: string[];
  cwd: string;
  // Run with a fresh TMPDIR: empty (as the grader gives each program process), or holding a link to the tsx
  // transform cache of the OS temp dir (what the grader could give it).
  tmpdir?: 'empty' | 'linked-cache';
  // Copies started at once (each with its own TMPDIR), timed until the last exits: what the grader's batches
  // pay when they start together on a machine with as many cores.
  copies?: number;
};

// The steps, and a temp dir (a one-call case, empty TMPDIRs) to remove afterwards.
export async function profileSteps(options: {
  packageRoot: string;
  dir: string;
  stage: string;
  tsx: string;
}): Promise<{ steps: ProfileStep[]; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-profile-'));
  const echoCase = join(root, 'echo.json');
  await writeFile(
    echoCase,
    `${JSON.stringify({ description: 'one echo call', calls: [{ tool: 'echo', input: { text: 'x' } }] })}\n`,
  );
  const node = process.execPath;
  const bin = join(options.packageRoot, 'bin', 'theinference.js');
  const program = ['--import', options.tsx, driverEntry(), 'dispatch', echoCase];
  // What starting the sandbox costs: Node printing its version, outside and inside a sandbox laid out as for the
  // course (when bubblewrap works here).
  const probe = await probeSandbox(process.env);
  const sandbox = probe.available
    ? [...sandboxArgs(sandboxLayout({ dir: options.dir, id: 'bench', files: [] })), '--']
    : undefined;
  const steps: ProfileStep[] = [
    { label: 'node --version', command: node, args: ['--version'], cwd: options.dir },
    ...(sandbox === undefined || !probe.available
      ? []
      : [
          {
            label: 'node --version in the sandbox (bwrap start-up)',
            command: probe.bwrap,
            args: [...sandbox, node, '--version'],
            cwd: options.dir,
          },
        ]),
    { label: 'node -e 0 (bare Node start-up)', command: node, args: ['-e', '0'], cwd: options.dir },
    {
      label: 'node --import tsx -e 0 (tsx registration)',
      command: node,
      args: ['--import', options.tsx, '-e', '0'],
      cwd: options.dir,
    },
    { label: 'program.ts dispatch, 1 echo call, tsx cache warm', command: node, args: program, cwd: options.dir },
    // The grader gives each program process a fresh TMPDIR; tsx keeps its transform cache in the OS temp dir.
    {
      label: 'program.ts dispatch, 1 echo call, fresh TMPDIR (tsx cache cold)',
      command: node,
      args: program,
      cwd: options.dir,
      tmpdir: 'empty',
    },
    {
      label: 'program.ts dispatch, 1 echo call, fresh TMPDIR + linked tsx cache',
      command: node,
      args: program,
      cwd: options.dir,
      tmpdir: 'linked-cache',
    },
    {
      label: '2 × program.ts dispatch at once, fresh TMPDIRs (tsx cache cold)',
      command: node,
      args: program,
      cwd: options.dir,
      tmpdir: 'empty',
      copies: 2,
    },
    {
      label: '2 × program.ts dispatch at once, fresh TMPDIRs + linked tsx cache',
      command: node,
      args: program,
      cwd: options.dir,
      tmpdir: 'linked-cache',
      copies: 2,
    },
    { label: 'theinference stages (CLI start-up)', command: node, args: [bin, 'stages'], cwd: options.dir },
    {
      label: 'theinference test, 1 case, --jobs 1 (CLI + 1 program process)',
      command: node,
      args: [
        bin,
        'test',
        '--stage',
        options.stage,
        '--dir',
        options.dir,
        '--case',
        'course-bash-echo-hi',
        '--jobs',
        '1',
      ],
      cwd: options.dir,
    },
    // The batch split: the default is one batch per CPU; side by side in the same rounds, what fewer or more cost.
    ...[1, 2, 4].map((jobs) => ({
      label: `theinference test, all cases, --jobs ${jobs}`,
      command: node,
      args: [bin, 'test', '--stage', options.stage, '--dir', options.dir, '--jobs', String(jobs)],
      cwd: options.dir,
    })),
  ];
  return { steps, remove: () => rm(root, { recursive: true, force: true }) };
}

// tsx keeps its transform cache in `<os temp dir>/tsx-<euid>`, keyed by file content, so sharing it is safe.
const TSX_CACHE = `tsx-${process.geteuid?.() ?? 'user'}`;

// A fresh TMPDIR for a step, removed after it (rm does not follow the link into the shared cache).
export async function freshTmp(
  kind: 'empty' | 'linked-cache',
): Promise<{ env: NodeJS.ProcessEnv; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-tmp-'));
  if (kind === 'linked-cache') await symlink(join(tmpdir(), TSX_CACHE), join(dir, TSX_CACHE), 'dir');
  return { env: { TMPDIR: dir }, remove: () => rm(dir, { recursive: true, force: true }) };
}

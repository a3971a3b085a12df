// Where a cold grader run's time goes: each step of start-up measured on its own, so that the ratio against
// the floor can be explained step by step (Node itself, tsx registration, compiling program.ts and the tools,
// tsx's transform cache, the CLI's own imports, one program process).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One start-up step: a command measured like the approaches.
export type ProfileStep = { label: string; command: string; args: string[]; cwd: string; env?: NodeJS.ProcessEnv; fresh?: boolean };

// The steps, and a temp dir (a one-call case, empty TMPDIRs) to remove afterwards.
export async function profileSteps(options: { packageRoot: string; dir: string; stage: string; tsx: string }): Promise<{ steps: ProfileStep[]; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-profile-'));
  const echoCase = join(root, 'echo.json');
  await writeFile(echoCase, `${JSON.stringify({ description: 'one echo call', calls: [{ tool: 'echo', input: { text: 'x' } }] })}\n`);
  const node = process.execPath;
  const bin = join(options.packageRoot, 'bin', 'theinference.js');
  const program = ['--import', options.tsx, 'program.ts', 'dispatch', echoCase];
  const steps: ProfileStep[] = [
    { label: 'node -e 0 (bare Node start-up)', command: node, args: ['-e', '0'], cwd: options.dir },
    { label: 'node --import tsx -e 0 (tsx registration)', command: node, args: ['--import', options.tsx, '-e', '0'], cwd: options.dir },
    { label: 'program.ts dispatch, 1 echo call, tsx cache warm', command: node, args: program, cwd: options.dir },
    // The grader gives each program process a fresh TMPDIR; tsx keeps its transform cache in the OS temp dir.
    { label: 'program.ts dispatch, 1 echo call, fresh TMPDIR (tsx cache cold)', command: node, args: program, cwd: options.dir, fresh: true },
    { label: 'theinference stages (CLI start-up)', command: node, args: [bin, 'stages'], cwd: options.dir },
    {
      label: 'theinference test, 1 case, --jobs 1 (CLI + 1 program process)',
      command: node,
      args: [bin, 'test', '--stage', options.stage, '--dir', options.dir, '--case', 'course-bash-echo-hi', '--jobs', '1'],
      cwd: options.dir,
    },
  ];
  return { steps, remove: () => rm(root, { recursive: true, force: true }) };
}

// A fresh empty TMPDIR for a step marked `fresh`, removed after the step.
export async function freshTmp(): Promise<{ env: NodeJS.ProcessEnv; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-tmp-'));
  return { env: { TMPDIR: dir }, remove: () => rm(dir, { recursive: true, force: true }) };
}

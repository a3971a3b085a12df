// The stage agent-loop, measured as register-tools is: the grader on every loop case, sandboxed and not, against the
// floor (one tsx process running every case's loop in-process through the driver's runLoopCase, the fake Messages
// API and the real SDK client included), in the same rounds.
import { join } from 'node:path';
import { runCommand } from './run-command.ts';
import { formatSeconds, summarise, type Summary } from './stats.ts';

const STAGE = 'agent-loop';
const ALL_PASS = /^\d+ passed, 0 failed$/m;
export const LOOP_FLOOR = 'agent-loop floor: 1 tsx process, in-process';
export const LOOP_GRADER = 'agent-loop grader, cold (sandboxed)';
export const LOOP_GRADER_OFF = 'agent-loop grader, cold, --isolation off';

type Approach = { name: string; run: () => Promise<unknown> };

// Each approach's times over the rounds; `rounds` runs them in turn, as the other sections do.
export async function measureLoopStage(o: {
  packageRoot: string;
  tsx: string;
  log: (line?: string) => void;
  rounds: (approaches: Approach[]) => Promise<Map<string, number[]>>;
}): Promise<{ times: Record<string, number[]>; vsFloor: Summary; vsOff: Summary }> {
  const node = process.execPath;
  const bin = join(o.packageRoot, 'bin', 'theinference.js');
  const dir = o.packageRoot;
  const grade = (isolation: string) => () =>
    runCommand(node, [bin, 'test', '--stage', STAGE, '--dir', dir, '--isolation', isolation], {
      cwd: dir,
      expect: ALL_PASS,
    });
  const approaches: Approach[] = [
    {
      name: LOOP_FLOOR,
      run: () =>
        runCommand(node, ['--import', o.tsx, join(o.packageRoot, 'bench', 'floor.ts'), dir, STAGE], {
          cwd: dir,
          expect: ALL_PASS,
        }),
    },
    { name: LOOP_GRADER, run: grade('required') },
    { name: LOOP_GRADER_OFF, run: grade('off') },
  ];
  o.log(`${STAGE}: the whole stage, cold, side by side:`);
  const times = await o.rounds(approaches);
  o.log(`${'approach'.padEnd(48)}median (range, n)`);
  for (const a of approaches) o.log(a.name.padEnd(48) + formatSeconds(summarise(times.get(a.name) ?? [])));
  o.log();
  const per = (name: string): number[] => times.get(name) ?? [];
  const ratio = (a: number[], b: number[]): Summary => summarise(a.map((x, i) => x / (b[i] ?? Number.NaN)));
  return {
    times: Object.fromEntries(times),
    vsFloor: ratio(per(LOOP_GRADER), per(LOOP_FLOOR)),
    vsOff: ratio(per(LOOP_GRADER), per(LOOP_GRADER_OFF)),
  };
}

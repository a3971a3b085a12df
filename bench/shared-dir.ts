// Where the bench finds ../shared (the real transcripts): beside the clone, or beside the folder of worktrees a
// clone's worktrees share. The first that exists; the one beside the clone when neither does (then it says so).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export function sharedDir(packageRoot: string): string {
  const beside = resolve(packageRoot, '..', 'shared');
  const aboveWorktrees = resolve(packageRoot, '..', '..', 'shared');
  return [beside, aboveWorktrees].find((dir) => existsSync(dir)) ?? beside;
}

// The loop-lookup cheat's table (test/fixtures/loop-lookup/): what a student could build from the agent-loop cases
// and snapshots the package ships, each case's requests and returned conversation keyed by its first messages.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCases } from '../../src/course/load-cases.ts';
import type { LoopCaseData } from '../../src/modes/loop/case.ts';
import { returnedOf, splitLoopResults } from '../../src/modes/loop/judge/loop-results.ts';
import { REPO } from './reference-course.ts';

// Writes src/conversations.json into the loop-lookup course directory `dir`.
export async function writeConversations(dir: string): Promise<void> {
  const table: Record<string, unknown> = {};
  for (const c of await loadCases(REPO, 'agent-loop')) {
    const snapshot = JSON.parse(await readFile(join(REPO, 'snapshots', 'agent-loop', `${c.name}.json`), 'utf8')) as {
      results: unknown[];
    };
    const { requests, end } = splitLoopResults(snapshot.results);
    table[JSON.stringify((c.data as LoopCaseData).request.messages)] = {
      requests: requests.map((r) => (r as { request: unknown }).request),
      returned: returnedOf(end),
    };
  }
  await writeFile(join(dir, 'src', 'conversations.json'), JSON.stringify(table));
}

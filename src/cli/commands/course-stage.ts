// `theinference test` without --stage, in a course directory: the stage its package.json's `test` script grades
// (as `init` wrote it, `theinference test --stage <slug>`, `--previous` from the second stage on), so that the
// command does what `npm test` does. Anywhere else, a message naming the stages.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { STAGES } from '../../course/stages.ts';

// The stage to grade, and whether the script grades the earlier stages too.
export type CourseStage = { stage: string; previous: boolean };

// What `dir`'s `npm test` grades, or a HarnessError asking for --stage.
export async function courseStage(dir: string): Promise<CourseStage> {
  const script = await testScript(dir);
  const stage = script === undefined ? undefined : /\btheinference\s+test\b.*?--stage[\s=]+(\S+)/.exec(script)?.[1];
  if (stage !== undefined) return { stage, previous: /(?:^|\s)--previous(?:\s|$)/.test(script ?? '') };
  const slugs = STAGES.map((s) => s.slug);
  throw new HarnessError(
    'BAD_FLAG',
    `name the stage to grade: --stage <slug> (the stages: ${slugs.join(', ')}, e.g. --stage ${slugs[0]}). In a course directory \`theinference init\` wrote, the stage its package.json's test script grades is the default.`,
  );
}

async function testScript(dir: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { scripts?: { test?: unknown } };
    return typeof manifest.scripts?.test === 'string' ? manifest.scripts.test : undefined;
  } catch {
    return undefined;
  }
}

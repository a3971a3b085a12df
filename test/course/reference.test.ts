// The reference dispatcher is found in the package root, and its absence (an installed copy: the package handed to
// students never ships it) is a HarnessError saying where the command can run.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasReference, requireReference } from '../../src/course/reference.ts';
import { HarnessError } from '../../src/errors.ts';
import { REPO } from '../support/reference-course.ts';

describe('requireReference', () => {
  it('passes in this repository, which holds src/execute.ts', async () => {
    expect(await hasReference(REPO)).toBe(true);
    await expect(requireReference(REPO, 'snapshot')).resolves.toBeUndefined();
  });

  it('fails (exit 2) in a copy without it, naming the command, the copy and where to run it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'theinference-no-reference-'));
    try {
      await mkdir(join(root, 'src'));
      await writeFile(join(root, 'src', 'contract.ts'), '');
      expect(await hasReference(root)).toBe(false);
      const error = await requireReference(root, 'record').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as HarnessError).code).toBe('NO_REFERENCE');
      expect((error as HarnessError).message).toBe(
        `\`theinference record\` replays the reference solution (src/execute.ts), which this copy of theinference (${root}) does not have: the package handed to students never ships the answer. Run it in the course repository, a git checkout of theinference that holds src/execute.ts: cd <your checkout> && npm ci && npx theinference record …`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it("looks for a stage's own reference: a copy holding the dispatcher but not the loop has no agent-loop reference", async () => {
    const root = await mkdtemp(join(tmpdir(), 'theinference-no-reference-'));
    try {
      await mkdir(join(root, 'src'));
      await writeFile(join(root, 'src', 'execute.ts'), '');
      expect(await hasReference(root, ['src/execute.ts'])).toBe(true);
      expect(await hasReference(REPO, ['src/agent-loop.ts'])).toBe(true);
      const error = await requireReference(root, 'snapshot', ['src/agent-loop.ts']).catch((e: unknown) => e);
      expect((error as HarnessError).code).toBe('NO_REFERENCE');
      expect((error as HarnessError).message).toContain('replays the reference solution (src/agent-loop.ts), which');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

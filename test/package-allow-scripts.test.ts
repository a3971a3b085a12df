// `npm ci` in this repository reviews every install script its dependencies have (npm 11's allowScripts): none is
// left for npm to warn of, and none that npm 12 would skip.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO } from './support/reference-course.ts';

describe('allowScripts', () => {
  it('covers every install script of the installed dependencies', async () => {
    const { stdout, exitCode } = await execa('npm', ['approve-scripts', '--allow-scripts-pending'], {
      cwd: REPO,
      reject: false,
    });
    expect([exitCode, stdout.trim()]).toEqual([0, 'No packages with unreviewed install scripts.']);
  }, 60_000);
});

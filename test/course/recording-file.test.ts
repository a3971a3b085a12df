// A recorded case's recording on disk: read back, listed, and a broken one said so.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatRecording, readRecording, recordingNames, recordingPath } from '../../src/course/recording-file.ts';
import { useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();

describe('recording files', () => {
  it('reads a recording back, lists it, and is null where a case has none', async () => {
    const root = await mkdtemp(join(scratch.root, 'courses', 'r-'));
    const recording = { calls: [{ id: 't1', check: { kind: 'view' }, recorded: { content: 'x', is_error: false } }] };
    await mkdir(join(root, 'recordings', 'demo'), { recursive: true });
    await writeFile(recordingPath(root, 'demo', 'recorded-a'), formatRecording(recording));
    expect(await readRecording(root, 'demo', 'recorded-a')).toEqual(recording);
    expect(await readRecording(root, 'demo', 'recorded-b')).toBeNull();
    expect(await recordingNames(root, 'demo')).toEqual(['recorded-a']);
    expect(await recordingNames(root, 'no-stage')).toEqual([]);
  });

  it.each([
    ['{', /is not valid JSON .*: record the case again$/],
    ['{"calls": {}}', /has no "calls" array: record the case again$/],
  ])('says why %j is not a recording', async (text, why) => {
    const root = await mkdtemp(join(scratch.root, 'courses', 'r-'));
    await mkdir(join(root, 'recordings', 'demo'), { recursive: true });
    await writeFile(recordingPath(root, 'demo', 'recorded-a'), text);
    expect(await readRecording(root, 'demo', 'recorded-a')).toMatch(why);
  });
});

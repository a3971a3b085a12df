// Reads one file of a submission the way the grader reads anything of it: as data. Never through a link (it could
// lead anywhere: /dev/zero, another course), never waiting on a FIFO, never more than the caller can hold.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

// The file's bytes and whether it is executable; 'missing' when nothing is there, 'not regular' for a link, a FIFO,
// a socket or a device, 'too large' past `maxBytes`.
export type ReadAsData = { data: Buffer; executable: boolean } | 'missing' | 'not regular' | 'too large';

// Reads `path` if it is a regular file of at most `maxBytes`.
export async function readAsData(path: string, maxBytes: number): Promise<ReadAsData> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : 'not regular';
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return 'not regular';
    if (info.size > maxBytes) return 'too large';
    const data = await handle.readFile();
    return data.length > maxBytes ? 'too large' : { data, executable: (info.mode & 0o111) !== 0 };
  } finally {
    await handle.close();
  }
}

// Inside the replay worker: the sandbox as it was before a call that may change it, held in memory, to put back when
// the recorder drops that call. Taken before every write and every command, so it must be cheap: each save lists
// the tree (lstat per entry) and reads only the files whose size, mode, inode or time changed since the last save;
// a restore rewrites only what differs. Sandboxes hold a case's seed and what its calls made: small.
import { chmod, lstat, mkdir, readdir, readFile, readlink, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

type Entry =
  | { kind: 'dir'; mode: number; mtimeMs: number }
  | { kind: 'file'; mode: number; mtimeMs: number; key: string; bytes: Buffer }
  | { kind: 'link'; target: string };

// Past this much file content a sandbox is not saved (nothing can then be undone, and the window ends there).
const MAX_SAVED_BYTES = 64 * 1024 * 1024;

export class SandboxCheckpoint {
  // The last save (its contents also spare the next save reading files that did not change), and whether it is
  // still what an undo puts back.
  private entries: Map<string, Entry> | undefined;
  private valid = false;
  private rootMode = 0o700;

  // Saves the sandbox; false when it cannot be saved (a FIFO or socket in it, too much content, an unreadable file).
  async save(root: string): Promise<boolean> {
    const previous = this.entries;
    this.valid = false;
    try {
      const entries = new Map<string, Entry>();
      let bytes = 0;
      for (const path of (await readdir(root, { recursive: true })).sort()) {
        const full = join(root, path);
        const s = await lstat(full);
        if (s.isSymbolicLink()) entries.set(path, { kind: 'link', target: await readlink(full) });
        else if (s.isDirectory()) entries.set(path, { kind: 'dir', mode: s.mode & 0o7777, mtimeMs: s.mtimeMs });
        else if (s.isFile()) {
          const key = `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
          const known = previous?.get(path);
          const content = known?.kind === 'file' && known.key === key ? known.bytes : await readFile(full);
          bytes += content.length;
          if (bytes > MAX_SAVED_BYTES) return false;
          entries.set(path, { kind: 'file', mode: s.mode & 0o7777, mtimeMs: s.mtimeMs, key, bytes: content });
        } else return false;
      }
      this.rootMode = (await lstat(root)).mode & 0o7777;
      this.entries = entries;
      this.valid = true;
      return true;
    } catch {
      return false;
    }
  }

  // Nothing to undo after a call that changes nothing; the contents are kept to save the next time cheaply.
  forget(): false {
    this.valid = false;
    return false;
  }

  // Puts the sandbox back as it was at the last save.
  async restore(root: string): Promise<{ undone: true } | { error: string }> {
    const saved = this.valid ? this.entries : undefined;
    if (saved === undefined) return { error: 'the sandbox could not be saved before this call' };
    try {
      await chmod(root, 0o700);
      await giveAccess(root);
      for (const path of (await readdir(root, { recursive: true })).sort().reverse()) {
        const s = await lstat(join(root, path)).catch(() => undefined);
        const want = saved.get(path);
        const same =
          s !== undefined &&
          want !== undefined &&
          (want.kind === 'dir' ? s.isDirectory() : want.kind === 'link' ? s.isSymbolicLink() : s.isFile());
        if (s !== undefined && !same) await rm(join(root, path), { recursive: true, force: true });
      }
      for (const [path, entry] of saved) {
        const full = join(root, path);
        if (entry.kind === 'dir') await mkdir(full, { recursive: true });
        else if (entry.kind === 'link') {
          const current = await readlink(full).catch(() => undefined);
          if (current !== entry.target) {
            await rm(full, { force: true });
            await symlink(entry.target, full);
          }
        } else {
          const s = await lstat(full).catch(() => undefined);
          if (s === undefined || `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` !== entry.key) {
            await writeFile(full, entry.bytes);
            await utimes(full, new Date(entry.mtimeMs), new Date(entry.mtimeMs));
          }
          await chmod(full, entry.mode);
        }
      }
      // Directories last, deepest first: writing into one changes its time, and a mode may forbid the writing.
      for (const [path, entry] of [...saved].reverse()) {
        if (entry.kind !== 'dir') continue;
        await utimes(join(root, path), new Date(entry.mtimeMs), new Date(entry.mtimeMs));
        await chmod(join(root, path), entry.mode);
      }
      await chmod(root, this.rootMode);
      // A file rewritten here has a new ctime: save again on the next call reads it once more, which is right.
      return { undone: true };
    } catch (error) {
      return { error: `the sandbox could not be put back: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
}

// Access to every directory below `dir`, which a command may have taken away (chmod 000), so it can be read and
// rewritten.
async function giveAccess(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory()) continue;
    await chmod(join(dir, entry.name), 0o700).catch(() => {});
    await giveAccess(join(dir, entry.name));
  }
}

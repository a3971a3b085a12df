// The chokidar adapter: reports each changed path under the watch roots, nothing else. Which paths matter is
// decided by the caller's `isIgnored` (see watch-paths.ts); chokidar does not descend into ignored directories,
// so node_modules costs no inotify watches. chokidar's `atomic` mode turns an editor's delete-then-recreate save
// into one change of the real file.
import { watch } from 'chokidar';

// What to watch and whom to tell.
export type FileWatcherOptions = {
  roots: string[];
  isIgnored: (path: string) => boolean;
  // An absolute path that was added, changed or removed.
  onChange: (path: string) => void;
  // The watcher failed (out of inotify watches, a permission error): reported, not thrown.
  onError: (error: Error) => void;
};

// A running watcher; `close` releases every OS handle so the process can exit.
export type FileWatcher = { close: () => Promise<void> };

// Starts watching and resolves once the initial scan is done, so that a save made after this resolves is seen.
export async function watchFiles(options: FileWatcherOptions): Promise<FileWatcher> {
  const watcher = watch(options.roots, {
    ignoreInitial: true,
    ignored: (path: string) => options.isIgnored(path),
    atomic: true,
    persistent: true,
  });
  watcher.on('all', (event, path) => {
    // A new directory says nothing until a file appears in it, and that file has its own event.
    if (event !== 'addDir') options.onChange(path);
  });
  watcher.on('error', (error) => options.onError(error instanceof Error ? error : new Error(String(error))));
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  return { close: () => watcher.close() };
}

// What the compiler checks of this folder (src/modes/aspect-types.ts): each aspect file exports its aspect's value,
// of its aspect's type, as the floors load it by the mode's name. Types only: nothing loads this file.
import type { Folder } from '../aspect-types.ts';

declare module '../aspect-types.ts' {
  interface ModeFolders {
    dispatch: Folder<{
      driver: typeof import('./driver.ts');
      serve: typeof import('./serve.ts');
      judge: typeof import('./judge.ts');
      variants: typeof import('./variants.ts');
      audit: typeof import('./audit.ts');
      'record-command': typeof import('./record-command.ts');
    }>;
  }
}

import { resolve } from 'node:path';
import { bash } from './bash.ts';
import { create } from './create.ts';
import { glob } from './glob.ts';
import { grep } from './grep.ts';
import { insert } from './insert.ts';
import { guard } from './output.ts';
import { strReplace } from './str-replace.ts';
import type { ToolOutput } from './types.ts';
import { view } from './view.ts';

// What every method returns, re-exported so a course's code imports the tools from one place.
export type { ToolOutput } from './types.ts';

// The reference toolset of the stage, confined to one sandbox directory. Arguments are `unknown` because the
// dispatcher passes whatever the model sent; every method checks its own and never throws (docs/tools.md).
export class Tools {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  view(path: unknown, viewRange?: unknown): Promise<ToolOutput> {
    return guard('view', () => view(this.root, path, viewRange));
  }

  create(path: unknown, fileText: unknown): Promise<ToolOutput> {
    return guard('create', () => create(this.root, path, fileText));
  }

  insert(path: unknown, insertLine: unknown, text: unknown): Promise<ToolOutput> {
    return guard('insert', () => insert(this.root, path, insertLine, text));
  }

  strReplace(path: unknown, oldStr: unknown, newStr?: unknown): Promise<ToolOutput> {
    return guard('strReplace', () => strReplace(this.root, path, oldStr, newStr));
  }

  glob(pattern: unknown, path?: unknown): Promise<ToolOutput> {
    return guard('glob', () => glob(this.root, pattern, path));
  }

  grep(pattern: unknown, path?: unknown, glob?: unknown): Promise<ToolOutput> {
    return guard('grep', () => grep(this.root, pattern, path, glob));
  }

  bash(command: unknown, timeoutMs?: unknown): Promise<ToolOutput> {
    return guard('bash', () => bash(this.root, command, timeoutMs));
  }
}

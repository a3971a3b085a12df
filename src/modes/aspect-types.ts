// What the compiler checks of the modes' folders. Each floor loads a mode's aspect by the mode's name
// (src/modes/mode-table.ts) and reads one export of it, which the compiler cannot follow. So each folder's
// aspects.ts names its aspect files here, typed, and the compiler holds each to its aspect's type and every mode
// of the table to a folder. Types only: nothing loads this file or a folder's aspects.ts.
import type { ModeRecorder } from '../cli/commands/mode-recorder.ts';
import type { ModeServe } from '../grade/run/channel-server.ts';
import type { ModeAudit } from '../grade/audit/grade-in-process.ts';
import type { ModeJudge } from '../grade/judge/mode-judges.ts';
import type { ModeVariants } from '../grade/variants/plan-variants.ts';
import type { DriverMode } from './driver-mode.ts';
import type { Aspect, ModeName } from './mode-table.ts';

// What each aspect's file exports, by the file's name: the value its floor reads (`aspectExport`), of the type
// that floor gives it. Every mode has a driver and a judge; the rest, when its folder holds the file.
export type AspectExports = {
  driver: { driver: DriverMode };
  serve?: { serve: ModeServe };
  judge: { judge: ModeJudge };
  variants?: { variants: ModeVariants };
  audit?: { audit: ModeAudit };
  'record-command'?: { recorder: ModeRecorder };
};

// A folder's aspect files (`typeof import('./judge.ts')`…), held to AspectExports.
export type Folder<T extends AspectExports> = T;

// Each mode's folder adds its row here from its aspects.ts (`declare module '../aspect-types.ts'`), by its name.
// biome-ignore lint/suspicious/noEmptyInterface: the folders' aspects.ts fill it, merging into it.
export interface ModeFolders {}

// A type that holds only when `T` is empty; else the error names what is left.
type None<T extends never> = T;

// Every mode of the table has a folder that added itself, and every folder that did has a row in the table.
export type EveryModeHasAFolder = None<Exclude<ModeName, keyof ModeFolders>>;
export type EveryFolderHasARow = None<Exclude<keyof ModeFolders, ModeName>>;
// The aspects above are the table's, all of them.
export type EveryAspectTyped = None<Exclude<Aspect, keyof AspectExports> | Exclude<keyof AspectExports, Aspect>>;

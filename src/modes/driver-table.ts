// Every driver mode, by the name a stage gives it (src/course/stages.ts `mode`): the one table the driver reads.
import { dispatchMode } from './dispatch/driver.ts';
import type { DriverMode } from './driver-mode.ts';
import { loopMode } from './loop/driver.ts';

export const DRIVER_TABLE: readonly DriverMode[] = [dispatchMode, loopMode];

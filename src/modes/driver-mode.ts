// What a driver mode is to the driver (src/modes/driver.ts): how it starts in a course directory. Each mode's folder
// gives one, exported as `driver` from src/modes/<mode>/driver.ts; its name on the command line is the folder's,
// as the table of modes lists it (src/modes/mode-table.ts).
import type { StudentCode } from '../course/stages.ts';
import type { Channel } from './channel.ts';
import type { BeforeCall } from './kit.ts';

// A mode once its modules are loaded: how it reads a case, runs it, and words a failure outside the code under test.
export type StartedMode = {
  parse: (text: string) => unknown;
  run: (testCase: unknown, beforeCall?: BeforeCall) => Promise<unknown[]>;
  cannot: string;
  // The probe, for a mode that has one: what the grader's `observe` request (on the first case read from stdin)
  // asks, answered as one more line `{"observed":…}` after every case's results.
  probe?: (request: unknown) => Promise<unknown>;
  // For a mode whose evidence the grader keeps (src/modes/<mode>/serve.ts): runs every case the grader hands out over
  // the channel, and resolves to the exit code. The grader then reads no line of stdout.
  serve?: (channel: Channel) => Promise<number>;
};

export type DriverMode = {
  // Loads the stage's modules from the course directory (a directory URL) before any case is read, so that code
  // which does not load fails at once. `code`: the module and export the stage's row names (src/course/stages.ts).
  start: (course: URL, code: StudentCode) => Promise<StartedMode>;
  // Loads what the mode takes from the package (not the course) ahead of its work, for a warm standby.
  preload?: () => Promise<unknown>;
};

// One chalk instance per rendering: colour only when the caller says the output is a colour terminal.
import { Chalk, type ChalkInstance } from 'chalk';

// A chalk that colours when `color` is true and returns text untouched otherwise.
export function painter(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 1 : 0 });
}

// The course's driver, to run a case by hand, as the grader runs it:
//
//   npx tsx program.ts dispatch cases/register-tools/<case>.json    stage "Register the toolset"
//   npx tsx program.ts loop cases/agent-loop/<case>.json            stage "Run the loop"
//
// It prints one line `{"results":[…]}` per case. The driver itself is theinference's: the grader runs the copy in
// its own install, never this file, so editing it changes nothing of your grade. Your code is in src/.
import { main } from 'theinference/driver';

process.exitCode = await main(process.argv.slice(2), new URL('.', import.meta.url));

// The course's driver, to run a case by hand, as the grader runs it (the cases come with the package you installed):
//
//   npx tsx program.ts <mode> node_modules/theinference/cases/<stage>/<case>.json
//
// for example `npx tsx program.ts loop node_modules/theinference/cases/agent-loop/<case>.json`. Each stage's page
// names its mode; `npx tsx program.ts` alone lists every stage's.
//
// It prints one line `{"results":[…]}` per case. The driver itself is theinference's: the grader runs the copy in
// its own install, never this file, so editing it changes nothing of your grade. Your code is in src/.
import { main } from 'theinference/driver';

process.exitCode = await main(process.argv.slice(2), new URL('.', import.meta.url));

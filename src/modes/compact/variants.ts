// The compact mode's variants: the loop's (src/modes/loop/variants.ts), the model's words, the tools' outputs and
// the tool_use ids renamed letter for letter. A renaming keeps every length, so each estimate, each placeholder and
// each cut of the summary request falls where the case's does, and the reference compacts at the same requests.
export { variants } from '../loop/variants.ts';

// The plan mode's variants: the loop mode's (src/modes/loop/variants.ts), the model's words, the tools' outputs and
// the tool_use ids renamed. A todo call's input stays as tool inputs do, so the handler renders the same list.
export { variants } from '../loop/variants.ts';

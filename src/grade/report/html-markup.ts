// HTML that cannot carry what a submission wrote: markup comes only from the literal text of `html` templates, and
// every value put into one is text (escaped, its invisible characters made visible), whoever wrote it. A reporter
// cannot forget to escape a value, because there is no way to put one in unescaped. Pure.
//
// Hand-written, not a template library: the whole of it is one tagged template and one escape; the libraries that
// do this (lit-html, htm) render in a browser, and an escaping package would still leave this file to write.
import { unicodeEscape } from '../../unseen-characters.ts';
import { visibleText } from './visible-text.ts';

const OWN = Symbol('markup');

// A piece of HTML the report wrote itself.
export type Markup = { readonly [OWN]: string };

// What a template takes: markup as it is, text (and numbers) escaped, lists joined, and nothing for
// undefined, null and false (so `${cond && html`…`}` works).
export type Part = Markup | string | number | undefined | null | false | readonly Part[];

// The characters that end text or an attribute value, and their references.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Characters a page shows as nothing (zero-width spaces and joiners, the word joiner, the BOM, the soft hyphen), and
// lone surrogates and the noncharacters U+FFFE and U+FFFF (no character at all, as plain-text.ts has them), beyond
// what visibleText already shows: two names that differ only by one would look the same.
const HIDDEN =
  /[\u00ad\u200b-\u200d\u2060\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

// Markup from a template: its literal text as written, each value as `part` makes it.
export function html(strings: TemplateStringsArray, ...values: Part[]): Markup {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += part(value) + (strings[i + 1] ?? '');
  });
  return { [OWN]: out };
}

// The page's own constants (its style sheet and its script), which no submission writes: the one way to markup
// that is not a template.
export function ownMarkup(text: string): Markup {
  return { [OWN]: text };
}

// The HTML text of markup.
export function markupText(markup: Markup): string {
  return markup[OWN];
}

// Text as HTML: every control, separator and bidirectional character shown by a visible stand-in (as the terminal
// shows them, src/grade/report/visible-text.ts), then `& < > " '` escaped, so it is text in an element or in a
// quoted attribute value alike. Tabs stay, and line breaks as references (a <pre> shows both).
export function escapeText(text: string): string {
  return (
    visibleText(text)
      .replace(HIDDEN, (c) => (notACharacter(c) ? '\ufffd' : unicodeEscape(c)))
      .replace(/[&<>"']/g, (c) => ENTITIES[c] as string)
      // A page printed to a CI log (no --output) is read line by line, for workflow commands and summary lines: a
      // line break in text, `::` and `##[` are written as character references, the same text in a browser, and no
      // line of the page's source starts with what a submission wrote.
      .replace(/\n/g, '&#10;')
      .replace(/::/g, '&#58;:')
      .replace(/##\[/g, '&#35;#[')
  );
}

// Prose the grader wrote, which may quote a submission (a hint names what a program threw): each `quoted` piece in
// <code>, every piece escaped.
export function prose(text: string): Markup {
  const pieces = text.split('`');
  // An odd number of backticks leaves the last one unmatched: it stays a backtick.
  if (pieces.length % 2 === 0) return html`${text}`;
  return html`${pieces.map((piece, i) => (i % 2 === 1 ? html`<code>${piece}</code>` : piece))}`;
}

// A lone surrogate or a noncharacter: shown as the replacement character.
function notACharacter(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff;
}

function part(value: Part): string {
  if (value === undefined || value === null || value === false) return '';
  if (typeof value === 'string') return escapeText(value);
  if (typeof value === 'number') return escapeText(String(value));
  if (Array.isArray(value)) return (value as readonly Part[]).map(part).join('');
  // Markup is only what this module made; any other object a caller slipped past the types is text.
  return typeof value === 'object' && OWN in value ? (value as Markup)[OWN] : escapeText(String(value));
}

// The html report's document: one self-contained file (style and script inlined, nothing fetched, so it opens from
// disk or as a CI artifact with no server and no network), and a Content-Security-Policy that lets the page run
// its own script and style only, by their hashes: the second line behind escaping (html-markup.ts), should any
// text a submission wrote ever become markup, it could neither run, load nor send anything.
import { createHash } from 'node:crypto';
import { html, type Markup, markupText, ownMarkup } from './html-markup.ts';
import { SCRIPT } from './html-script.ts';
import { STYLE } from './html-style.ts';

// Nothing by default; the page's own script and style by hash; no base, form target, frame or plugin.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src '${hashOf(SCRIPT)}'`,
  `style-src '${hashOf(STYLE)}'`,
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

// The whole page: a title and the body's markup.
export function renderPage(title: string, body: Markup): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="theinference">
<title>${title}</title>
<style>${ownMarkup(STYLE)}</style>
</head>
<body>
${body}
<script>${ownMarkup(SCRIPT)}</script>
</body>
</html>
`;
  return markupText(page);
}

// A CSP source for an inline element's exact text.
function hashOf(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

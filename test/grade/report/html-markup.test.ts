// HTML from templates: literal text is markup, every value is text, whoever wrote it; the page's CSP allows exactly
// its own script and style.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeText, html, markupText, prose } from '../../../src/grade/report/html-markup.ts';
import { CONTENT_SECURITY_POLICY, renderPage } from '../../../src/grade/report/html-page.ts';
import { SCRIPT } from '../../../src/grade/report/html-script.ts';
import { STYLE } from '../../../src/grade/report/html-style.ts';

describe('escapeText', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    [`" onmouseover='x' a="`, '&quot; onmouseover=&#39;x&#39; a=&quot;'],
    ['AT&T &amp;', 'AT&amp;T &amp;amp;'],
    ['\u001b[2J\u0007', '␛[2J␇'],
    ['a\u202eb\u2066c', 'a\\u202eb\\u2066c'],
    ['zero\u200bwidth\ufeff', 'zero\\u200bwidth\\ufeff'],
    ['lone \ud800 surrogate, pair 🎉', 'lone \ufffd surrogate, pair 🎉'],
    ['noncharacters \ufffe and \uffff', 'noncharacters \ufffd and \ufffd'],
    ['tab\tand\nline', 'tab\tand&#10;line'],
  ])('%j is %j', (text, escaped) => {
    expect(escapeText(text)).toBe(escaped);
  });
});

describe('html', () => {
  it('keeps its literal text, escapes every value, joins lists and drops undefined, null and false', () => {
    const name = '<img src=x onerror=alert(1)>';
    const made = html`<p title="${name}">${name} ${[html`<b>${1}</b>`, '&']}${undefined}${null}${false}</p>`;
    expect(markupText(made)).toBe(
      '<p title="&lt;img src=x onerror=alert(1)&gt;">&lt;img src=x onerror=alert(1)&gt; <b>1</b>&amp;</p>',
    );
  });

  it('takes any other object as text: only this module makes markup', () => {
    const forged = { toString: () => '<b>', html: '<b>' } as unknown as string;
    expect(markupText(html`${forged}`)).toBe('&lt;b&gt;');
  });
});

describe('prose', () => {
  it('puts each `quoted` piece in <code>, everything escaped', () => {
    expect(markupText(prose('the alias `Read` is <not> wired'))).toBe(
      'the alias <code>Read</code> is &lt;not&gt; wired',
    );
    expect(markupText(prose('a lone ` stays <'))).toBe('a lone ` stays &lt;');
  });
});

describe('renderPage', () => {
  it('holds its own script and style, allowed by their hashes and nothing else', () => {
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(CONTENT_SECURITY_POLICY).toContain(`script-src ${hash(SCRIPT)};`);
    expect(CONTENT_SECURITY_POLICY).toContain(`style-src ${hash(STYLE)};`);
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'none';/);
    const page = renderPage('<title>', html`<p>body</p>`);
    expect(page).toContain(`<script>${SCRIPT}</script>`);
    expect(page).toContain(`<style>${STYLE}</style>`);
    expect(page).toContain('<title>&lt;title&gt;</title>');
    expect(page).not.toMatch(/https?:\/\//);
  });
});

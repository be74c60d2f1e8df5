// Model text → safe HTML. marked parses GitHub-flavoured Markdown; raw HTML in the
// source is rendered as visible text, images become plain links (nothing remote is
// ever loaded), and DOMPurify then keeps only a small list of tags and attributes,
// with http(s)/mailto links only. Links never navigate the app: the view intercepts
// clicks and opens them in the OS browser. Fenced code in a known language is
// highlighted (lib/highlight) before sanitizing, so the spans pass DOMPurify too.
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import { highlight, languageOf } from './highlight';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    code({ text, lang }: Tokens.Code) {
      const language = languageOf(lang);
      const body = highlight(text, language) ?? escapeHtml(text);
      const info = (lang ?? '').trim().split(/\s+/)[0] ?? '';
      const cls = language ? ` class="hljs language-${escapeHtml(language)}"` : info ? ` class="language-${escapeHtml(info)}"` : '';
      return `<pre><code${cls}>${body.replace(/\n$/, '')}\n</code></pre>\n`;
    },
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    checkbox({ checked }: Tokens.Checkbox) {
      return checked ? '☑ ' : '☐ ';
    },
    image({ href, text }: Tokens.Image) {
      const label = escapeHtml(text || href);
      return `<a href="${escapeHtml(href)}">${label}</a>`;
    },
  },
});

const ALLOWED_TAGS = [
  'a', 'p', 'br', 'hr', 'strong', 'em', 'del', 's', 'code', 'pre', 'blockquote',
  'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'start', 'align'];
export const SAFE_URL = /^(?:https?:|mailto:)/i;

const purify = DOMPurify();
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href');
    if (href && !node.getAttribute('title')) node.setAttribute('title', href);
  }
});

/** Sanitized HTML for a Markdown source. */
export function renderMarkdown(src: string): string {
  const html = marked.parse(src) as string;
  return purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ALLOW_DATA_ATTR: false,
  });
}

// Model text → safe HTML. marked parses GitHub-flavoured Markdown; raw HTML in the
// source is rendered as visible text, images become plain links (nothing remote is
// ever loaded), and DOMPurify then keeps only a small list of tags and attributes,
// with http(s)/mailto links only. Links never navigate the app: the view intercepts
// clicks and opens them in the OS browser. Fenced code in a known language is
// highlighted (lib/highlight) before sanitizing, so the spans pass DOMPurify too.
// The highlighter is a separate chunk, loaded with the first fenced block that names
// a language; until it is there such blocks render plain and the view re-renders
// once it arrives (onHighlighter).
import DOMPurify from 'dompurify';
import { Marked, type Tokens } from 'marked';
import type * as Highlighter from './highlight';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

let hl: typeof Highlighter | null = null;
let loading: Promise<void> | null = null;
const waiting = new Set<() => void>();

/** Loads the highlighter (once); resolves when it is ready. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('./highlight').then((m) => {
    hl = m;
    for (const cb of [...waiting]) cb();
  });
  return loading;
}

/** True once code blocks are highlighted. */
export function highlighterReady(): boolean {
  return hl !== null;
}

/** Calls cb when the highlighter has loaded; returns the unsubscribe. */
export function onHighlighter(cb: () => void): () => void {
  waiting.add(cb);
  return () => void waiting.delete(cb);
}

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    code({ text, lang }: Tokens.Code) {
      const info = (lang ?? '').trim().split(/\s+/)[0] ?? '';
      if (info && !hl) void loadHighlighter();
      const language = hl ? hl.languageOf(info) : null;
      const body = (hl && hl.highlight(text, language)) ?? escapeHtml(text);
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

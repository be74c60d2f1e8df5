// Focus visibility in the style sheets: the global :focus-visible ring exists, and every
// rule that takes an element's outline away gives it another ring (a box-shadow in the
// same rule, or a rule for the element's own focus that draws an outline, a box-shadow or
// a lit ::before/::after). The e2e flows Tab round the main screens (fixtures/focus.ts);
// this also covers the elements no flow reaches.
import { describe, expect, it } from 'vitest';

declare global {
  interface ImportMeta {
    glob: (pattern: string | string[], options: { query: '?raw'; import: 'default'; eager: true }) => Record<string, string>;
  }
}

const SHEETS = import.meta.glob('./**/*.css', { query: '?raw', import: 'default', eager: true });

/**
 * Outlines removed on purpose with no ring in their place, and why that is right.
 * Anything else that removes one needs its replacement.
 */
const NO_RING: Record<string, string> = {
  // Focused on open (tabIndex -1) so the dialog is announced; never a Tab stop: Tab goes
  // to its fields and buttons, which ring.
  '.dialog': 'a container focused to be announced',
};

interface Rule {
  file: string;
  selectors: string[];
  body: string;
}

function rules(): Rule[] {
  return Object.entries(SHEETS).flatMap(([file, css]) => {
    const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
    // Innermost blocks only: a rule inside @media is matched without its at-rule.
    return Array.from(text.matchAll(/([^{}]+)\{([^{}]*)\}/g), (m) => ({
      file,
      selectors: (m[1] ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      body: m[2] ?? '',
    }));
  });
}

const REMOVES = /(?:^|;)\s*outline\s*:\s*(?:none|0)\s*(?:;|$)/;
const RING = /(?:^|;)\s*(?:outline\s*:(?!\s*(?:none|0)\s*(?:;|$))[^;]+|box-shadow\s*:(?!\s*none)[^;]+)/;
const LIT = /(?:^|;)\s*background(?:-color)?\s*:/;

/** The element a selector styles, without state pseudo-classes: `.a .b:focus` → `.b`. */
function subject(selector: string): string {
  const last = selector.split(/\s*[\s>+~]\s*/).pop() ?? selector;
  return last.replace(/:(?:focus-visible|focus-within|focus|hover|active)/g, '');
}

function replaced(rule: Rule, selector: string, all: Rule[]): boolean {
  if (RING.test(rule.body)) return true;
  const el = subject(selector);
  // A tag name is a whole word: `input` is not the end of `.composer-input`.
  const edge = /^[a-z]/i.test(el) ? '(?<![\\w-])' : '';
  const focused = new RegExp(`${edge}${el.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:focus(?:-visible|-within)?(?![\\w-])`);
  return all.some((r) => r.selectors.some((s) => focused.test(s) && (RING.test(r.body) || (/::(?:before|after)/.test(s) && LIT.test(r.body)))));
}

describe('focus styles', () => {
  const all = rules();

  it('has a global :focus-visible ring', () => {
    const global = all.find((r) => r.selectors.includes(':focus-visible'));
    expect(global?.body).toMatch(RING);
  });

  it('replaces every outline it removes from a focused element', () => {
    const bare = all.flatMap((r) =>
      REMOVES.test(r.body)
        ? r.selectors
            // Hover alone is not focus; the other selectors of such a list still count.
            .filter((s) => !/:hover|:active/.test(s) || /:focus/.test(s))
            .filter((s) => !(s in NO_RING) && !replaced(r, s, all))
            .map((s) => `${r.file}: ${s}`)
        : [],
    );
    expect(bare).toEqual([]);
  });

  it('finds a removed outline with no ring in its place', () => {
    // The check itself: an input that only loses its outline fails it.
    const lone: Rule = { file: 'x.css', selectors: ['.lonely-input:focus'], body: 'outline: none; border-color: red' };
    expect(REMOVES.test(lone.body) && !replaced(lone, lone.selectors[0]!, [...all, lone])).toBe(true);
    const ringed: Rule = { file: 'x.css', selectors: ['.ringed-input:focus-visible::after'], body: 'background: blue' };
    expect(replaced({ ...lone, selectors: ['.ringed-input:focus'] }, '.ringed-input:focus', [...all, ringed])).toBe(true);
  });
});

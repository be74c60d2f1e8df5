// Syntax highlighting for fenced code blocks: highlight.js core with a curated set of
// common languages (the full build is ~10x larger). Only a block that names a known
// language (or alias) is highlighted; guessing is slow and often wrong. The output is
// escaped text in <span class="hljs-…"> and still goes through DOMPurify.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, makefile,
  markdown, php, plaintext, python, ruby, rust, shell, sql, typescript, xml, yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
// Names models often write that the grammars do not alias themselves.
hljs.registerAliases(['golang'], { languageName: 'go' });
hljs.registerAliases(['toml'], { languageName: 'ini' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['sh', 'zsh'], { languageName: 'bash' });
hljs.registerAliases(['text', 'txt'], { languageName: 'plaintext' });

/** Larger blocks stay plain: highlighting them on every streamed token would stall typing. */
export const MAX_HIGHLIGHT_CHARS = 100_000;

/** The language (a registered name or alias) of a fence's info string ("ts", "Go", "python3"…), or null. */
export function languageOf(info: string | undefined): string | null {
  const name = (info ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (name === '') return null;
  if (hljs.getLanguage(name)) return name;
  const unversioned = name.replace(/\d+$/, '');
  return unversioned !== name && hljs.getLanguage(unversioned) ? unversioned : null;
}

/** Highlighted HTML of code in language, or null when it stays plain. */
export function highlight(code: string, language: string | null): string | null {
  if (language === null || code.length > MAX_HIGHLIGHT_CHARS) return null;
  try {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    return null;
  }
}

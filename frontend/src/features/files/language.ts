// The highlight.js language of a file, by its name: the grammars lib/highlight registers.

const BY_EXTENSION: Record<string, string> = {
  sh: 'bash', bash: 'bash', zsh: 'bash', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp',
  cs: 'csharp', css: 'css', diff: 'diff', patch: 'diff', go: 'go', ini: 'ini', toml: 'ini', cfg: 'ini', conf: 'ini',
  java: 'java', js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript', json: 'json', jsonc: 'json',
  kt: 'kotlin', kts: 'kotlin', md: 'markdown', markdown: 'markdown', php: 'php', py: 'python', pyi: 'python',
  rb: 'ruby', rs: 'rust', sql: 'sql', ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  html: 'xml', htm: 'xml', xml: 'xml', svg: 'xml', vue: 'xml', yaml: 'yaml', yml: 'yaml', txt: 'plaintext',
};

const BY_NAME: Record<string, string> = { makefile: 'makefile', gnumakefile: 'makefile', dockerfile: 'dockerfile' };

/** The language to highlight path with, or null to show it plain. */
export function languageForPath(path: string): string | null {
  const base = (path.split('/').pop() ?? '').toLowerCase();
  if (BY_NAME[base]) return BY_NAME[base];
  if (base.startsWith('dockerfile.')) return 'dockerfile';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[base.slice(dot + 1)] ?? null;
}

/** The file's name, for a tab. */
export function baseName(path: string): string {
  return path.split('/').pop() || path;
}

// ::visualize{"path":"<absolute path>","title":"…"} lines in assistant text (spec §4b.1).
// Only a standalone line outside fenced or indented code counts, and only when its
// path is a fragment file directly in this session's visualization folder. The
// frontend keeps just the file name: the route it loads never carries a path.

export interface VizRef {
  /** The fragment's file name, e.g. "chart.html". */
  file: string;
  title: string;
}

export type Segment = { kind: 'markdown'; text: string } | { kind: 'viz'; viz: VizRef };

const MARKER = '::visualize';
const DIRECTIVE = /^ {0,3}::visualize(\{.*\})[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Whether text may hold a directive (a cheap test before splitting). */
export function mayHaveVisualizations(text: string): boolean {
  return text.includes(MARKER);
}

/**
 * Splits text into Markdown runs and visualization references. Lines that are not
 * valid references for sessionId stay in the Markdown, as written.
 */
export function splitVisualizations(text: string, sessionId: string): Segment[] {
  const out: Segment[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 0 && run.some((l) => l.trim() !== '')) out.push({ kind: 'markdown', text: run.join('\n') });
    run = [];
  };
  let fence: { char: string; len: number } | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (fence) {
      const m = FENCE.exec(line);
      if (m && m[1][0] === fence.char && m[1].length >= fence.len && m[2].trim() === '') fence = null;
      run.push(line);
      continue;
    }
    const open = FENCE.exec(line);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], len: open[1].length };
      run.push(line);
      continue;
    }
    // DIRECTIVE allows at most three spaces of indent: four would be indented code.
    const viz = parseDirective(line, sessionId);
    if (viz) {
      flush();
      out.push({ kind: 'viz', viz });
    } else {
      run.push(line);
    }
  }
  flush();
  return out;
}

/** The reference a directive line names, or null for anything else. */
export function parseDirective(line: string, sessionId: string): VizRef | null {
  const m = DIRECTIVE.exec(line);
  if (!m) return null;
  let args: unknown;
  try {
    args = JSON.parse(m[1]);
  } catch {
    return null;
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return null;
  const { path, title } = args as Record<string, unknown>;
  if (typeof path !== 'string' || (title !== undefined && typeof title !== 'string')) return null;
  const file = fragmentFile(path, sessionId);
  if (!file) return null;
  return { file, title: (title ?? '').trim().slice(0, 200) };
}

/**
 * The file name of an absolute path <data>/visualizations/<sessionId>/<file>.html
 * (either separator), or null when the path is anything else.
 */
export function fragmentFile(path: string, sessionId: string): string | null {
  const absolute = path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
  if (!absolute) return null;
  const parts = path.split(/[\\/]/);
  if (parts.length < 4) return null;
  const [base, session, file] = parts.slice(-3);
  if (base !== 'visualizations' || session !== sessionId || !validFileName(file)) return null;
  if (parts.some((p) => p === '..' || p === '.')) return null;
  return file;
}

/** Mirrors viz.ValidFileName in the backend: names the route can serve. */
export function validFileName(name: string): boolean {
  if (!name.endsWith('.html') || name.length <= 5 || new TextEncoder().encode(name).length > 255) return false;
  const stem = name.slice(0, -5);
  if (name.startsWith('.') || stem.endsWith(' ') || stem.endsWith('.')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/.test(name)) return false;
  const device = stem.split('.')[0].trimEnd().toUpperCase();
  return !/^(CON|PRN|AUX|NUL|COM[1-9]|LPT[1-9])$/.test(device);
}

/** The asset-server route of a fragment: the file name without ".html", escaped. */
export function vizRoute(sessionId: string, file: string, theme: 'light' | 'dark'): string {
  return `/_viz/${encodeURIComponent(sessionId)}/${encodeURIComponent(file.slice(0, -5))}?theme=${theme}`;
}

// Small, pure helpers for showing tool calls.
import type { ToolResult } from '../bridge/types';
import { escapeName } from './names';

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function firstString(o: Record<string, unknown>, keys: string[]): string {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return '';
}

/** Best-effort partial args while they stream: a string value of one of `keys`. */
function fromPartialJSON(text: string, keys: string[]): string {
  for (const k of keys) {
    const m = new RegExp(`"${k}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)`).exec(text);
    if (m?.[1]) {
      try {
        return JSON.parse(`"${m[1]}"`) as string;
      } catch {
        return m[1];
      }
    }
  }
  return '';
}

const PATH_KEYS = ['path', 'file_path', 'filePath', 'file'];

/**
 * What a call acts on, for its one-line header: the command of Bash, the pattern of
 * Glob/Grep (with its folder), else the path. The result's path wins once known.
 */
export function toolTarget(tool: string, args: unknown, argsText: string, result: ToolResult | null): string {
  const a = rec(args);
  if (tool === 'Bash') return firstString(a, ['command', 'cmd']) || fromPartialJSON(argsText, ['command']);
  if (tool === 'Glob' || tool === 'Grep') {
    const pattern = firstString(a, ['pattern', 'query']) || fromPartialJSON(argsText, ['pattern']);
    const dir = firstString(a, PATH_KEYS);
    return dir ? `${pattern} in ${escapeName(dir)}` : pattern;
  }
  return escapeName(result?.path || firstString(a, PATH_KEYS) || fromPartialJSON(argsText, PATH_KEYS));
}

/** "120 ms", "4.2 s", "3m 05s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${m}m ${String(s).padStart(2, '0')}s`;
}

/** Cuts long text for a bounded view; `clipped` says how many characters were left out. */
export function clip(text: string, max: number): { text: string; clipped: number } {
  if (text.length <= max) return { text, clipped: 0 };
  return { text: text.slice(0, max), clipped: text.length - max };
}

/** A call that touched a path outside the session's roots. */
export function isExternal(result: ToolResult | null): boolean {
  return result?.root === 'external';
}

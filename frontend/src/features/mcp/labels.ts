// Pure helpers for showing MCP servers: state words, the exact command line a trust card
// names, token counts, and the form's input rebuilt from a saved server.
import type { MCPServer, MCPServerInput, MCPState, MCPTransport } from '../../bridge/types';
import { escapeName } from '../../lib/names';

export const MCP_STATE_LABEL: Record<MCPState, string> = {
  disabled: 'Disabled',
  untrusted: 'Not trusted',
  connecting: 'Connecting',
  ready: 'Ready',
  failed: 'Failed',
  needs_auth: 'Needs sign-in',
};

export const MCP_TRANSPORT_LABEL: Record<MCPTransport, string> = {
  stdio: 'Local command (stdio)',
  http: 'Streamable HTTP',
  sse: 'SSE (legacy)',
};

/** Short transport words for a list row. */
export const MCP_TRANSPORT_SHORT: Record<MCPTransport, string> = { stdio: 'stdio', http: 'HTTP', sse: 'SSE' };

/** The defaults the backend applies to a 0 timeout, and the ceilings it holds to (backend/mcp). */
export const DEFAULT_CONNECT_TIMEOUT_S = 10;
export const MAX_CONNECT_TIMEOUT_S = 300;
export const DEFAULT_CALL_TIMEOUT_S = 100;
export const MAX_CALL_TIMEOUT_S = 600;

// Characters that need no quoting in a POSIX shell word.
const PLAIN = /^[A-Za-z0-9@%+=:,./_-]+$/;

/**
 * One word as a POSIX shell would need it typed, with control, bidi and zero-width
 * characters escaped (escapeName) so a crafted .mcp.json cannot disguise what runs.
 */
export function shellWord(word: string): string {
  const shown = escapeName(word);
  if (shown !== '' && PLAIN.test(shown)) return shown;
  return `'${shown.replaceAll("'", `'\\''`)}'`;
}

/** The exact command line of a stdio server: command and every argument, quoted where needed. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellWord).join(' ');
}

/** What a server runs or reaches, in one line: the command line, or the URL. */
export function serverTarget(s: Pick<MCPServer, 'transport' | 'command' | 'args' | 'url'>): string {
  return s.transport === 'stdio' ? commandLine(s.command, s.args) : escapeName(s.url);
}

/** "1 tool", "12 tools". */
export function toolCount(n: number): string {
  return `${n} ${n === 1 ? 'tool' : 'tools'}`;
}

/** "~840 tokens", "~12.4k tokens". */
export function formatTokens(n: number): string {
  if (n < 1000) return `~${n} tokens`;
  return `~${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k tokens`;
}

/**
 * The form's input for a saved app server, e.g. to Test it: secret values stay "" so the
 * backend uses the saved ones.
 */
export function inputOf(s: MCPServer): MCPServerInput {
  const row = (h: MCPServer['env'][number]) => ({ ...h, value: h.secret ? '' : h.value });
  return {
    id: s.id,
    transport: s.transport,
    command: s.command,
    args: [...s.args],
    env: s.env.map(row),
    cwd: s.cwd,
    url: s.url,
    headers: s.headers.map(row),
    enabled: s.enabled,
    connectTimeoutMs: s.connectTimeoutMs,
    callTimeoutMs: s.callTimeoutMs,
  };
}

/**
 * A list key for a server row: the same id may be an app server and a project's, and a
 * file or folder that cannot be read is a row without an id, named by its source.
 */
export function serverKey(s: Pick<MCPServer, 'scope' | 'projectId' | 'id' | 'source'>): string {
  return `${s.scope}:${s.projectId}:${s.id === '' ? `source:${s.source}` : s.id}`;
}

/** A project row that is no server but a file or folder that cannot be used: it has no definition to trust. */
export function isSourceProblem(s: Pick<MCPServer, 'scope' | 'definitionHash'>): boolean {
  return s.scope === 'project' && s.definitionHash === '';
}

/** What a row is called: the server's name, or the file or folder a problem row stands for. */
export function serverName(s: Pick<MCPServer, 'id' | 'source'>): string {
  if (s.id !== '') return s.id;
  return s.source === '.' ? 'the project folder' : s.source;
}

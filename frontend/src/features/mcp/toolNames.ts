// The server and own name behind a model-facing MCP tool name (mcp_<server>_<tool>).
// The catalog is exact; without it (a server since removed, a list not loaded) the name
// is split at the longest known server id, else at its first "_" after "mcp_".
import type { MCPServer } from '../../bridge/types';

export interface MCPToolName {
  server: string;
  /** The server's own name of the tool. */
  tool: string;
  /** The tool's title ("" when the server gave none or it is not known). */
  title: string;
}

const PREFIX = 'mcp_';

export function isMCPTool(name: string): boolean {
  return name.startsWith(PREFIX) && name.length > PREFIX.length;
}

export function mcpToolName(name: string, catalog: readonly MCPServer[] = []): MCPToolName | null {
  if (!isMCPTool(name)) return null;
  for (const s of catalog) {
    const t = s.tools.find((x) => x.modelName === name);
    if (t) return { server: s.id, tool: t.name, title: t.title };
  }
  const rest = name.slice(PREFIX.length);
  const known = catalog
    .map((s) => s.id)
    .filter((id) => rest.startsWith(`${id}_`) && rest.length > id.length + 1)
    .sort((a, b) => b.length - a.length)[0];
  if (known) return { server: known, tool: rest.slice(known.length + 1), title: '' };
  const cut = rest.indexOf('_');
  if (cut <= 0 || cut === rest.length - 1) return { server: '', tool: rest, title: '' };
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 1), title: '' };
}

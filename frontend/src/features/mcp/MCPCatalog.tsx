// The session's MCP servers for the transcript's tool rows: which server and own tool
// name (and title) a model-facing mcp_<server>_<tool> name stands for. The list is the
// one the composer's picker reads (same query), so a session opens it once.
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import type { MCPServer, ToolOrigin } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { isMCPTool, mcpToolName, type MCPToolName } from './toolNames';
import './mcp.css';

const CatalogContext = createContext<readonly MCPServer[]>([]);

export function MCPCatalogProvider({ projectId, children }: { projectId: string; children: ReactNode }) {
  const q = useQuery({ queryKey: queryKeys.mcpServers(projectId), queryFn: () => bridge.listMCPServers(projectId) });
  return <CatalogContext.Provider value={q.data ?? []}>{children}</CatalogContext.Provider>;
}

/**
 * The server and own name of an MCP tool; null for any other tool. The origin the host
 * sent with the call wins (exact even after the server left the catalog); without it the
 * catalog, then the name itself, tell.
 */
export function useMCPToolName(tool: string, origin?: ToolOrigin | null): MCPToolName | null {
  const catalog = useContext(CatalogContext);
  if (origin && origin.server !== '' && origin.tool !== '') return { server: origin.server, tool: origin.tool, title: origin.title };
  return isMCPTool(tool) ? mcpToolName(tool, catalog) : null;
}

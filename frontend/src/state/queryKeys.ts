// Every query key of the app, in one place: the event router invalidates by these, so a
// new screen that reads data adds its key here and its invalidation rule in
// features/app/cacheRules.ts. Session data sits under ['session', id] so a session's
// whole cache goes in one call (WorkspaceContext drops it when the session is deleted).
import type { ActivityFilter } from '../bridge/activity';

export const queryKeys = {
  info: ['info'] as const,
  settings: ['settings'] as const,
  /** The saved providers; sessionProvider sits under it, so both refresh together. */
  providers: ['providers'] as const,
  sessionProvider: (sessionId: string) => ['providers', 'session', sessionId] as const,
  projects: ['projects'] as const,
  /** Every MCP server list. */
  mcpAll: ['mcp'] as const,
  /** The app's MCP servers and a project's ("" = the app's alone). */
  mcpServers: (projectId: string) => ['mcp', projectId] as const,
  /** A server's stderr log; under its list, so mcp:changed refreshes it too. */
  mcpLog: (projectId: string, serverId: string) => ['mcp', projectId, 'log', serverId] as const,
  /** Every subagent list. */
  subagentsAll: ['subagents'] as const,
  /** The subagent definitions a project's sessions see ("" = no project). */
  subagents: (projectId: string) => ['subagents', projectId] as const,
  /** Every command rule, of every scope (Settings → Permissions). */
  commandRules: ['commandRules'] as const,
  /** The installed plugins (Settings → Plugins). */
  plugins: ['plugins'] as const,
  /** A plugin's process log. */
  pluginLog: (id: string) => ['plugins', 'log', id] as const,
  projectIsGit: (projectId: string) => ['projectIsGit', projectId] as const,
  /** Every session list, active and archived. */
  sessionLists: ['sessions'] as const,
  /** Active sessions of a project ("" = temporary sessions). */
  sessions: (projectId: string) => ['sessions', 'active', projectId] as const,
  archived: ['sessions', 'archived'] as const,
  session: (sessionId: string) => ['session', sessionId] as const,
  review: (sessionId: string) => ['session', sessionId, 'review'] as const,
  activityAll: (sessionId: string) => ['session', sessionId, 'activity'] as const,
  activity: (sessionId: string, filter: ActivityFilter, pageSize: number) => ['session', sessionId, 'activity', filter, pageSize] as const,
  taskOutput: (sessionId: string, taskId: string) => ['session', sessionId, 'taskOutput', taskId] as const,
  mergePreview: (sessionId: string) => ['session', sessionId, 'mergePreview'] as const,
  /** The session's custom slash commands, read afresh each time the "/" menu opens. */
  slashCommands: (sessionId: string) => ['session', sessionId, 'slashCommands'] as const,
  /** The skills a project's sessions see (the composer's /skill: entries). */
  skills: (projectId: string) => ['project', projectId, 'skills'] as const,
  /** Every file list of the session's @-reference completion. */
  filesAll: (sessionId: string) => ['session', sessionId, 'files'] as const,
  files: (sessionId: string, query: string, limit: number) => ['session', sessionId, 'files', query, limit] as const,
  /** The session's workspace checkpoints (what "Restore files to before this message" restores). */
  checkpoints: (sessionId: string) => ['session', sessionId, 'checkpoints'] as const,
  /** What each of the session's Bash calls changed (the Changes pane's "Changed by commands"). */
  commandChanges: (sessionId: string) => ['session', sessionId, 'commandChanges'] as const,
  /** Checkpoint disk use of every project (Settings). */
  checkpointUsage: ['checkpointUsage'] as const,
};

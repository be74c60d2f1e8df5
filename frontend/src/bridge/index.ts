// The only module that talks to the Go side. Every call returns plain TS objects and
// rejects only with a BridgeError.
import * as ShellApi from '../../wailsjs/go/desktop/Shell';
import * as ProjectsApi from '../../wailsjs/go/desktop/Projects';
import * as SessionsApi from '../../wailsjs/go/desktop/Sessions';
import * as AgentApi from '../../wailsjs/go/desktop/Agent';
import * as ReviewApi from '../../wailsjs/go/desktop/Review';
import * as TasksApi from '../../wailsjs/go/desktop/Tasks';
import * as FilesApi from '../../wailsjs/go/desktop/Files';
import * as SettingsApi from '../../wailsjs/go/desktop/Settings';
import * as ProvidersApi from '../../wailsjs/go/desktop/Providers';
import * as MCPApi from '../../wailsjs/go/desktop/MCP';
import * as SubagentsApi from '../../wailsjs/go/desktop/Subagents';
import * as CommandsApi from '../../wailsjs/go/desktop/Commands';
import * as SkillsApi from '../../wailsjs/go/desktop/Skills';
import * as HistoryApi from '../../wailsjs/go/desktop/History';
import * as PluginsApi from '../../wailsjs/go/desktop/Plugins';
import { pluginList, pluginStaged, type Plugin, type PluginProjectState, type PluginStaged } from './plugins';
import * as PreviewApi from '../../wailsjs/go/desktop/Preview';
import { PREVIEW_EVENTS, previewEvent, previewState as parsePreviewState, type PreviewEvent, type PreviewState } from './preview';
import * as AttachmentsApi from '../../wailsjs/go/desktop/Attachments';
import { BrowserOpenURL, OnFileDrop, OnFileDropOff, WindowSetTitle } from '../../wailsjs/runtime/runtime';
import { attachment, attachmentList, type Attachment, type AttachmentBudget } from './attachments';
import { activityPage, type ActivityFilter, type ActivityPage } from './activity';
import { subagent, subagentList, type Subagent, type SubagentInput, type SubagentList } from './subagents';
import { slashCommandExpansion, slashCommandList, type SlashCommandExpansion, type SlashCommandList } from './commands';
import { skillList, type SkillList } from './skills';
import { exportResult, searchHits, type ExportFormat, type ExportResult, type SearchHit } from './history';
import { openRequests, type OpenRequest } from './opens';
import { EVENT } from './eventNames.gen';
import * as RulesApi from '../../wailsjs/go/desktop/Rules';
import { commandCheck, commandRule, commandRules, type CommandCheck, type CommandCheckInput, type CommandRule, type CommandRuleInput } from './rules';
import {
  checkpointList,
  checkpointUsage as parseCheckpointUsage,
  checkpointUsageList,
  commandChanges as parseCommandChanges,
  restorePlan,
  restoreResult,
  type Checkpoint,
  type CheckpointUsage,
  type CommandChange,
  type RestorePlan,
  type RestoreResult,
} from './checkpoints';
import { artifacts as parseArtifacts, fileStamp, fileView, folderListing, type Artifact, type FileStamp, type FileView, type FolderListing } from './files';
import { toBridgeError } from './errors';
import { EventsOn } from './events';
import * as norm from './normalize';
import {
  AGENT_EVENTS,
  DECISION_EVENTS,
  EVENT_PROJECTS_CHANGED,
  EVENT_SESSIONS_CHANGED,
  EVENT_PROVIDERS_CHANGED,
  EVENT_MCP_CHANGED,
  EVENT_SETTINGS_CHANGED,
  EVENT_TODOS,
  EVENT_WORKTREE_SETUP,
  PERMISSION_EVENTS,
  TASK_EVENTS,
  type AgentEvent,
  type AppInfo,
  type ApprovalAnswer,
  type ApprovalRequest,
  type AskAnswer,
  type DecisionEvent,
  type Delegation,
  type DelegationPage,
  type Proposal,
  type ProposalDecision,
  type QuestionRequest,
  type BackgroundTask,
  type CreateSessionInput,
  type MCPServer,
  type MCPServerInput,
  type MCPServersChanged,
  type MCPTestResult,
  type MergePreview,
  type PromptOptions,
  type MergeResult,
  type ProviderInput,
  type ProviderList,
  type ProviderProfile,
  type ProviderTestResult,
  type ProviderModelList,
  type WorktreeSetupEvent,
  type PermissionEvent,
  type ReviewChange,
  type TaskEvent,
  type TaskOutput,
  type Todo,
  type TodosEvent,
  type TranscriptPage,
  type TranscriptPageQuery,
  type Project,
  type Session,
  type SessionConfig,
  type SessionsChangedEvent,
  type Settings,
  type WorkspaceFiles,
  type SessionCost,
  type DaySpend,
} from './types';

export type * from './types';
export type * from './activity';
export type * from './preview';
export type * from './subagents';
export type * from './commands';
export type * from './skills';
export type * from './rules';

async function call<T>(p: () => Promise<T>): Promise<T> {
  try {
    return await p();
  } catch (err) {
    throw toBridgeError(err);
  }
}

// Each parser comes from the shape's one schema (wire.ts).
const { project, session, settings, providerProfile } = norm;

export function info(): Promise<AppInfo> {
  return call(async () => {
    return norm.appInfo(await ShellApi.Info());
  });
}

/** Opens the native folder picker; resolves "" when the user cancels. */
export function chooseFolder(title: string): Promise<string> {
  return call(() => ShellApi.ChooseFolder(title));
}

export function addProject(path: string): Promise<Project> {
  return call(async () => project(await ProjectsApi.AddProject(path)));
}

export function removeProject(id: string): Promise<void> {
  return call(() => ProjectsApi.RemoveProject(id));
}

/** Projects sorted by name. */
export function listProjects(): Promise<Project[]> {
  return call(async () => (await ProjectsApi.ListProjects() ?? []).map(project));
}

/** Sessions newest first; projectId "" lists temporary sessions. */
export function listSessions(projectId: string, archived: boolean): Promise<Session[]> {
  return call(async () => (await SessionsApi.ListSessions(projectId, archived) ?? []).map(session));
}

export function getSession(id: string): Promise<Session> {
  return call(async () => session(await SessionsApi.GetSession(id)));
}

/** The session named by --session, opened at start; null when none. */
export function initialSession(): Promise<Session | null> {
  return call(async () => {
    const s = await ShellApi.InitialSession();
    return s ? session(s) : null;
  });
}

/**
 * What later starts of the app (a second launch, a file manager opening a .piplug) and this
 * app's own command line asked the window to open, in order; each is returned once.
 */
export function pendingOpens(): Promise<OpenRequest[]> {
  return call(async () => openRequests(await ShellApi.PendingOpens()));
}

/** A later start handed the app something to open: read it with pendingOpens(). */
export function onOpenRequested(cb: () => void): Unsubscribe {
  return EventsOn(EVENT.appOpen, () => cb());
}

export function createSession(input: CreateSessionInput): Promise<Session> {
  return call(async () => session(await SessionsApi.CreateSession({ isolated: false, ...input })));
}

export function renameSession(id: string, title: string): Promise<Session> {
  return call(async () => session(await SessionsApi.RenameSession(id, title)));
}

export function archiveSession(id: string): Promise<Session> {
  return call(async () => session(await SessionsApi.ArchiveSession(id)));
}

export function restoreSession(id: string): Promise<Session> {
  return call(async () => session(await SessionsApi.RestoreSession(id)));
}

export function deleteSession(id: string): Promise<void> {
  return call(() => SessionsApi.DeleteSession(id));
}

export function configureSession(id: string, config: SessionConfig): Promise<Session> {
  return call(async () => session(await SessionsApi.ConfigureSession(id, { ...config })));
}

export function getSettings(): Promise<Settings> {
  return call(async () => settings(await SettingsApi.GetSettings()));
}

/** Resolves with the stored settings; rejects INVALID_ARGUMENT / COMMAND_SHELL_INVALID with details.field. */
export function updateSettings(next: Settings): Promise<Settings> {
  return call(async () => settings(await SettingsApi.UpdateSettings({ ...next })));
}

/** The Go side's Profile: the fields it reads, never a key. */
function profileArg(p: ProviderInput) {
  const out = {
    id: p.id, name: p.name, api: p.api, baseUrl: p.baseUrl, model: p.model, contextWindow: p.contextWindow,
    maxOutputTokens: p.maxOutputTokens, thinking: p.thinking, imagesByDefault: false, isDefault: p.isDefault,
    hasKey: false, keyStorage: '', createdAt: 0, updatedAt: 0,
  } as Parameters<typeof ProvidersApi.SaveProvider>[0];
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.supportsImages !== undefined) out.supportsImages = p.supportsImages;
  if (p.promptCacheKey !== undefined) out.promptCacheKey = p.promptCacheKey;
  out.openaiApi = p.openaiApi ?? '';
  if (p.priceOverrides !== undefined) out.priceOverrides = { ...p.priceOverrides };
  return out;
}

/** The saved providers, oldest first, and where a new key would be saved. Never carries a key. */
export function listProviders(): Promise<ProviderList> {
  return call(async () => {
    return norm.providerList(await ProvidersApi.ListProviders());
  });
}

/**
 * Adds (id "") or updates a provider; apiKey "" keeps the saved key. Rejects
 * MODEL_NOT_CONFIGURED (model, key or base URL missing), INVALID_ARGUMENT or CONFLICT
 * with details.field.
 */
export function saveProvider(input: ProviderInput, apiKey: string): Promise<ProviderProfile> {
  return call(async () => providerProfile(await ProvidersApi.SaveProvider(profileArg(input), apiKey)));
}

export function removeProvider(id: string): Promise<void> {
  return call(() => ProvidersApi.RemoveProvider(id));
}

export function setDefaultProvider(id: string): Promise<void> {
  return call(() => ProvidersApi.SetDefaultProvider(id));
}

/** Sends one minimal request with the form's values (apiKey "" uses the saved key of input.id). */
export function testProvider(input: ProviderInput, apiKey: string): Promise<ProviderTestResult> {
  return call(async () => {
    return norm.providerTestResult(await ProvidersApi.TestProvider(profileArg(input), apiKey));
  });
}

/**
 * The models the server of the form's settings lists (apiKey "" uses the saved key). A failure
 * is a result with a stable code: MODEL_LIST_UNAVAILABLE (the server has no list; type the id),
 * PROVIDER_UNAUTHORIZED, PROVIDER_UNREACHABLE, MODEL_NOT_CONFIGURED, PROVIDER_ERROR.
 */
export function listProviderModels(input: ProviderInput, apiKey: string): Promise<ProviderModelList> {
  return call(async () => norm.providerModelList(await ProvidersApi.ListProviderModels(profileArg(input), apiKey)));
}

/** The provider a session chose; "" = it follows the default. */
export function getSessionProvider(sessionId: string): Promise<string> {
  return call(async () => String((await ProvidersApi.GetSessionProvider(sessionId)) ?? ''));
}

/** Chooses the provider of a session's next turns; "" follows the default. */
export function setSessionProvider(sessionId: string, providerId: string): Promise<void> {
  return call(() => ProvidersApi.SetSessionProvider(sessionId, providerId));
}

type Unsubscribe = () => void;

export function onProvidersChanged(cb: () => void): Unsubscribe {
  return EventsOn(EVENT_PROVIDERS_CHANGED, () => cb());
}

export function onProjectsChanged(cb: () => void): Unsubscribe {
  return EventsOn(EVENT_PROJECTS_CHANGED, () => cb());
}

export function onSessionsChanged(cb: (e: SessionsChangedEvent) => void): Unsubscribe {
  return EventsOn(EVENT_SESSIONS_CHANGED, (payload?: unknown) => cb(norm.sessionsChangedEvent(payload)));
}

export function onSettingsChanged(cb: (s: Settings) => void): Unsubscribe {
  return EventsOn(EVENT_SETTINGS_CHANGED, (payload?: unknown) => cb(settings(payload)));
}

export function openExternalURL(url: string): void {
  BrowserOpenURL(url);
}

/** Titles the window (and the page, which a browser or a screen reader reads). */
export function setWindowTitle(title: string): void {
  document.title = title;
  try {
    WindowSetTitle(title);
  } catch {
    // No Wails runtime here (a plain browser): the page title is all there is.
  }
}

// --- agent -----------------------------------------------------------------

/**
 * Starts a turn; resolves as soon as it runs (progress arrives as events). Rejects
 * e.g. MODEL_NOT_CONFIGURED or AGENT_BUSY before anything is recorded.
 */
export function sendPrompt(sessionId: string, prompt: string): Promise<void> {
  return call(() => AgentApi.SendPrompt(sessionId, prompt));
}

/**
 * sendPrompt with the composer's options: the MCP servers (and tools) chosen are loaded
 * for this prompt. Rejects before the turn opens for an unknown server, a tool of
 * another server or a selection with no tool the mode allows (e.g. MCP_SERVER_UNAVAILABLE).
 */
export function sendPromptWith(sessionId: string, prompt: string, options: PromptOptions): Promise<void> {
  return call(() =>
    AgentApi.SendPromptWith(sessionId, prompt, {
      mcp: options.mcp.map((m) => ({ serverId: m.serverId, tools: [...m.tools] })),
      ...(options.attachments?.length ? { attachments: options.attachments.map((a) => ({ ...a })) } : {}),
    } as Parameters<typeof AgentApi.SendPromptWith>[2]),
  );
}

/** Stops the session's running turn; resolves with how many calls were cancelled. */
export function stopSession(sessionId: string): Promise<number> {
  return call(async () => Number(await AgentApi.StopSession(sessionId)) || 0);
}

/** One page of a session's transcript, whole turns only (see TranscriptPageQuery). */
export function transcriptPage(sessionId: string, q: TranscriptPageQuery): Promise<TranscriptPage> {
  return call(async () => norm.transcriptPage(await AgentApi.TranscriptPage(sessionId, q.before ?? '', q.since ?? '', q.limit)));
}

/** The session's delegate runs (Task subagents), in the order its turns asked for them. */
export function delegations(sessionId: string): Promise<Delegation[]> {
  return call(async () => (await AgentApi.Delegations(sessionId) ?? []).map(norm.delegation));
}

/** One delegate run with its own conversation: its tool calls with results, and its report. */
export function delegationTranscript(sessionId: string, delegationId: string): Promise<DelegationPage> {
  return call(async () => norm.delegationPage(await AgentApi.DelegationTranscript(sessionId, delegationId)));
}

export function pendingApprovals(sessionId: string): Promise<ApprovalRequest[]> {
  return call(async () => (await AgentApi.PendingApprovals(sessionId) ?? []).map(norm.approvalRequest));
}

export function resolveApproval(sessionId: string, requestId: string, answer: ApprovalAnswer): Promise<void> {
  return call(() => AgentApi.ResolveApproval(sessionId, requestId, answer));
}

/** The session's review records; messageId "" lists all of them. */
export function reviewChanges(sessionId: string, messageId: string): Promise<ReviewChange[]> {
  return call(async () => (await ReviewApi.ReviewChanges(sessionId, messageId) ?? []).map(norm.reviewChange));
}

/** Rolls one change back (with its move partner); rejects CONFLICT when the file changed since. */
export function rollbackChange(sessionId: string, snapshotId: string): Promise<ReviewChange[]> {
  return call(async () => (await ReviewApi.RollbackChange(sessionId, snapshotId) ?? []).map(norm.reviewChange));
}

/**
 * One page of the session's audit rows (the Activity view), newest first. cursor 0 starts
 * at the newest row; pass the page's nextCursor for older ones. limit 0 = 50, at most 200.
 */
export function activityLog(sessionId: string, filter: ActivityFilter, cursor = 0, limit = 0): Promise<ActivityPage> {
  return call(async () => activityPage(await ReviewApi.ActivityLog(sessionId, { ...filter, cursor, limit })));
}

// --- background tasks --------------------------------------------------------

export function tasks(sessionId: string): Promise<BackgroundTask[]> {
  return call(async () => (await TasksApi.Tasks(sessionId) ?? []).map(norm.backgroundTask));
}

export function taskOutput(sessionId: string, taskId: string): Promise<TaskOutput> {
  return call(async () => norm.taskOutput(await TasksApi.TaskOutput(sessionId, taskId)));
}

export function stopTask(sessionId: string, taskId: string): Promise<void> {
  return call(() => TasksApi.StopTask(sessionId, taskId));
}

export function removeTask(sessionId: string, taskId: string): Promise<void> {
  return call(() => TasksApi.RemoveTask(sessionId, taskId));
}

/** The session's checklist as the last TodoWrite left it (empty when there is none). */
export function todos(sessionId: string): Promise<Todo[]> {
  return call(async () => (await AgentApi.Todos(sessionId) ?? []).map(norm.todo));
}

// --- live events -------------------------------------------------------------

function subscribeAll<T>(names: readonly string[], parse: (name: string, payload: unknown) => T | null, cb: (e: T) => void): Unsubscribe {
  const offs = names.map((name) =>
    EventsOn(name, (payload?: unknown) => {
      const e = parse(name, payload);
      if (e) cb(e);
    }),
  );
  return () => {
    for (const off of offs) off();
  };
}

/** Every agent:* event and tool:output (live Bash output), for all sessions. */
export function onAgentEvent(cb: (e: AgentEvent) => void): Unsubscribe {
  return subscribeAll(AGENT_EVENTS, norm.agentEvent, cb);
}

/** permission:request and permission:resolved, for all sessions. */
export function onPermissionEvent(cb: (e: PermissionEvent) => void): Unsubscribe {
  return subscribeAll(PERMISSION_EVENTS, norm.permissionEvent, cb);
}

/** task:started, task:output and task:exited, for all sessions. */
export function onTaskEvent(cb: (e: TaskEvent) => void): Unsubscribe {
  return subscribeAll(TASK_EVENTS, norm.taskEvent, cb);
}

/** agent:todos (a session's checklist was replaced), for all sessions. */
export function onTodos(cb: (e: TodosEvent) => void): Unsubscribe {
  return EventsOn(EVENT_TODOS, (payload?: unknown) => {
    const e = norm.todosEvent(payload);
    if (e) cb(e);
  });
}

// --- decisions: asktool questions and Plan/Goal proposals ------------------------

/** The session's asktool calls waiting for an answer, oldest first. */
export function pendingQuestions(sessionId: string): Promise<QuestionRequest[]> {
  return call(async () => (await AgentApi.PendingQuestions(sessionId) ?? []).map(norm.questionRequest));
}

/**
 * Answers a pending asktool call, one answer per question in order; fewer answers (or
 * none: Skip) leave the rest empty. Rejects NOT_FOUND when it no longer waits (answered
 * elsewhere, or its turn was stopped) and INVALID_ARGUMENT for an answer that does not fit.
 */
export function answerQuestion(sessionId: string, questionId: string, answers: AskAnswer[]): Promise<void> {
  return call(() => AgentApi.AnswerQuestion(sessionId, questionId, answers.map((a) => ({ selected: [...a.selected], text: a.text }))));
}

/** Every plan and goal proposal of the session, oldest first, with its state. */
export function proposals(sessionId: string): Promise<Proposal[]> {
  return call(async () => (await AgentApi.Proposals(sessionId) ?? []).map(norm.proposal));
}

/**
 * Approves (permissionMode required) or rejects a pending proposal; resolves with the
 * settled proposal. Fails closed: PLAN_APPROVAL_STALE when it no longer waits or names
 * another turn/version, PLAN_APPROVAL_INTERRUPTED when PI-Desktop stopped meanwhile.
 */
export function resolveProposal(decision: ProposalDecision): Promise<Proposal> {
  return call(async () => norm.proposal(await AgentApi.ResolveProposal({ ...decision })));
}

/** agent:question and agent:proposal (asked, then settled), for all sessions. */
export function onDecisionEvent(cb: (e: DecisionEvent) => void): Unsubscribe {
  return subscribeAll(DECISION_EVENTS, norm.decisionEvent, cb);
}

// --- isolated sessions (git worktrees) ------------------------------------------

/** Whether the project folder is a git repository (isolated sessions are offered then). */
export function projectIsGit(projectId: string): Promise<boolean> {
  return call(async () => Boolean(await ProjectsApi.ProjectIsGit(projectId)));
}

/** What merging an isolated session's branch would do; its token is valid until the repository changes. */
export function mergePreview(sessionId: string): Promise<MergePreview> {
  return call(async () => norm.mergePreview(await SessionsApi.MergePreview(sessionId)));
}

/**
 * Merges the session branch into the project branch as previewed. Rejects e.g.
 * WORKTREE_CONFLICT (details.files), WORKTREE_STALE_PREVIEW, WORKTREE_PROJECT_DIRTY.
 */
export function merge(sessionId: string, token: string): Promise<MergeResult> {
  return call(async () => norm.mergeResult(await SessionsApi.Merge(sessionId, token)));
}

/** worktree:setup (the project's setup command for a new isolated session), for all sessions. */
export function onWorktreeSetup(cb: (e: WorktreeSetupEvent) => void): Unsubscribe {
  return EventsOn(EVENT_WORKTREE_SETUP, (payload?: unknown) => {
    const e = norm.worktreeSetupEvent(payload);
    if (e) cb(e);
  });
}

// --- @-references -----------------------------------------------------------------

/**
 * Files of the session's workspace whose path matches query, best first (ignored and
 * hidden files never appear). limit 0 is the backend's default; it caps larger ones.
 */
export function workspaceFiles(sessionId: string, query: string, limit = 0): Promise<WorkspaceFiles> {
  return call(async () => {
    return norm.workspaceFiles(await FilesApi.WorkspaceFiles(sessionId, query, limit));
  });
}

// --- the Files pane --------------------------------------------------------------------

/** The workspace files the session's agent wrote (Write/Edit), newest first. */
export function listArtifacts(sessionId: string): Promise<Artifact[]> {
  return call(async () => parseArtifacts(await FilesApi.Artifacts(sessionId)));
}

/** One folder of the session's workspace ('' = its top), as Glob sees it. */
export function listFolder(sessionId: string, path: string): Promise<FolderListing> {
  return call(async () => folderListing(await FilesApi.ListFolder(sessionId, path)));
}

/** Workspace files whose path matches query, best first (the Files pane's filter). */
export function findFiles(sessionId: string, query: string): Promise<WorkspaceFiles> {
  return call(async () => norm.workspaceFiles(await FilesApi.FindFiles(sessionId, query)));
}

/** A workspace file for the read-only viewer. */
export function viewFile(sessionId: string, path: string): Promise<FileView> {
  return call(async () => fileView(await FilesApi.ViewFile(sessionId, path)));
}

/** How a workspace file looks now: an open viewer reloads when the stamp changes. */
export function fileStampOf(sessionId: string, path: string): Promise<FileStamp> {
  return call(async () => fileStamp(await FilesApi.FileStamp(sessionId, path)));
}

/** Shows the folder holding a workspace file in the OS file manager. */
export function revealFile(sessionId: string, path: string): Promise<void> {
  return call(() => FilesApi.RevealFile(sessionId, path));
}

/** Opens a workspace file with the app the OS associates with it. */
export function openFileInEditor(sessionId: string, path: string): Promise<void> {
  return call(() => FilesApi.OpenFileInEditor(sessionId, path));
}

// --- MCP servers -------------------------------------------------------------------

/** The Go side's MCPServerInput: exactly the form's fields. */
function mcpInputArg(input: MCPServerInput): Parameters<typeof MCPApi.SaveServer>[0] {
  const header = (h: MCPServerInput['headers'][number]) => ({ name: h.name, value: h.value, secret: h.secret, hasValue: h.hasValue });
  return {
    id: input.id, transport: input.transport, command: input.command, args: [...input.args], env: input.env.map(header),
    cwd: input.cwd, url: input.url, headers: input.headers.map(header), enabled: input.enabled,
    connectTimeoutMs: input.connectTimeoutMs, callTimeoutMs: input.callTimeoutMs,
  } as Parameters<typeof MCPApi.SaveServer>[0];
}

/**
 * The app's servers and, for projectId, that project's, with state and trust; an app server
 * that the project's own (trusted) server of its id replaces is marked overridden. Listing
 * never starts an untrusted server.
 */
export function listMCPServers(projectId: string): Promise<MCPServer[]> {
  return call(async () => (await MCPApi.ListServers(projectId) ?? []).map(norm.mcpServer));
}

/**
 * Adds or replaces an app server; a secret value "" keeps the saved one. Rejects
 * INVALID_ARGUMENT with details.field naming the form field.
 */
export function saveMCPServer(input: MCPServerInput): Promise<MCPServer> {
  return call(async () => norm.mcpServer(await MCPApi.SaveServer(mcpInputArg(input))));
}

/** Deletes an app server, its secrets and tokens, and ends its processes. */
export function removeMCPServer(id: string): Promise<void> {
  return call(() => MCPApi.RemoveServer(id));
}

/** projectId "" names an app server. */
export function setMCPServerEnabled(projectId: string, serverId: string, enabled: boolean): Promise<void> {
  return call(() => MCPApi.SetServerEnabled(projectId, serverId, enabled));
}

/** tool is the server's own tool name. */
export function setMCPToolEnabled(projectId: string, serverId: string, tool: string, enabled: boolean): Promise<void> {
  return call(() => MCPApi.SetToolEnabled(projectId, serverId, tool, enabled));
}

/** Connects with the form's definition, lists the tools and disconnects; a failure is a result, not a rejection. */
export function testMCPServer(input: MCPServerInput): Promise<MCPTestResult> {
  return call(async () => norm.mcpTestResult(await MCPApi.TestServer(mcpInputArg(input))));
}

/**
 * Connects once to a configured server (projectId "" = an app server), lists its tools and disconnects;
 * a failure is a result. An untrusted project server is refused (MCP_SERVER_UNAVAILABLE), never started.
 */
export function testMCPServerByID(projectId: string, serverId: string): Promise<MCPTestResult> {
  return call(async () => norm.mcpTestResult(await MCPApi.TestServerByID(projectId, serverId)));
}

/** Trusts a project's server with the definition the user saw; a changed definition is not trusted by it. */
export function trustMCPServer(projectId: string, serverId: string, definitionHash: string): Promise<void> {
  return call(() => MCPApi.TrustServer(projectId, serverId, definitionHash));
}

export function restartMCPServer(projectId: string, serverId: string): Promise<void> {
  return call(() => MCPApi.RestartServer(projectId, serverId));
}

/**
 * Runs a remote server's OAuth sign-in in the system browser; resolves once signed in, rejects
 * MCP_AUTH_REQUIRED when it is cancelled (cancelMCPSignIn), refused, or the app closes.
 */
export function signInMCPServer(projectId: string, serverId: string): Promise<void> {
  return call(() => MCPApi.SignIn(projectId, serverId));
}

/** Ends a sign-in waiting in the browser; nothing waiting is not an error. */
export function cancelMCPSignIn(projectId: string, serverId: string): Promise<void> {
  return call(() => MCPApi.CancelSignIn(projectId, serverId));
}

/** A stdio server's bounded stderr log. */
export function mcpServerLog(projectId: string, serverId: string): Promise<string> {
  return call(async () => String((await MCPApi.ServerLog(projectId, serverId)) ?? ''));
}

/** mcp:changed: a server was added, edited, removed, trusted, or changed state or tools. */
export function onMCPServersChanged(cb: (e: MCPServersChanged) => void): Unsubscribe {
  return EventsOn(EVENT_MCP_CHANGED, (payload?: unknown) => cb(norm.mcpServersChanged(payload)));
}

// --- subagent definitions ----------------------------------------------------------

/**
 * Every definition projectId's sessions see ("" = the builtin and user ones): in effect,
 * overridden, over the limit, and files that cannot be used with the reason.
 */
export function listSubagents(projectId: string): Promise<SubagentList> {
  return call(async () => subagentList(await SubagentsApi.ListSubagents(projectId)));
}

/**
 * Validates and saves one of the app's own definitions. Rejects SUBAGENT_INVALID with
 * the reason (details.field "name" when the name is at fault), CONFLICT when the name is
 * taken.
 */
export function saveSubagent(input: SubagentInput): Promise<Subagent> {
  return call(async () =>
    subagent(
      await SubagentsApi.SaveSubagent({
        replaces: input.replaces, name: input.name, description: input.description, tools: [...input.tools],
        model: input.model, permission: input.permission, maxTurns: input.maxTurns, prompt: input.prompt,
      } as Parameters<typeof SubagentsApi.SaveSubagent>[0]),
    ),
  );
}

/** Deletes one of the app's own definitions. */
export function deleteSubagent(name: string): Promise<void> {
  return call(() => SubagentsApi.DeleteSubagent(name));
}

// --- custom slash commands ---------------------------------------------------------

/**
 * Every custom command file the session's composer sees (its project's, an isolated
 * session's from the project path, and the user's): in effect, replaced, and files that
 * cannot be used with the reason.
 */
export function listSlashCommands(sessionId: string): Promise<SlashCommandList> {
  return call(async () => slashCommandList(await CommandsApi.ListSlashCommands(sessionId)));
}

/**
 * The command filled with its arguments: the prompt to send as typed, so the transcript
 * shows it expanded. Rejects SLASH_COMMAND_NOT_FOUND for a name not (or no longer) usable.
 */
export function expandSlashCommand(sessionId: string, name: string, args: string): Promise<SlashCommandExpansion> {
  return call(async () => slashCommandExpansion(await CommandsApi.ExpandSlashCommand(sessionId, name, args)));
}

/**
 * The skills a project's sessions see (built in, the user's, the project's), with every
 * file that is not a usable skill and why; "" lists the built-in and user skills only.
 */
export function listSkills(projectId: string): Promise<SkillList> {
  return call(async () => skillList(await SkillsApi.ListSkills(projectId)));
}

/** Compacts the session's context at its next request boundary, as new_context does (/compact). */
export function requestCompaction(sessionId: string): Promise<void> {
  return call(() => CommandsApi.RequestCompaction(sessionId));
}

// --- command rules -----------------------------------------------------------------

/** Every command rule, of every scope, oldest first, with the project or session it belongs to. */
export function listCommandRules(): Promise<CommandRule[]> {
  return call(async () => commandRules(await RulesApi.ListCommandRules()));
}

function ruleInput(input: CommandRuleInput): Parameters<typeof RulesApi.AddCommandRule>[0] {
  return {
    decision: input.decision, program: input.program, args: [...input.args], scope: input.scope,
    projectId: input.projectId, sessionId: input.sessionId, note: input.note,
  } as Parameters<typeof RulesApi.AddCommandRule>[0];
}

/**
 * Validates and saves a rule; an equal one saved before is returned. Rejects RULE_INVALID
 * with details.field (decision, program, args, scope, note), PROJECT_NOT_FOUND or
 * SESSION_NOT_FOUND for an owner that is gone.
 */
export function addCommandRule(input: CommandRuleInput): Promise<CommandRule> {
  return call(async () => commandRule(await RulesApi.AddCommandRule(ruleInput(input))));
}

/** Replaces a rule's decision, words, scope and note: as add, plus RULE_NOT_FOUND, and CONFLICT when it would equal another. */
export function updateCommandRule(id: string, input: CommandRuleInput): Promise<CommandRule> {
  return call(async () => commandRule(await RulesApi.UpdateCommandRule(id, ruleInput(input))));
}

/** Deletes a rule (RULE_NOT_FOUND when it is gone). */
export function removeCommandRule(id: string): Promise<void> {
  return call(() => RulesApi.RemoveCommandRule(id));
}

/** How the rules decide a command, and why for each simple command in it; nothing runs. */
export function checkCommand(input: CommandCheckInput): Promise<CommandCheck> {
  return call(async () =>
    commandCheck(
      await RulesApi.CheckCommand({
        sessionId: input.sessionId, projectId: input.projectId, command: input.command, shell: input.shell,
      } as Parameters<typeof RulesApi.CheckCommand>[0]),
    ),
  );
}

/** The session header's figures: the session's cost so far and the tokens of its last request against the window. */
export function sessionCost(sessionId: string): Promise<SessionCost> {
  return call(async () => norm.sessionCost(await AgentApi.SessionCost(sessionId)));
}

/** The last 30 local days' model responses by day and provider, newest first (Settings → Models). */
export function spendPerDay(): Promise<DaySpend[]> {
  return call(async () => norm.spendPerDay(await ProvidersApi.SpendPerDay()));
}

/** Searches every session's messages and tool calls (at least one term of 3 characters). */
export function searchHistory(query: string): Promise<SearchHit[]> {
  return call(async () => searchHits(await HistoryApi.Search(query)));
}

/** Asks where to save the session and writes it; path '' when the user cancelled. */
export function exportSession(sessionId: string, format: ExportFormat): Promise<ExportResult> {
  return call(async () => exportResult(await HistoryApi.ExportSession(sessionId, format)));
}

// --- checkpoints (issue 20) ----------------------------------------------------------

export type * from './checkpoints';
export type * from './opens';

/** The session's workspace checkpoints, newest first (captured false: not taken, with the reason). */
export function checkpoints(sessionId: string): Promise<Checkpoint[]> {
  return call(async () => checkpointList(await ReviewApi.Checkpoints(sessionId)));
}

/** What restoring a checkpoint would change: every file with its diff, and the conflicts. Changes nothing. */
export function previewRestore(sessionId: string, checkpointId: string): Promise<RestorePlan> {
  return call(async () => restorePlan(await ReviewApi.PreviewRestore(sessionId, checkpointId)));
}

/**
 * Restores the workspace to a checkpoint, keeping every conflict except the paths in
 * `overwrite` (the user's choice, file by file); restoring the result's `before` undoes it.
 * Rejects CHECKPOINT_NOT_FOUND, CHECKPOINT_NOT_CAPTURED.
 */
export function restoreCheckpoint(sessionId: string, checkpointId: string, overwrite: readonly string[]): Promise<RestoreResult> {
  return call(async () => restoreResult(await ReviewApi.RestoreCheckpoint(sessionId, checkpointId, { paths: [...overwrite] })));
}

/** What each of the session's Bash calls changed, oldest first, each file with its diff. */
export function commandChanges(sessionId: string): Promise<CommandChange[]> {
  return call(async () => parseCommandChanges(await ReviewApi.CommandChanges(sessionId)));
}

/** The disk each project's checkpoints take (Settings). */
export function checkpointUsage(): Promise<CheckpointUsage[]> {
  return call(async () => checkpointUsageList(await ReviewApi.CheckpointUsage()));
}

/** Removes every checkpoint of a project (none can be restored after); resolves with what was freed. */
export function clearCheckpoints(projectId: string): Promise<CheckpointUsage> {
  return call(async () => parseCheckpointUsage(await ReviewApi.ClearCheckpoints(projectId)));
}

// --- plugins (issue 22) ----------------------------------------------------------------

export type * from './plugins';

/** The installed plugins by id, with what each contributes and its state. */
export function listPlugins(): Promise<Plugin[]> {
  return call(async () => pluginList(await PluginsApi.List()));
}

/**
 * Asks for a .piplug file ('file') or a plugin folder ('folder'), checks and stages it:
 * the result is the consent card, nothing is installed or run yet (cancelled: the
 * dialog was closed). Rejects PLUGIN_INVALID or PLUGIN_ARCHIVE_REFUSED with the reason.
 */
export function stagePlugin(kind: 'file' | 'folder'): Promise<PluginStaged> {
  return call(async () => pluginStaged(await PluginsApi.Stage(kind)));
}

/** Checks and stages the .piplug at an absolute path (one the app was asked to open): its consent card. */
export function stagePluginFile(path: string): Promise<PluginStaged> {
  return call(async () => pluginStaged(await PluginsApi.StageFile(path)));
}

/** Installs a staged plugin; consent is given to exactly what its card showed. */
export function installStagedPlugin(token: string, consent: boolean): Promise<void> {
  return call(() => PluginsApi.InstallStaged(token, consent));
}

/** Drops a staged plugin the user declined. */
export function discardStagedPlugin(token: string): Promise<void> {
  return call(() => PluginsApi.DiscardStaged(token));
}

/** Consents to an installed plugin as its card showed it (CONFLICT when it changed since). */
export function consentPlugin(id: string, hash: string): Promise<void> {
  return call(() => PluginsApi.Consent(id, hash));
}

/** Turns a plugin on or off app-wide; off removes its contributions and stops its processes. */
export function setPluginEnabled(id: string, enabled: boolean): Promise<void> {
  return call(() => PluginsApi.SetEnabled(id, enabled));
}

/**
 * Sets a plugin's state in one project: 'on' or 'off' there whatever the app-wide switch
 * says, or 'app' to drop the project's own choice and follow the app-wide switch again.
 * Applies at once; rejects PROJECT_NOT_FOUND, PLUGIN_NOT_FOUND or INVALID_ARGUMENT.
 */
export function setPluginProject(id: string, projectId: string, state: PluginProjectState): Promise<void> {
  return call(() => PluginsApi.SetProjectEnabled(id, projectId, state));
}

/** Uninstalls a plugin. */
export function removePlugin(id: string): Promise<void> {
  return call(() => PluginsApi.Remove(id));
}

/** The kept stderr of a plugin's process (bounded; '' when it never ran). */
export function pluginLog(id: string): Promise<string> {
  return call(async () => String((await PluginsApi.Log(id)) ?? ''));
}

/** The session's open BrowserPreview, or null. */
export function previewState(sessionId: string): Promise<PreviewState | null> {
  return call(async () => parsePreviewState(await PreviewApi.State(sessionId)));
}

/** Closes the session's preview; its address stops working. */
export function closePreview(sessionId: string): Promise<void> {
  return call(() => PreviewApi.Close(sessionId));
}

/** Opens the session's preview in the system browser (the host's own URL for it). */
export function openPreviewInBrowser(sessionId: string): Promise<void> {
  return call(() => PreviewApi.OpenInBrowser(sessionId));
}

export function onPreviewEvent(cb: (e: PreviewEvent) => void): Unsubscribe {
  const offs = PREVIEW_EVENTS.map((name) =>
    EventsOn(name, (payload?: unknown) => {
      const e = previewEvent(name, payload);
      if (e) cb(e);
    }),
  );
  return () => offs.forEach((off) => off());
}

// --- composer attachments (issue 23) --------------------------------------------------

export type * from './attachments';

/** Copies files at absolute paths (a drop on the window) into the session's pasted folder. */
export function attachFiles(sessionId: string, paths: string[], held: AttachmentBudget): Promise<Attachment[]> {
  return call(async () => attachmentList(await AttachmentsApi.AttachFiles(sessionId, paths, held)));
}

/** Stores bytes without a path (a pasted image; a file dropped on a browser page), base64 once. */
export function attachData(sessionId: string, name: string, dataBase64: string, held: AttachmentBudget): Promise<Attachment> {
  return call(async () => attachment(await AttachmentsApi.AttachData(sessionId, name, dataBase64, held)));
}

/** Opens the system's file dialog (several files) and copies the chosen ones; [] when cancelled. */
export function chooseFiles(sessionId: string, held: AttachmentBudget): Promise<Attachment[]> {
  return call(async () => attachmentList(await AttachmentsApi.ChooseFiles(sessionId, held)));
}

/**
 * Whether the window delivers dropped files as paths (the Wails webview: onFileDrop). A
 * browser page (the dev server) gets File objects instead, read with attachData.
 */
export function nativeFileDrop(): boolean {
  const w = window as unknown as { webkit?: { messageHandlers?: { external?: unknown } }; chrome?: { webview?: unknown } };
  return w.webkit?.messageHandlers?.external !== undefined || w.chrome?.webview !== undefined;
}

/** Calls onPaths with the absolute paths of files dropped on the window; returns the unsubscribe. */
export function onFileDrop(onPaths: (paths: string[]) => void): () => void {
  if (!nativeFileDrop()) return () => {};
  OnFileDrop((_x, _y, paths) => onPaths(paths), false);
  return () => OnFileDropOff();
}

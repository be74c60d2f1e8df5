// An in-memory stand-in for src/bridge. Component tests mock the bridge module with it:
//
//   vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));
//   beforeEach(() => resetFakeBridge({ projects: [...], sessions: [...] }));
//
// Every export is a vi.fn with a working implementation, so tests can both assert calls
// and see the UI react; override single calls with mockResolvedValueOnce / mockRejectedValueOnce.
import { vi, type Mock } from 'vitest';
import type * as Bridge from '../bridge';
import { activityPage, type AuditRow } from '../bridge/activity';
import { BridgeError } from '../bridge/errors';
import * as norm from '../bridge/normalize';
import {
  AGENT_EVENTS,
  DECISION_EVENTS,
  PERMISSION_EVENTS,
  TASK_EVENTS,
  type AppInfo,
  type EnvironmentModel,
  type MCPServer,
  type MCPServersChanged,
  type MCPTool,
  type Project,
  type ProviderProfile,
  type ReviewChange,
  type Session,
  type SessionsChangedEvent,
  type Settings,
} from '../bridge/types';
import type { Subagent } from '../bridge/subagents';
import type { SlashCommand } from '../bridge/commands';
import { skillList, type SkillEntry, type SkillList } from '../bridge/skills';
import { commandCheck, type CommandCheck, type CommandRule, type CommandRuleInput } from '../bridge/rules';
import type { Checkpoint, CheckpointUsage, CommandChange, CommandFile, RestoreFile } from '../bridge/checkpoints';
import type { OpenRequest } from '../bridge/opens';
import type { Plugin, PluginStaged, PluginSummary } from '../bridge/plugins';
import type { Artifact } from '../bridge/files';
import { PREVIEW_EVENTS, previewEvent, previewState } from '../bridge/preview';

type BridgeModule = typeof Bridge;
type Fn = (...args: never[]) => unknown;
export type FakeBridge = { [K in keyof BridgeModule]: BridgeModule[K] extends Fn ? Mock<BridgeModule[K]> : never };

export interface Seed {
  /** Raw api.PreviewState by session id: the sessions' open BrowserPreview panes. */
  browserPreviews?: Record<string, Record<string, unknown>>;
  projects?: Project[];
  sessions?: Session[];
  settings?: Partial<Settings>;
  info?: Partial<AppInfo>;
  /** Raw Transcript JSON (as Go sends it) by session id. */
  transcripts?: Record<string, unknown>;
  /** Raw pending permission.Request JSON. */
  approvals?: Array<Record<string, unknown>>;
  /** Raw agent.DelegationPage JSON (a delegation and its own turn) by session id. */
  delegations?: Record<string, Array<Record<string, unknown>>>;
  reviews?: ReviewChange[];
  /** Ids of projects whose folder is a git repository. */
  gitProjects?: string[];
  /** Raw worktree.Preview JSON by session id (isolated sessions without one get mergePreviewRaw()). */
  previews?: Record<string, Record<string, unknown>>;
  /** The session named by --session. */
  initialSessionId?: string;
  /** Raw bgtask.Task JSON (all sessions); tasks() lists a session's ones that are not removed. */
  tasks?: Array<Record<string, unknown>>;
  /** Raw agent.Todo JSON lists by session id. */
  todos?: Record<string, unknown[]>;
  /** Audit rows (any order; ids must be unique). */
  audit?: AuditRow[];
  /** Raw agent.QuestionEvent JSON (pending ones wait for answerQuestion). */
  questions?: Array<Record<string, unknown>>;
  /** Raw agent.Proposal JSON, every state (pending ones wait for resolveProposal). */
  proposals?: Array<Record<string, unknown>>;
  /** Saved providers (see provider()); those with hasKey get the key "sk-saved-<id>". */
  providers?: ProviderProfile[];
  /** Where a new key goes: "keychain" (default) or a file path. */
  providerKeyStorage?: string;
  /** The environment's model (only listed while no provider is saved). */
  environment?: EnvironmentModel | null;
  /** Each session's chosen provider id. */
  sessionProviders?: Record<string, string>;
  /** The model ids a provider's server lists (listProviderModels, testProvider); null: it has no list. Default null. */
  providerModels?: string[] | null;
  /** Workspace files by session id, for @-references. */
  files?: Record<string, string[]>;
  /** MCP servers, app and project ones (see mcpServer()); saved secret values are "secret-<name>". */
  mcpServers?: MCPServer[];
  /** ServerLog text by "<projectId>/<serverId>". */
  mcpLogs?: Record<string, string>;
  /**
   * Subagent rows (see subagentRow()); a project row needs projectId to be listed
   * for that project. Builtin and user rows are in every list.
   */
  subagents?: FakeSubagent[];
  /** Custom slash command rows (see slashCommandRow()), the same for every session. */
  slashCommands?: FakeSlashCommand[];
  /** Skills every project's sessions see, as Go lists them. */
  skills?: SkillEntry[];
  /** Files that are not usable skills, and how many skills the model's catalog left out. */
  skillProblems?: SkillList['problems'];
  skillsLeftOut?: number;
  /** Command rules as Go lists them (see commandRuleRow()); names of projects and sessions are filled in when listed. */
  commandRules?: CommandRule[];
  /**
   * Raw api.CommandCheck JSON by the exact command checked (see commandCheckRaw()); a command
   * not listed is decided "ask" with one command that no rule matched.
   */
  commandChecks?: Record<string, unknown>;
  /** Checkpoints by session id, newest first (see checkpointRow()). */
  checkpoints?: Record<string, Checkpoint[]>;
  /** The files restoring a checkpoint would change, by checkpoint id (see restoreFile()); none when absent. */
  restorePlans?: Record<string, RestoreFile[]>;
  /** What each Bash call changed, by session id, oldest first (see commandChangeRow()). */
  commandChanges?: Record<string, CommandChange[]>;
  /** Checkpoint disk use by project id; a project not listed takes none. */
  checkpointUsage?: Record<string, CheckpointUsage>;
  /** The installed plugins (see pluginRow()). */
  plugins?: Plugin[];
  /** What each stagePlugin call returns in turn, as if the user chose it; none left = cancelled. */
  pluginStages?: PluginSummary[];
  /** A plugin's process log by plugin id. */
  pluginLogs?: Record<string, string>;
  /** The Files pane: workspace file contents by session id, then by '/'-separated path. */
  workspace?: Record<string, Record<string, string>>;
  /** The Files pane: the artifacts of each session, newest first (see artifactRow()). */
  artifacts?: Record<string, Artifact[]>;
}

/** A slash command row and the template the fake expands. */
export type FakeSlashCommand = SlashCommand & { template: string };

/** A raw api.SlashCommand as Go sends it: an effective project command unless extra says otherwise. */
export function slashCommandRow(name: string, template: string, extra: Partial<FakeSlashCommand> = {}): FakeSlashCommand {
  return {
    name, source: 'project', state: 'effective', path: `/work/project/.agents/commands/${name}.md`, description: `The ${name} command.`,
    argumentHint: '', problems: [], template, ...extra,
  };
}

/** A subagent row and, for a project's, the project it belongs to. */
export type FakeSubagent = Subagent & { projectId?: string };

/** A raw api.Subagent as Go sends it: an effective user definition unless extra says otherwise. */
export function subagentRow(name: string, extra: Partial<FakeSubagent> = {}): FakeSubagent {
  return {
    name, source: 'user', state: 'effective', path: `/data/subagents/${name}.md`, editable: true, error: '',
    description: `The ${name} subagent.`, tools: ['Read', 'Glob', 'Grep'], inherit: false, excludedTools: [], toolsWritten: [],
    model: '', modelProfileId: '', modelProfileName: '', permission: 'inherit', maxTurns: 24, prompt: `You are ${name}.`,
    warnings: [], overrides: '', overriddenBy: '', ...extra,
  };
}

/** A command rule as Go sends it: a global allow unless extra says otherwise. */
export function commandRuleRow(id: string, words: string, extra: Partial<CommandRule> = {}): CommandRule {
  const [program = '', ...args] = words.split(' ');
  return {
    id, decision: 'allow', program, args, scope: 'global', note: '', projectId: '', projectName: '', projectPath: '',
    sessionId: '', sessionTitle: '', createdAt: NOW, ...extra,
  };
}

/** A raw api.CommandCheck: one command per [text, decision, reason, matched rule words] entry. */
export function commandCheckRaw(decision: CommandCheck['decision'], commands: Array<[string, CommandCheck['decision'], string, string?]>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const label = (d: string) => (d === 'allow' ? 'allowed by rule' : d === 'deny' ? 'denied' : 'needs you');
  return {
    decision, label: label(decision), reason: `${decision}: ${commands.length} command(s)`, writes: [], suggestions: [], parseError: '', shell: 'posix',
    commands: commands.map(([text, d, reason, rule]) => ({
      text, wrappers: [], program: text.split(' ')[0], args: text.split(' ').slice(1), decision: d, label: label(d), reason, alwaysAsk: false,
      rules: rule ? [commandRuleRow(`r-${rule}`, rule, { decision: d })] : [],
    })),
    ...extra,
  };
}

/** The fixed clock of every test (see test/setup.ts): midday, so relative
 * times never straddle a midnight. */
export const NOW = new Date(2026, 5, 15, 12, 0, 0).getTime();

export function project(id: string, name: string, extra: Partial<Project> = {}): Project {
  return { id, name, path: `/home/dev/${name}`, createdAt: NOW - 86_400_000, updatedAt: NOW - 86_400_000, setupCommand: '', ...extra };
}

export function session(id: string, projectId: string, title: string, updatedAt: number, extra: Partial<Session> = {}): Session {
  return {
    id,
    projectId,
    title,
    operatingMode: 'agent',
    permissionMode: 'inherit',
    isolated: false,
    createdAt: updatedAt,
    updatedAt,
    archivedAt: 0,
    ...extra,
  };
}

export const defaultInfo: AppInfo = {
  version: '0.1.0-test',
  platform: 'linux/amd64',
  dataDir: '/home/dev/.local/share/pi-desktop',
  commandShells: [
    { id: 'bash', label: 'Bash' },
    { id: 'zsh', label: 'Zsh' },
  ],
};

/**
 * The fake's stand-in for the backend's table of model families that accept images:
 * enough for tests to tell a known model from an unknown one, not the real list.
 */
export function fakeImagesByDefault(model: string): boolean {
  return /^(claude-|gpt-4o|gpt-4\.1|gpt-5)/.test(model);
}

/**
 * The fake's stand-in for provider.LimitsFor: Claude and gpt-4o are "known", the rest get
 * the API's defaults; the profile's own values win. Not the real table.
 */
export function fakeLimits(api: string, model: string, contextWindow: number, maxOutputTokens: number) {
  const known = /^claude-/.test(model) ? [200_000, 32_000] : /^gpt-4o/.test(model) ? [128_000, 16_384] : null;
  const fallback = api === 'anthropic' ? [200_000, 8_192] : api === 'openai' ? [128_000, 0] : [32_768, 0];
  const [w, o] = known ?? fallback;
  return {
    effectiveContextWindow: contextWindow > 0 ? contextWindow : w,
    effectiveMaxOutput: maxOutputTokens > 0 ? maxOutputTokens : o,
    limitsKnown: known !== null,
  };
}

/** A saved provider as listProviders returns it. */
export function provider(id: string, name: string, extra: Partial<ProviderProfile> = {}): ProviderProfile {
  return {
    id, name, api: 'anthropic', baseUrl: '', model: `${id}-model`, contextWindow: 0, maxOutputTokens: 0, thinking: false,
    imagesByDefault: false, isDefault: false, hasKey: true, keyStorage: 'keychain', createdAt: NOW - 1000, updatedAt: NOW - 1000,
    openaiApi: '', effectiveContextWindow: 200_000, effectiveMaxOutput: 8_192, limitsKnown: false, ...extra,
  };
}

/** An MCP tool as listServers returns it. */
export function mcpTool(server: string, name: string, extra: Partial<MCPTool> = {}): MCPTool {
  return { name, modelName: `mcp_${server}_${name}`, title: '', description: `The ${name} tool.`, enabled: true, schemaTokens: 120, ...extra };
}

/** An app stdio server, ready, with the tools echo and add unless extra says otherwise. */
export function mcpServer(id: string, extra: Partial<MCPServer> = {}): MCPServer {
  const tools = [mcpTool(id, 'echo'), mcpTool(id, 'add')];
  return {
    id, scope: 'user', projectId: '', source: 'app', transport: 'stdio', command: 'npx', args: ['-y', `@example/${id}`], env: [], cwd: '',
    url: '', headers: [], enabled: true, state: 'ready', errorCode: '', error: '', logTail: [], restarts: 0, trusted: true,
    definitionHash: `hash-${id}`, tools, omittedTools: 0, schemaTokens: tools.reduce((n, t) => n + t.schemaTokens, 0),
    connectTimeoutMs: 0, callTimeoutMs: 0, overridden: false, signingIn: false, ...extra,
  };
}

export const defaultSettings: Settings = {
  defaultPermissionMode: 'ask',
  defaultCommandShell: 'bash',
  inlineVisualizations: false,
  permissionTimeoutSeconds: 0,
  theme: 'system',
  envPassthrough: [],
  envDrop: [],
};

const names = [
  'info', 'chooseFolder', 'addProject', 'removeProject', 'listProjects', 'listSessions', 'getSession', 'initialSession',
  'createSession', 'renameSession', 'archiveSession', 'restoreSession', 'deleteSession', 'configureSession',
  'getSettings', 'updateSettings', 'onProjectsChanged', 'onSessionsChanged', 'onSettingsChanged', 'openExternalURL',
  'sendPrompt', 'stopSession', 'transcriptPage', 'pendingApprovals', 'delegations', 'delegationTranscript', 'resolveApproval', 'reviewChanges', 'rollbackChange',
  'tasks', 'taskOutput', 'stopTask', 'removeTask', 'onAgentEvent', 'onPermissionEvent', 'onTaskEvent',
  'projectIsGit', 'mergePreview', 'merge', 'onWorktreeSetup',
  'todos', 'onTodos',
  'activityLog',
  'pendingQuestions', 'answerQuestion', 'proposals', 'resolveProposal', 'onDecisionEvent',
  'listProviders', 'saveProvider', 'removeProvider', 'setDefaultProvider', 'testProvider', 'getSessionProvider',
  'setSessionProvider', 'onProvidersChanged',
  'workspaceFiles',
  'sendPromptWith', 'listMCPServers', 'saveMCPServer', 'removeMCPServer', 'setMCPServerEnabled', 'setMCPToolEnabled',
  'testMCPServer', 'trustMCPServer', 'restartMCPServer', 'signInMCPServer', 'mcpServerLog', 'onMCPServersChanged',
  'testMCPServerByID', 'cancelMCPSignIn',
  'listSubagents', 'saveSubagent', 'deleteSubagent',
  'listSlashCommands', 'expandSlashCommand', 'requestCompaction', 'listSkills',
  'listCommandRules', 'addCommandRule', 'updateCommandRule', 'removeCommandRule', 'checkCommand',
  'listProviderModels',
  'sessionCost', 'spendPerDay',
  'searchHistory', 'exportSession',
  'checkpoints', 'previewRestore', 'restoreCheckpoint', 'commandChanges', 'checkpointUsage', 'clearCheckpoints',
  'setWindowTitle',
  'pendingOpens', 'onOpenRequested',
  'listPlugins', 'stagePlugin', 'stagePluginFile', 'installStagedPlugin', 'discardStagedPlugin', 'consentPlugin', 'setPluginEnabled',
  'setPluginProject', 'removePlugin', 'pluginLog',
  'listArtifacts', 'listFolder', 'findFiles', 'viewFile', 'fileStampOf', 'revealFile', 'openFileInEditor',
  'previewState', 'closePreview', 'openPreviewInBrowser', 'onPreviewEvent',
  'attachFiles', 'attachData', 'chooseFiles', 'nativeFileDrop', 'onFileDrop',
] as const satisfies ReadonlyArray<keyof BridgeModule>;

/** The mocked module: stable vi.fn objects whose implementations resetFakeBridge installs. */
export const bridgeModule = Object.fromEntries(names.map((n) => [n, vi.fn()])) as unknown as FakeBridge;

type Listener = (payload: unknown) => void;

export interface FakeBackend {
  projects: Project[];
  sessions: Session[];
  settings: Settings;
  info: AppInfo;
  transcripts: Record<string, unknown>;
  approvals: Array<Record<string, unknown>>;
  delegations: Record<string, Array<Record<string, unknown>>>;
  reviews: ReviewChange[];
  gitProjects: string[];
  previews: Record<string, Record<string, unknown>>;
  initialSessionId: string;
  tasks: Array<Record<string, unknown>>;
  todos: Record<string, unknown[]>;
  audit: AuditRow[];
  questions: Array<Record<string, unknown>>;
  proposals: Array<Record<string, unknown>>;
  providers: ProviderProfile[];
  /** The saved provider keys by provider id (the UI must never see them). */
  providerKeys: Record<string, string>;
  sessionProviders: Record<string, string>;
  providerModels: string[] | null;
  files: Record<string, string[]>;
  mcpServers: MCPServer[];
  /** Saved secret env/header values by "<serverId>/<name>" (the UI must never see them). */
  mcpSecrets: Record<string, string>;
  subagents: FakeSubagent[];
  slashCommands: FakeSlashCommand[];
  skills: SkillEntry[];
  /** Sessions whose context compaction was asked for (requestCompaction). */
  compactions: string[];
  commandRules: CommandRule[];
  /** Checkpoints by session id, newest first; a restore adds its before-restore one. */
  checkpoints: Record<string, Checkpoint[]>;
  /** Every restore asked for, in order. */
  restores: Array<{ sessionId: string; checkpointId: string; overwrite: readonly string[] }>;
  checkpointUsage: Record<string, CheckpointUsage>;
  /** What later starts handed over and the window has not read (pendingOpens drains it). */
  opens: OpenRequest[];
  /** The installed plugins, as installs, consents, switches and removals left them. */
  plugins: Plugin[];
  /** Raw api.PreviewState by session id (BrowserPreview's panes). */
  browserPreviews: Record<string, Record<string, unknown>>;
  /** Sessions whose preview was opened in the system browser, in order. */
  previewsInBrowser: string[];
  /**
   * Emits a backend event to the subscribed UI, by its Wails name ("agent:text",
   * "permission:resolved", …) with the raw Go payload; the bridge's normalizers apply.
   */
  emit: (event: string, payload?: unknown) => void;
}

/** A raw review.Change as Go sends it. */
export function reviewChange(snapshotId: string, path: string, extra: Partial<ReviewChange> = {}): ReviewChange {
  return {
    snapshotId, messageId: 'm1', path, operation: 'write', status: 'modified', state: 'active', additions: 3, deletions: 1,
    hunks: [], binary: false, truncated: false, reversible: true, sessionId: 's1', toolCallId: 'c1', groupId: '', createdAt: NOW,
    ...extra,
  };
}

/** An audit row of session s1: a successful Read unless extra says otherwise. */
export function auditRow(id: number, extra: Partial<AuditRow> = {}): AuditRow {
  return {
    id, traceId: `trace-${id}`, sessionId: 's1', turnId: 't1', toolCallId: `c${id}`, tool: 'Read', delegate: '', mcpServer: '',
    argsPreview: `path="src/file${id}.ts"`, pathRoot: 'workspace', externalPath: false, permissionMode: 'ask', operatingMode: 'agent',
    decision: 'allow', prompted: false, permissionWaitMs: 0, durationMs: 3, overheadMs: 0, totalMs: 3, ok: true, errorCode: '',
    createdAt: NOW - 60_000 + id, commandRules: '', ...extra,
  };
}

/** A raw worktree.Preview as Go sends it: two commits, fast-forward, token "tok-1". */
export function mergePreviewRaw(sessionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    token: 'tok-1',
    projectBranch: 'main',
    projectHead: '1111111111111111111111111111111111111111',
    branch: `pi-desktop/${sessionId}`,
    worktreeHead: '2222222222222222222222222222222222222222',
    upToDate: false,
    fastForward: true,
    commits: [
      { hash: 'abcdef1234567890abcdef1234567890abcdef12', author: 'Pi', time: '2026-06-15T11:00:00Z', subject: 'Add login form' },
      { hash: '0123456789abcdef0123456789abcdef01234567', author: 'Pi', time: '2026-06-15T11:30:00Z', subject: 'Fix typo in README' },
    ],
    files: [
      { path: 'src/login.ts', added: 40, deleted: 2 },
      { path: 'README.md', added: 1, deleted: 1 },
    ],
    diff: 'diff --git a/README.md b/README.md\n-teh\n+the\n',
    ...extra,
  };
}

export function resetFakeBridge(seed: Seed = {}): FakeBackend {
  const db = {
    projects: [...(seed.projects ?? [])],
    sessions: [...(seed.sessions ?? [])],
    settings: { ...defaultSettings, ...seed.settings },
    info: { ...defaultInfo, ...seed.info },
    transcripts: { ...seed.transcripts },
    approvals: [...(seed.approvals ?? [])],
    delegations: { ...seed.delegations },
    reviews: [...(seed.reviews ?? [])],
    gitProjects: [...(seed.gitProjects ?? [])],
    previews: { ...seed.previews },
    initialSessionId: seed.initialSessionId ?? '',
    tasks: [...(seed.tasks ?? [])],
    todos: { ...seed.todos },
    audit: [...(seed.audit ?? [])],
    questions: (seed.questions ?? []).map((q) => ({ ...q })),
    proposals: (seed.proposals ?? []).map((p) => ({ ...p })),
    providers: (seed.providers ?? []).map((p) => ({ ...p })),
    providerKeys: Object.fromEntries((seed.providers ?? []).filter((p) => p.hasKey).map((p) => [p.id, `sk-saved-${p.id}`])),
    providerKeyStorage: seed.providerKeyStorage ?? 'keychain',
    environment: seed.environment ?? null,
    sessionProviders: { ...seed.sessionProviders },
    providerModels: seed.providerModels ?? null,
    files: { ...seed.files },
    mcpServers: (seed.mcpServers ?? []).map((x) => structuredClone(x)),
    mcpSecrets: Object.fromEntries(
      (seed.mcpServers ?? []).flatMap((x) => [...x.env, ...x.headers].filter((h) => h.secret && h.hasValue).map((h) => [`${x.id}/${h.name}`, `secret-${h.name}`])),
    ),
    mcpLogs: { ...seed.mcpLogs },
    subagents: (seed.subagents ?? []).map((x) => structuredClone(x)),
    slashCommands: (seed.slashCommands ?? []).map((x) => structuredClone(x)),
    skills: (seed.skills ?? []).map((x) => structuredClone(x)),
    skillProblems: structuredClone(seed.skillProblems ?? []),
    skillsLeftOut: seed.skillsLeftOut ?? 0,
    compactions: [] as string[],
    commandRules: (seed.commandRules ?? []).map((x) => structuredClone(x)),
    commandChecks: { ...seed.commandChecks },
    checkpoints: Object.fromEntries(Object.entries(seed.checkpoints ?? {}).map(([k, list]) => [k, list.map((x) => ({ ...x }))])),
    restorePlans: structuredClone(seed.restorePlans ?? {}),
    commandChanges: structuredClone(seed.commandChanges ?? {}),
    checkpointUsage: structuredClone(seed.checkpointUsage ?? {}),
    restores: [] as Array<{ sessionId: string; checkpointId: string; overwrite: readonly string[] }>,
    opens: [] as OpenRequest[],
    plugins: structuredClone(seed.plugins ?? []),
    pluginStages: structuredClone(seed.pluginStages ?? []),
    pluginLogs: { ...seed.pluginLogs },
  };
  let clock = NOW;
  let nextId = 1;
  const tick = () => ++clock;
  const listeners = new Map<string, Set<Listener>>();
  const on = (event: string, cb: Listener) => {
    const set = listeners.get(event) ?? new Set<Listener>();
    set.add(cb);
    listeners.set(event, set);
    return () => void set.delete(cb);
  };
  const find = (id: string): Session => {
    const s = db.sessions.find((x) => x.id === id);
    if (!s) throw new BridgeError('SESSION_NOT_FOUND', `session ${id} not found`);
    return s;
  };
  const update = (id: string, patch: Partial<Session>): Session => {
    const s = { ...find(id), ...patch };
    db.sessions = db.sessions.map((x) => (x.id === id ? s : x));
    return { ...s };
  };
  const b = bridgeModule;
  for (const n of names) b[n].mockReset();

  b.info.mockImplementation(async () => structuredClone(db.info));
  b.chooseFolder.mockImplementation(async () => '');
  b.addProject.mockImplementation(async (path) => {
    const existing = db.projects.find((p) => p.path === path);
    if (existing) return { ...existing };
    const name = path.split('/').filter(Boolean).pop() ?? path;
    const p: Project = { id: `fake-project-${nextId++}`, name, path, createdAt: tick(), updatedAt: clock, setupCommand: '' };
    db.projects.push(p);
    return { ...p };
  });
  b.removeProject.mockImplementation(async (id) => {
    db.projects = db.projects.filter((p) => p.id !== id);
    db.sessions = db.sessions.filter((s) => s.projectId !== id);
  });
  b.listProjects.mockImplementation(async () => [...db.projects].sort((x, y) => x.name.localeCompare(y.name)).map((p) => ({ ...p })));
  b.listSessions.mockImplementation(async (projectId, archived) =>
    db.sessions
      .filter((s) => s.projectId === projectId && (s.archivedAt > 0) === archived)
      .sort((x, y) => y.updatedAt - x.updatedAt)
      .map((s) => ({ ...s })),
  );
  b.getSession.mockImplementation(async (id) => ({ ...find(id) }));
  b.initialSession.mockImplementation(async () => (db.initialSessionId ? { ...find(db.initialSessionId) } : null));
  b.createSession.mockImplementation(async ({ projectId, title, isolated }) => {
    if (isolated && !db.gitProjects.includes(projectId)) throw new BridgeError('WORKTREE_NOT_GIT', 'the project is not a git repository');
    const s = session(`fake-session-${nextId++}`, projectId, title || 'New session', tick(), { isolated: Boolean(isolated) });
    db.sessions.push(s);
    return { ...s };
  });
  b.renameSession.mockImplementation(async (id, title) => update(id, { title, updatedAt: tick() }));
  b.archiveSession.mockImplementation(async (id) => update(id, { archivedAt: tick() }));
  b.restoreSession.mockImplementation(async (id) => update(id, { archivedAt: 0 }));
  b.deleteSession.mockImplementation(async (id) => {
    find(id);
    db.sessions = db.sessions.filter((s) => s.id !== id);
  });
  b.configureSession.mockImplementation(async (id, c) =>
    update(id, {
      ...(c.operatingMode ? { operatingMode: c.operatingMode } : {}),
      ...(c.permissionMode ? { permissionMode: c.permissionMode } : {}),
    }),
  );
  b.getSettings.mockImplementation(async () => ({ ...db.settings }));
  b.updateSettings.mockImplementation(async (s) => {
    db.settings = { ...s };
    return { ...db.settings };
  });
  const providerById = (id: string) => {
    const p = db.providers.find((x) => x.id === id);
    if (!p) throw new BridgeError('NOT_FOUND', `no saved provider has the id "${id}"`, { field: 'id' });
    return p;
  };
  const checkProvider = (input: { id: string; name: string; api: string; model: string; baseUrl: string }, key: string) => {
    if (input.model.trim() === '') throw new BridgeError('MODEL_NOT_CONFIGURED', 'enter the model id this provider should use', { field: 'model' });
    if (input.api === 'openai-compatible' && input.baseUrl.trim() === '') {
      throw new BridgeError('MODEL_NOT_CONFIGURED', 'an OpenAI-compatible provider needs its base URL', { field: 'baseUrl' });
    }
    if (input.api !== 'openai-compatible' && key === '') throw new BridgeError('MODEL_NOT_CONFIGURED', `No API key is set for ${input.api}.`);
  };
  b.listProviders.mockImplementation(async () => ({
    providers: db.providers.map((p) => ({ ...p })),
    keyStorage: db.providerKeyStorage,
    environment: db.providers.length === 0 && db.environment ? { ...db.environment } : null,
  }));
  b.saveProvider.mockImplementation(async (input, apiKey) => {
    const adding = input.id === '';
    const old = adding ? undefined : providerById(input.id);
    const key = apiKey !== '' ? apiKey : (db.providerKeys[input.id] ?? '');
    checkProvider(input, key);
    const name = input.name.trim() || input.model.trim();
    if (db.providers.some((p) => p.id !== input.id && p.name.toLowerCase() === name.toLowerCase())) {
      throw new BridgeError('CONFLICT', `a provider named "${name}" is already saved; choose another name`, { field: 'name' });
    }
    const id = adding ? `fake-provider-${nextId++}` : input.id;
    const isDefault = input.isDefault || db.providers.filter((p) => p.id !== id).length === 0 || Boolean(old?.isDefault);
    if (isDefault) db.providers = db.providers.map((p) => ({ ...p, isDefault: false }));
    if (key !== '') db.providerKeys[id] = key;
    const model = input.model.trim();
    const saved: ProviderProfile = {
      ...input, id, name, model, baseUrl: input.baseUrl.trim(), isDefault,
      imagesByDefault: old?.model === model ? old.imagesByDefault : fakeImagesByDefault(model),
      thinking: input.api === 'anthropic' && input.thinking,
      hasKey: key !== '', keyStorage: key !== '' ? (old?.hasKey && apiKey === '' ? old.keyStorage : db.providerKeyStorage) : '',
      createdAt: old?.createdAt ?? tick(), updatedAt: tick(),
      openaiApi: input.api === 'anthropic' ? '' : (input.openaiApi ?? '').trim().toLowerCase(),
      ...fakeLimits(input.api, model, input.contextWindow, input.maxOutputTokens),
    };
    db.providers = adding ? [...db.providers, saved] : db.providers.map((p) => (p.id === id ? saved : p));
    return { ...saved };
  });
  b.removeProvider.mockImplementation(async (id) => {
    const p = providerById(id);
    db.providers = db.providers.filter((x) => x.id !== id);
    delete db.providerKeys[id];
    for (const [s, chosen] of Object.entries(db.sessionProviders)) if (chosen === id) delete db.sessionProviders[s];
    if (p.isDefault && db.providers.length > 0) db.providers[0] = { ...db.providers[0], isDefault: true };
  });
  b.setDefaultProvider.mockImplementation(async (id) => {
    providerById(id);
    db.providers = db.providers.map((p) => ({ ...p, isDefault: p.id === id }));
  });
  b.testProvider.mockImplementation(async (input, apiKey) => {
    const key = apiKey !== '' ? apiKey : (db.providerKeys[input.id] ?? '');
    try {
      checkProvider(input, key);
    } catch (err) {
      const e = err as BridgeError;
      return { ok: false, code: e.code, message: e.message, durationMs: 0, models: [], modelsCode: '', modelsMessage: '' };
    }
    const listed = db.providerModels;
    return listed === null
      ? { ok: true, code: '', message: 'The model answered.', durationMs: 420, models: [], modelsCode: 'MODEL_LIST_UNAVAILABLE', modelsMessage: 'The model server does not list its models; type the model id.' }
      : { ok: true, code: '', message: 'The model answered.', durationMs: 420, models: listed.map((id) => ({ id, displayName: '' })), modelsCode: '', modelsMessage: '' };
  });
  b.listProviderModels.mockImplementation(async () => {
    const listed = db.providerModels;
    return listed === null
      ? { ok: false, code: 'MODEL_LIST_UNAVAILABLE', message: 'The model server does not list its models; type the model id.', models: [] }
      : { ok: true, code: '', message: `The server lists ${listed.length} models.`, models: listed.map((id) => ({ id, displayName: '' })) };
  });
  // Costs: nothing spent yet; tests give figures with mockResolvedValue.
  b.sessionCost.mockImplementation(async (id) => {
    find(id);
    return {
      usage: { sessionId: id, costUsd: null, unpriced: 0, responses: 0, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, contextTokens: 0 },
      contextWindow: 0,
    };
  });
  b.spendPerDay.mockImplementation(async () => []);
  b.searchHistory.mockImplementation(async () => []);
  b.exportSession.mockImplementation(async () => ({ path: '', bytes: 0 }));
  b.attachFiles.mockImplementation(async () => []);
  b.attachData.mockImplementation(async (_id, name, data) => ({
    path: `/data/scratch/${_id}/pasted/${name}`, name, size: Math.floor((data.length * 3) / 4), mediaType: 'application/octet-stream',
    sha256: '', width: 0, height: 0, imageBytes: 0, imageMediaType: '',
  }));
  b.chooseFiles.mockImplementation(async () => []);
  b.nativeFileDrop.mockImplementation(() => false);
  b.onFileDrop.mockImplementation(() => () => {});
  b.getSessionProvider.mockImplementation(async (id) => {
    find(id);
    return db.sessionProviders[id] ?? '';
  });
  b.setSessionProvider.mockImplementation(async (id, providerId) => {
    find(id);
    if (providerId === '') delete db.sessionProviders[id];
    else {
      providerById(providerId);
      db.sessionProviders[id] = providerId;
    }
  });
  b.onProvidersChanged.mockImplementation((cb) => on('providers:changed', () => cb()));
  b.onProjectsChanged.mockImplementation((cb) => on('projects:changed', () => cb()));
  b.onSessionsChanged.mockImplementation((cb) => on('sessions:changed', (p) => cb(p as SessionsChangedEvent)));
  b.onSettingsChanged.mockImplementation((cb) => on('settings:changed', (p) => cb(p as Settings)));
  b.openExternalURL.mockImplementation(() => {});
  b.pendingOpens.mockImplementation(async () => db.opens.splice(0).map((r) => structuredClone(r)));
  b.onOpenRequested.mockImplementation((cb) => on('app:open', () => cb()));
  b.setWindowTitle.mockImplementation((title) => {
    document.title = title;
  });

  const emit = (event: string, payload?: unknown) => {
    for (const cb of [...(listeners.get(event) ?? [])]) cb(payload);
  };
  const onAll = <T,>(events: readonly string[], parse: (name: string, p: unknown) => T | null, cb: (e: T) => void) => {
    const offs = events.map((name) =>
      on(name, (p) => {
        const e = parse(name, p);
        if (e) cb(e);
      }),
    );
    return () => offs.forEach((off) => off());
  };
  b.sendPrompt.mockImplementation(async (id) => void find(id));
  b.sendPromptWith.mockImplementation(async (id) => void find(id));
  installMCP(db, emit, on);
  const previews = installPreview(seed.browserPreviews ?? {}, emit, onAll);
  installSubagents(db);
  installSlashCommands(db, find);
  installCommandRules(db, tick);
  installCheckpoints(db, find, tick);
  installPlugins(db, tick);
  installFiles(seed, find);
  b.stopSession.mockImplementation(async () => 0);
  b.transcriptPage.mockImplementation(async (id, q) =>
    norm.transcriptPage(transcriptPageOf(db.transcripts[id] ?? { sessionId: id, turns: [], messages: [] }, q)),
  );
  b.delegations.mockImplementation(async (id) =>
    (db.delegations[id] ?? []).map((p) => norm.delegation((p as { delegation?: unknown }).delegation)),
  );
  b.delegationTranscript.mockImplementation(async (id, delegationId) => {
    const p = (db.delegations[id] ?? []).find((x) => norm.delegation((x as { delegation?: unknown }).delegation).id === delegationId);
    if (!p) throw new BridgeError('DELEGATE_NOT_FOUND', `this session has no delegation "${delegationId}"`);
    return norm.delegationPage(p);
  });
  b.pendingApprovals.mockImplementation(async (id) => db.approvals.filter((r) => r.sessionId === id).map(norm.approvalRequest));
  b.resolveApproval.mockImplementation(async (sessionId, id, outcome) => {
    const i = db.approvals.findIndex((r) => r.sessionId === sessionId && r.id === id);
    if (i < 0) throw new BridgeError('NOT_FOUND', `no pending approval ${id} in this session`);
    if (outcome.startsWith('allow-rule:')) {
      // As the broker: only a choice the card offered, resolved as allow-rule with its label.
      const choices = ((db.approvals[i] as { ruleChoices?: { id: string; label: string }[] }).ruleChoices) ?? [];
      const choice = choices.find((c) => `allow-rule:${c.id}` === outcome);
      if (!choice) throw new BridgeError('INVALID_ARGUMENT', `this card offers no rule choice ${outcome}`);
      db.approvals.splice(i, 1);
      emit('permission:resolved', { id, sessionId, outcome: 'allow-rule', rule: choice.label });
      return;
    }
    db.approvals.splice(i, 1);
    emit('permission:resolved', { id, sessionId, outcome });
  });
  b.reviewChanges.mockImplementation(async (sessionId, messageId) =>
    db.reviews.filter((c) => c.sessionId === sessionId && (messageId === '' || c.messageId === messageId)).map((c) => ({ ...c })),
  );
  b.rollbackChange.mockImplementation(async (sessionId, snapshotId) => {
    const c = db.reviews.find((x) => x.sessionId === sessionId && x.snapshotId === snapshotId);
    if (!c) throw new BridgeError('NOT_FOUND', `no review change ${snapshotId} in this session`);
    if (c.state === 'rolledBack') throw new BridgeError('CONFLICT', `the change to ${c.path} was already rolled back; nothing to do`);
    c.state = 'rolledBack';
    return [{ ...c }];
  });
  b.tasks.mockImplementation(async (id) => db.tasks.filter((t) => t.sessionId === id && t.removed !== true).map(norm.backgroundTask));
  b.todos.mockImplementation(async (id) => (db.todos[id] ?? []).map(norm.todo));
  b.onTodos.mockImplementation((cb) =>
    on('agent:todos', (p) => {
      const e = norm.todosEvent(p);
      if (e) cb(e);
    }),
  );
  b.taskOutput.mockImplementation(async (_s, id) => {
    throw new BridgeError('NOT_FOUND', `no task ${id}`);
  });
  b.stopTask.mockImplementation(async () => {});
  b.removeTask.mockImplementation(async () => {});
  b.onAgentEvent.mockImplementation((cb) => onAll(AGENT_EVENTS, norm.agentEvent, cb));
  b.onPermissionEvent.mockImplementation((cb) => onAll(PERMISSION_EVENTS, norm.permissionEvent, cb));
  b.onTaskEvent.mockImplementation((cb) => onAll(TASK_EVENTS, norm.taskEvent, cb));
  b.projectIsGit.mockImplementation(async (id) => db.gitProjects.includes(id));
  const preview = (id: string) => {
    if (!find(id).isolated) throw new BridgeError('INVALID_ARGUMENT', 'the session is not isolated');
    return norm.mergePreview(db.previews[id] ?? mergePreviewRaw(id));
  };
  b.mergePreview.mockImplementation(async (id) => preview(id));
  b.merge.mockImplementation(async (id, token) => {
    const pv = preview(id);
    if (token !== pv.token) throw new BridgeError('WORKTREE_STALE_PREVIEW', 'the repository changed since the preview');
    return norm.mergeResult({
      projectBranch: pv.projectBranch, from: pv.projectHead, to: pv.worktreeHead,
      upToDate: pv.upToDate, synced: false, fastForwarded: !pv.upToDate, commits: pv.commits.length,
    });
  });
  // Like backend/audit Query: newest first, cursor = the last id seen, summary on the first page.
  b.activityLog.mockImplementation(async (sessionId, filter, cursor = 0, limit = 0) => {
    const size = Math.min(limit || 50, 200);
    const all = db.audit.filter((r) => r.sessionId === sessionId);
    const matching = all
      .filter((r) =>
        (filter.tool === '' || r.tool === filter.tool) &&
        (filter.decision === '' || r.decision === filter.decision) &&
        (filter.result === '' || (filter.result === 'ok' ? r.ok : filter.result === 'failed' ? !r.ok : r.errorCode === filter.result)),
      )
      .sort((x, y) => y.id - x.id);
    const after = matching.filter((r) => cursor === 0 || r.id < cursor);
    const rows = after.slice(0, size);
    const distinct = (pick: (r: AuditRow) => string) => [...new Set(all.map(pick).filter(Boolean))].sort();
    return activityPage({
      rows,
      nextCursor: after.length > size ? rows[rows.length - 1]!.id : 0,
      summary: cursor === 0
        ? { matching: matching.length, tools: distinct((r) => r.tool), decisions: distinct((r) => r.decision), errorCodes: distinct((r) => r.errorCode) }
        : undefined,
    });
  });
  b.onWorktreeSetup.mockImplementation((cb) =>
    on('worktree:setup', (p) => {
      const e = norm.worktreeSetupEvent(p);
      if (e) cb(e);
    }),
  );
  // Substring match, shortest first: close enough to the backend's ranking for UI tests.
  b.workspaceFiles.mockImplementation(async (sessionId, query, limit = 0) => {
    find(sessionId);
    const q = query.toLowerCase();
    const hits = (db.files[sessionId] ?? []).filter((f) => f.toLowerCase().includes(q)).sort((x, y) => x.length - y.length || x.localeCompare(y));
    const n = limit > 0 ? limit : 50;
    return { files: hits.slice(0, n), truncated: hits.length > n, indexing: false };
  });

  b.pendingQuestions.mockImplementation(async (id) =>
    db.questions.filter((q) => q.sessionId === id && q.state === 'pending').map(norm.questionRequest),
  );
  b.answerQuestion.mockImplementation(async (sessionId, questionId, answers) => {
    const q = db.questions.find((x) => x.sessionId === sessionId && x.questionId === questionId && x.state === 'pending');
    if (!q) throw new BridgeError('NOT_FOUND', 'this question is no longer waiting: it was answered, or its turn was stopped');
    const n = norm.questionRequest(q).questions.length;
    q.state = 'answered';
    q.answers = Array.from({ length: n }, (_, i) => answers[i] ?? { selected: [], text: '' });
    emit('agent:question', { ...q });
  });
  b.proposals.mockImplementation(async (id) => db.proposals.filter((p) => p.sessionId === id).map(norm.proposal));
  b.resolveProposal.mockImplementation(async (d) => {
    const p = db.proposals.find((x) => x.proposalId === d.proposalId && x.sessionId === d.sessionId);
    if (p?.state === 'interrupted') {
      throw new BridgeError('PLAN_APPROVAL_INTERRUPTED', `PI-Desktop stopped while this ${String(p.kind)} waited for a decision`, { proposalId: d.proposalId });
    }
    if (!p || p.state !== 'pending' || p.turnId !== d.turnId || p.version !== d.version) {
      throw new BridgeError('PLAN_APPROVAL_STALE', 'this decision is out of date and was not applied; reload the session to see what is waiting', { proposalId: d.proposalId });
    }
    if (d.approve && !d.permissionMode) throw new BridgeError('INVALID_ARGUMENT', 'approving needs the permission mode to continue with', { field: 'permissionMode' });
    Object.assign(p, { state: d.approve ? 'approved' : 'rejected', feedback: d.feedback ?? '', resolvedAt: tick() }, d.approve ? { permissionMode: d.permissionMode } : {});
    if (d.approve && db.sessions.some((x) => x.id === d.sessionId)) {
      const s = update(d.sessionId, { operatingMode: 'agent', permissionMode: d.permissionMode ?? 'ask' });
      emit('sessions:changed', { sessionId: s.id, projectId: s.projectId });
    }
    emit('agent:proposal', { ...p });
    return norm.proposal(p);
  });
  b.onDecisionEvent.mockImplementation((cb) => onAll(DECISION_EVENTS, norm.decisionEvent, cb));

  return {
    get projects() {
      return db.projects;
    },
    get providerModels() {
      return db.providerModels;
    },
    set providerModels(ids: string[] | null) {
      db.providerModels = ids;
    },
    get sessions() {
      return db.sessions;
    },
    get settings() {
      return db.settings;
    },
    get info() {
      return db.info;
    },
    get transcripts() {
      return db.transcripts;
    },
    get approvals() {
      return db.approvals;
    },
    get delegations() {
      return db.delegations;
    },
    get reviews() {
      return db.reviews;
    },
    get gitProjects() {
      return db.gitProjects;
    },
    get previews() {
      return db.previews;
    },
    get initialSessionId() {
      return db.initialSessionId;
    },
    get opens() {
      return db.opens;
    },
    get tasks() {
      return db.tasks;
    },
    get todos() {
      return db.todos;
    },
    get audit() {
      return db.audit;
    },
    get questions() {
      return db.questions;
    },
    get proposals() {
      return db.proposals;
    },
    get providers() {
      return db.providers;
    },
    get providerKeys() {
      return db.providerKeys;
    },
    get sessionProviders() {
      return db.sessionProviders;
    },
    get files() {
      return db.files;
    },
    get mcpServers() {
      return db.mcpServers;
    },
    get mcpSecrets() {
      return db.mcpSecrets;
    },
    get subagents() {
      return db.subagents;
    },
    get slashCommands() {
      return db.slashCommands;
    },
    get skills() {
      return db.skills;
    },
    get compactions() {
      return db.compactions;
    },
    get commandRules() {
      return db.commandRules;
    },
    get checkpoints() {
      return db.checkpoints;
    },
    get restores() {
      return db.restores;
    },
    get checkpointUsage() {
      return db.checkpointUsage;
    },
    get plugins() {
      return db.plugins;
    },
    get browserPreviews() {
      return previews.states;
    },
    get previewsInBrowser() {
      return previews.inBrowser;
    },
    emit,
  };
}

/** A raw pending agent.QuestionEvent as Go sends it. */
export function questionRaw(questionId: string, sessionId: string, questions: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { sessionId, turnId: 't1', toolCallId: `call-${questionId}`, questionId, questions, state: 'pending', createdAt: NOW - 1000, ...extra };
}

/** A raw pending agent.Proposal (a plan, version 1) as Go sends it. */
export function proposalRaw(proposalId: string, sessionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    proposalId, sessionId, turnId: 't1', toolCallId: `call-${proposalId}`, kind: 'plan', version: 1, title: 'Add a login form',
    question: 'Proceed with this plan?', markdown: '# Login form\n\n1. Add `src/login.ts`\n2. Wire it into the router\n',
    path: '.pi/plan/add-a-login-form-1.md', sha256: 'ab12', size: 60, state: 'pending', createdAt: NOW - 1000, ...extra,
  };
}

/**
 * The Go pager (backend/agent/page.go) over a raw stored transcript: whole turns in
 * creation order, newest first until `limit` messages; `before` and `since` name turns
 * of this transcript, else NOT_FOUND. Messages of turns the transcript does not list
 * come with the newest page, so seeds without turns still show.
 */
export function transcriptPageOf(raw: unknown, q: Bridge.TranscriptPageQuery): Record<string, unknown> {
  const t = raw as { sessionId: string; turns?: Array<{ id: string; createdAt?: number }> | null; messages?: Array<{ turnId: string }> | null };
  const turns = [...(t.turns ?? [])].map((x, i) => ({ x, i })).sort((a, b) => (a.x.createdAt ?? 0) - (b.x.createdAt ?? 0) || a.i - b.i).map((e) => e.x);
  const messages = t.messages ?? [];
  const count = (id: string) => messages.filter((m) => m.turnId === id).length;
  const find = (id: string) => {
    const i = turns.findIndex((x) => x.id === id);
    if (i < 0) throw new BridgeError('NOT_FOUND', `turn ${id} is not part of session ${t.sessionId}; reload the session`);
    return i;
  };
  let from: number;
  let to = turns.length;
  if (q.since) from = find(q.since);
  else {
    if (q.before) to = find(q.before);
    from = to;
    for (let n = 0; from > 0 && n < Math.max(q.limit, 1); ) n += Math.max(count(turns[--from]!.id), 1);
  }
  const page = new Set(turns.slice(from, to).map((x) => x.id));
  const listed = new Set(turns.map((x) => x.id));
  const newest = to === turns.length;
  return {
    sessionId: t.sessionId,
    turns: turns.slice(from, to),
    messages: messages.filter((m) => page.has(m.turnId) || (newest && !listed.has(m.turnId))),
    more: from > 0,
  };
}

const WORKING_TOOLS = ['Read', 'Glob', 'Grep', 'BrowserPreview', 'Bash', 'Edit', 'Write'];

/** The subagent calls, like hostcore's: the builtin and user rows in every list, a project's with its project. */
function installSubagents(db: { subagents: FakeSubagent[]; projects: Project[] }) {
  const b = bridgeModule;
  const strip = ({ projectId: _p, ...row }: FakeSubagent): Subagent => structuredClone(row);
  b.listSubagents.mockImplementation(async (projectId) => ({
    subagents: db.subagents.filter((x) => x.source !== 'project' || (projectId !== '' && x.projectId === projectId)).map(strip),
    userDir: '/data/subagents',
    projectRoot: db.projects.find((p) => p.id === projectId)?.path ?? '',
    limit: 16,
    workingTools: [...WORKING_TOOLS],
  }));
  b.saveSubagent.mockImplementation(async (input) => {
    if (!/^[a-z0-9][a-z0-9-]*$/.test(input.name) || input.name.length > 64) {
      throw new BridgeError('SUBAGENT_INVALID', `the name "${input.name}" is not valid: use lowercase letters, digits and - (at most 64)`, { field: 'name' });
    }
    if (input.description.trim() === '') throw new BridgeError('SUBAGENT_INVALID', 'no description: add description: saying when the agent should use this subagent');
    if (input.prompt.trim() === '') throw new BridgeError('SUBAGENT_INVALID', "no prompt: write the delegate's instructions below the front matter");
    const unknown = input.tools.filter((t) => t !== '*' && t !== 'inherit' && !WORKING_TOOLS.includes(t));
    if (unknown.length > 0) throw new BridgeError('SUBAGENT_INVALID', `dropped unknown tools: ${unknown.join(', ')}`);
    const mine = (name: string) => db.subagents.find((x) => x.editable && x.name === name);
    if (mine(input.name) && input.replaces !== input.name) {
      throw new BridgeError('CONFLICT', `a subagent named "${input.name}" already exists`, { field: 'name' });
    }
    if (input.replaces !== '' && !mine(input.replaces)) throw new BridgeError('NOT_FOUND', `no subagent named "${input.replaces}" to edit`);
    const named = input.tools.includes('*') ? WORKING_TOOLS : WORKING_TOOLS.filter((t) => input.tools.includes(t));
    const saved = subagentRow(input.name, {
      description: input.description.trim(), toolsWritten: [...input.tools], inherit: input.tools.includes('inherit'),
      tools: named.length === 0 && !input.tools.includes('inherit') ? ['Read', 'Glob', 'Grep'] : named,
      model: input.model, permission: input.permission, maxTurns: input.maxTurns || 24, prompt: input.prompt.trim(),
    });
    db.subagents = [...db.subagents.filter((x) => !(x.editable && x.name === input.replaces)), saved];
    return strip(saved);
  });
  b.deleteSubagent.mockImplementation(async (name) => {
    const x = db.subagents.find((r) => r.editable && r.name === name);
    if (!x) throw new BridgeError('NOT_FOUND', `no subagent named "${name}"`);
    db.subagents = db.subagents.filter((r) => r !== x);
  });
}

/** Programs an allow rule can never apply to (cmdrule's neverAllowed, in part). */
const ALWAYS_ASK = ['sudo', 'doas', 'su', 'eval', 'exec', 'source', '.', 'xargs', 'sh', 'bash', 'zsh'];

/** The command rule calls, like hostcore's: validated as cmdrule validates, an equal rule added twice returned. */
function installCommandRules(
  db: { commandRules: CommandRule[]; commandChecks: Record<string, unknown>; projects: Project[]; sessions: Session[] },
  tick: () => number,
) {
  const b = bridgeModule;
  const invalid = (field: string, message: string) => new BridgeError('RULE_INVALID', message, { field });
  const check = (input: CommandRuleInput) => {
    if (!['allow', 'ask', 'deny'].includes(input.decision)) throw invalid('decision', `the decision "${input.decision}" is not allow, ask or deny`);
    if (input.scope === 'project' && (input.projectId === '' || input.sessionId !== '')) throw invalid('scope', 'a project rule needs its project (and no session); pass --workspace DIR');
    if (input.scope === 'session' && (input.sessionId === '' || input.projectId !== '')) throw invalid('scope', 'a session rule needs its session (and no project)');
    if (input.scope === 'global' && (input.projectId !== '' || input.sessionId !== '')) throw invalid('scope', 'a global rule names no project or session');
    if (input.program === '') throw invalid('program', 'name the program the rule is about, e.g. git');
    for (const w of [input.program, ...input.args]) {
      if (w === '') throw invalid('args', 'a rule word is empty; write each word once, without quotes');
      if (/\s/.test(w)) throw invalid('args', `the rule word "${w}" holds a space or control character; give each word separately`);
    }
    if (input.program.startsWith('-')) throw invalid('program', `the program "${input.program}" looks like an option; a rule starts with the program's name`);
    if (input.note.trim().length > 500) throw invalid('note', 'the note is longer than 500 bytes; shorten it');
    if (input.decision === 'allow' && ALWAYS_ASK.includes(input.program)) {
      throw invalid('program', `${input.program} always asks; an allow rule for it would never apply — allow the commands it runs instead`);
    }
    if (input.scope === 'project' && !db.projects.some((p) => p.id === input.projectId)) {
      throw new BridgeError('PROJECT_NOT_FOUND', `no project ${input.projectId}; add the rule to an existing one, or as a global rule`);
    }
    if (input.scope === 'session' && !db.sessions.some((x) => x.id === input.sessionId)) {
      throw new BridgeError('SESSION_NOT_FOUND', `no session ${input.sessionId}; add the rule to an existing one, or as a global rule`);
    }
  };
  const same = (r: CommandRule, x: CommandRuleInput) =>
    r.decision === x.decision && r.program === x.program && r.args.join(' ') === x.args.join(' ') && r.scope === x.scope &&
    r.projectId === x.projectId && r.sessionId === x.sessionId;
  const saved = (id: string, x: CommandRuleInput, createdAt: number): CommandRule =>
    commandRuleRow(id, '', { ...x, program: x.program, args: [...x.args], note: x.note.trim(), createdAt });
  const notFound = (id: string) => new BridgeError('RULE_NOT_FOUND', `no command rule has the id "${id}"; list them again (Settings → Permissions, or pi-desktop rules list)`, { id });
  b.listCommandRules.mockImplementation(async () =>
    db.commandRules.map((r) => {
      const p = db.projects.find((x) => x.id === r.projectId);
      const s = db.sessions.find((x) => x.id === r.sessionId);
      return { ...structuredClone(r), projectName: p?.name ?? '', projectPath: p?.path ?? '', sessionTitle: s?.title ?? '' };
    }),
  );
  b.addCommandRule.mockImplementation(async (input) => {
    check(input);
    const equal = db.commandRules.find((r) => same(r, input));
    if (equal) return structuredClone(equal);
    const r = saved(`rule-${tick()}`, input, tick());
    db.commandRules = [...db.commandRules, r];
    return structuredClone(r);
  });
  b.updateCommandRule.mockImplementation(async (id, input) => {
    const old = db.commandRules.find((r) => r.id === id);
    if (!old) throw notFound(id);
    check(input);
    const equal = db.commandRules.find((r) => r.id !== id && same(r, input));
    if (equal) throw new BridgeError('CONFLICT', `the rule ${equal.decision} ${[equal.program, ...equal.args].join(' ')} (${equal.scope}) is saved already; remove this one instead`, { id: equal.id });
    const r = saved(id, input, old.createdAt);
    db.commandRules = db.commandRules.map((x) => (x.id === id ? r : x));
    return structuredClone(r);
  });
  b.removeCommandRule.mockImplementation(async (id) => {
    if (!db.commandRules.some((r) => r.id === id)) throw notFound(id);
    db.commandRules = db.commandRules.filter((r) => r.id !== id);
  });
  b.checkCommand.mockImplementation(async (input) => {
    if (input.command === '') throw new BridgeError('INVALID_ARGUMENT', 'paste a command to check', { field: 'command' });
    const raw = db.commandChecks[input.command] ?? commandCheckRaw('ask', [[input.command, 'ask', 'no rule allows it']]);
    return commandCheck(raw);
  });
}

interface MCPDb {
  mcpServers: MCPServer[];
  mcpSecrets: Record<string, string>;
  mcpLogs: Record<string, string>;
}

/**
 * The MCP calls, like hostcore's: app servers in every list, then the project's own; an app server
 * that a trusted project server of its id replaces is marked overridden, its tools without a model name.
 * A call with a projectId addresses that project's server, without one the app's.
 */
function installMCP(db: MCPDb, emit: (event: string, payload?: unknown) => void, on: (event: string, cb: Listener) => () => void) {
  const b = bridgeModule;
  const listOf = (projectId: string) => {
    const own = projectId === '' ? [] : db.mcpServers.filter((x) => x.scope === 'project' && x.projectId === projectId);
    const apps = db.mcpServers.filter((x) => x.scope === 'user');
    const overridden = (x: MCPServer) => own.some((o) => o.id === x.id && o.trusted && o.definitionHash !== '');
    return [
      ...apps.map((x) => (overridden(x) ? { ...x, overridden: true, tools: x.tools.map((t) => ({ ...t, modelName: '' })) } : { ...x, overridden: false })),
      ...own,
    ];
  };
  const find = (projectId: string, id: string) => {
    const x = db.mcpServers.find((s) => s.id === id && (projectId === '' ? s.scope === 'user' : s.scope === 'project' && s.projectId === projectId));
    if (!x) throw new BridgeError('NOT_FOUND', `no MCP server "${id}"; reload the list`);
    return x;
  };
  const changed = (x: MCPServer) => emit('mcp:changed', { projectId: x.projectId, serverId: x.id } satisfies MCPServersChanged);
  const check = (input: Bridge.MCPServerInput) => {
    if (!/^[A-Za-z0-9_-]+$/.test(input.id)) throw new BridgeError('INVALID_ARGUMENT', 'the name may hold letters, digits, _ and - only', { field: 'id' });
    if (input.transport === 'stdio' && input.command.trim() === '') throw new BridgeError('INVALID_ARGUMENT', 'enter the command that starts the server', { field: 'command' });
    if (input.transport !== 'stdio' && !/^https?:\/\//.test(input.url)) throw new BridgeError('INVALID_ARGUMENT', 'enter an http(s) URL', { field: 'url' });
  };
  /** Stores secret values apart and masks them, as the keychain does. */
  const keep = (id: string, rows: Bridge.MCPHeader[]) =>
    rows.map((h) => {
      if (!h.secret) return { ...h, hasValue: h.value !== '' };
      const k = `${id}/${h.name}`;
      if (h.value !== '') db.mcpSecrets[k] = h.value;
      return { name: h.name, value: '', secret: true, hasValue: k in db.mcpSecrets };
    });
  b.listMCPServers.mockImplementation(async (projectId) => listOf(projectId).map((x) => structuredClone(x)));
  b.saveMCPServer.mockImplementation(async (input) => {
    check(input);
    const old = db.mcpServers.find((x) => x.scope === 'user' && x.id === input.id);
    const saved = mcpServer(input.id, {
      ...old, transport: input.transport, command: input.command, args: [...input.args], env: keep(input.id, input.env), cwd: input.cwd,
      url: input.url, headers: keep(input.id, input.headers), enabled: input.enabled, state: input.enabled ? 'ready' : 'disabled',
      connectTimeoutMs: input.connectTimeoutMs, callTimeoutMs: input.callTimeoutMs,
    });
    db.mcpServers = old ? db.mcpServers.map((x) => (x === old ? saved : x)) : [...db.mcpServers, saved];
    changed(saved);
    return structuredClone(saved);
  });
  b.removeMCPServer.mockImplementation(async (id) => {
    const x = find('', id);
    db.mcpServers = db.mcpServers.filter((s) => s !== x);
    changed(x);
  });
  b.setMCPServerEnabled.mockImplementation(async (projectId, id, enabled) => {
    const x = find(projectId, id);
    x.enabled = enabled;
    x.state = !enabled ? 'disabled' : x.trusted ? 'ready' : 'untrusted';
    changed(x);
  });
  b.setMCPToolEnabled.mockImplementation(async (projectId, id, tool, enabled) => {
    const x = find(projectId, id);
    const t = x.tools.find((t) => t.name === tool);
    if (!t) throw new BridgeError('TOOL_NOT_FOUND', `${id} has no tool "${tool}"`);
    t.enabled = enabled;
    changed(x);
  });
  b.testMCPServer.mockImplementation(async (input) => {
    check(input);
    return { ok: true, errorCode: '', error: '', tools: [mcpTool(input.id, 'echo'), mcpTool(input.id, 'add')], logTail: [] };
  });
  b.testMCPServerByID.mockImplementation(async (projectId, id) => {
    const x = find(projectId, id);
    if (!x.trusted) throw new BridgeError('MCP_SERVER_UNAVAILABLE', `MCP server "${id}" is not trusted, so it is never started; trust it first`);
    return { ok: true, errorCode: '', error: '', tools: x.tools.map((t) => ({ ...t })), logTail: [] };
  });
  b.cancelMCPSignIn.mockImplementation(async () => {});
  b.trustMCPServer.mockImplementation(async (projectId, id, hash) => {
    const x = find(projectId, id);
    if (x.definitionHash !== hash) throw new BridgeError('CONFLICT', 'the definition changed since you saw it; review it again');
    Object.assign(x, { trusted: true, state: x.enabled ? 'ready' : 'disabled' });
    changed(x);
  });
  b.restartMCPServer.mockImplementation(async (projectId, id) => {
    const x = find(projectId, id);
    Object.assign(x, { state: 'ready', error: '', errorCode: '', logTail: [] });
    changed(x);
  });
  b.signInMCPServer.mockImplementation(async (projectId, id) => {
    const x = find(projectId, id);
    Object.assign(x, { state: 'ready', error: '', errorCode: '' });
    changed(x);
  });
  b.mcpServerLog.mockImplementation(async (projectId, id) => db.mcpLogs[`${find(projectId, id).projectId}/${id}`] ?? '');
  b.onMCPServersChanged.mockImplementation((cb) => on('mcp:changed', (p) => cb(norm.mcpServersChanged(p))));
}

/**
 * The slash command calls, like hostcore's: every row listed, an effective one expanded
 * ($ARGUMENTS, and $1…$9 split on spaces: enough for the UI's tests; the real quoting is
 * tested in Go), requestCompaction recorded per session.
 */
function installSlashCommands(db: { slashCommands: FakeSlashCommand[]; skills: SkillEntry[]; skillProblems: SkillList['problems']; skillsLeftOut: number; compactions: string[] }, find: (id: string) => Session) {
  const b = bridgeModule;
  b.listSlashCommands.mockImplementation(async (sessionId) => {
    find(sessionId);
    return { commands: db.slashCommands.map(({ template: _t, ...row }) => structuredClone(row)) };
  });
  b.expandSlashCommand.mockImplementation(async (sessionId, name, args) => {
    find(sessionId);
    const cmd = db.slashCommands.find((c) => c.name === name && c.state === 'effective');
    if (!cmd) throw new BridgeError('SLASH_COMMAND_NOT_FOUND', `no usable custom command /${name} for this session`, { name });
    const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
    const prompt = cmd.template.replace(/\$ARGUMENTS/g, args.trim()).replace(/\$([1-9])/g, (_m, n: string) => words[Number(n) - 1] ?? '');
    return { name, prompt };
  });
  b.listSkills.mockImplementation(async () =>
    skillList({ skills: db.skills.map((x) => structuredClone(x)), problems: structuredClone(db.skillProblems), listed: db.skills.length - db.skillsLeftOut, leftOut: db.skillsLeftOut }),
  );
  b.requestCompaction.mockImplementation(async (sessionId) => {
    find(sessionId);
    db.compactions.push(sessionId);
  });
}

/** A checkpoint of session s1 as Go sends it: a captured after-bash one of turn t1 unless extra says otherwise. */
export function checkpointRow(id: string, extra: Partial<Checkpoint> = {}): Checkpoint {
  return {
    id, sessionId: 's1', turnId: 't1', messageId: 'm1', toolCallId: 'c1', kind: 'after-bash', workspace: '/work/project',
    captured: true, reason: '', filesChanged: 1, createdAt: NOW, ...extra,
  };
}

/** A file of a restore plan: a modification without conflict unless extra says otherwise. */
export function restoreFile(path: string, extra: Partial<RestoreFile> = {}): RestoreFile {
  return {
    path, action: 'modify', modeNow: '100644', modeThen: '100644', conflict: false, skipped: '', diff: '', note: '',
    additions: 0, deletions: 0, ...extra,
  };
}

/** A file a command changed: modified unless extra says otherwise. */
export function commandFile(path: string, extra: Partial<CommandFile> = {}): CommandFile {
  return { path, status: 'modified', modeBefore: '100644', modeAfter: '100644', diff: '', note: '', additions: 0, deletions: 0, ...extra };
}

/** One Bash call's changes as Go sends them: captured, in message m1, unless extra says otherwise. */
export function commandChangeRow(checkpointId: string, files: CommandFile[], extra: Partial<CommandChange> = {}): CommandChange {
  return {
    checkpointId, turnId: 't1', messageId: 'm1', toolCallId: 'c1', captured: true, reason: '', createdAt: NOW, files,
    since: 'cp-before', truncated: false, ...extra,
  };
}

/**
 * The checkpoint calls, like hostcore's: a preview lists the seeded plan; a restore keeps
 * conflicts except the paths in overwrite and records a before-restore checkpoint whose plan undoes
 * what it restored; a clear drops the project's checkpoints and reports what they took.
 */
function installCheckpoints(
  db: {
    checkpoints: Record<string, Checkpoint[]>;
    restorePlans: Record<string, RestoreFile[]>;
    commandChanges: Record<string, CommandChange[]>;
    checkpointUsage: Record<string, CheckpointUsage>;
    restores: Array<{ sessionId: string; checkpointId: string; overwrite: readonly string[] }>;
    projects: Project[];
    sessions: Session[];
  },
  find: (id: string) => Session,
  tick: () => number,
) {
  const b = bridgeModule;
  const get = (sessionId: string, id: string) => {
    find(sessionId);
    const cp = (db.checkpoints[sessionId] ?? []).find((x) => x.id === id);
    if (!cp) throw new BridgeError('CHECKPOINT_NOT_FOUND', `the session has no checkpoint "${id}"`, { checkpointId: id });
    if (!cp.captured) throw new BridgeError('CHECKPOINT_NOT_CAPTURED', `checkpoint ${id} holds no snapshot (${cp.reason}); choose an earlier one`, { checkpointId: id });
    return cp;
  };
  b.checkpoints.mockImplementation(async (id) => {
    find(id);
    return (db.checkpoints[id] ?? []).map((x) => ({ ...x }));
  });
  b.previewRestore.mockImplementation(async (sessionId, id) => {
    const cp = get(sessionId, id);
    const files = structuredClone(db.restorePlans[id] ?? []);
    return { checkpoint: { ...cp }, files, conflicts: files.filter((f) => f.conflict).length };
  });
  b.restoreCheckpoint.mockImplementation(async (sessionId, id, overwrite) => {
    const cp = get(sessionId, id);
    db.restores.push({ sessionId, checkpointId: id, overwrite: [...overwrite] });
    const files = structuredClone(db.restorePlans[id] ?? []);
    const skipped = files.filter((f) => f.skipped !== '' || (f.conflict && !overwrite.includes(f.path))).map((f) => ({ ...f, skipped: f.skipped || 'changed after the session\'s latest checkpoint by someone other than the agent; kept' }));
    const restored = files.filter((f) => !skipped.some((s) => s.path === f.path));
    const undo: Record<string, RestoreFile['action']> = { create: 'delete', delete: 'create', modify: 'modify' };
    const before = checkpointRow(`cp-before-${tick()}`, { sessionId, turnId: '', messageId: '', toolCallId: '', kind: 'before-restore', createdAt: tick() });
    db.checkpoints[sessionId] = [before, ...(db.checkpoints[sessionId] ?? [])];
    db.restorePlans[before.id] = restored.map((f) => ({ ...f, action: undo[f.action] ?? f.action, conflict: false, diff: '' }));
    return { checkpoint: { ...cp }, before: { ...before }, restored, skipped };
  });
  b.commandChanges.mockImplementation(async (id) => {
    find(id);
    return structuredClone(db.commandChanges[id] ?? []);
  });
  b.checkpointUsage.mockImplementation(async () =>
    [...db.projects]
      .sort((x, y) => x.name.localeCompare(y.name))
      .map((p) => ({ ...(db.checkpointUsage[p.id] ?? { projectId: p.id, bytes: 0, checkpoints: 0, shadows: 0 }) })),
  );
  b.clearCheckpoints.mockImplementation(async (projectId) => {
    if (!db.projects.some((p) => p.id === projectId)) throw new BridgeError('PROJECT_NOT_FOUND', `project ${projectId} not found`);
    const freed = db.checkpointUsage[projectId] ?? { projectId, bytes: 0, checkpoints: 0, shadows: 0 };
    db.checkpointUsage[projectId] = { projectId, bytes: 0, checkpoints: 0, shadows: 0 };
    for (const s of db.sessions.filter((x) => x.projectId === projectId)) delete db.checkpoints[s.id];
    return { ...freed };
  });
}

/** A plugin's summary as its consent card shows it: one low-risk plan-safe tool and one high-risk tool. */
export function pluginSummary(id: string, extra: Partial<PluginSummary> = {}): PluginSummary {
  const safe = id.replace(/[^A-Za-z0-9]/g, '_');
  return {
    id, name: `Plugin ${id}`, version: '1.0.0', description: `The ${id} plugin.`, author: 'Acme', permissions: ['agent.tool.register'],
    command: 'bin/server', args: [],
    tools: [
      { name: 'inspect', modelName: `plugin_${safe}_inspect`, risk: 'low', planSafeActions: ['list', 'read'], description: 'Inspect a target.' },
      { name: 'deploy', modelName: `plugin_${safe}_deploy`, risk: 'high', planSafeActions: [], description: 'Deploy a target.' },
    ],
    skills: ['skills/hello/SKILL.md'], subagents: [], commands: ['commands/lint.md'],
    mcpServers: [{ id: 'acme-docs', transport: 'stdio', command: 'acme-docs', args: ['--stdio'], url: '' }],
    warnings: [], files: 4, hash: `sha256:${id}-1.0.0`, ...extra,
  };
}

/** An installed plugin row. */
export function pluginRow(id: string, extra: Partial<Plugin> = {}, summary: Partial<PluginSummary> = {}): Plugin {
  const s = pluginSummary(id, summary);
  return { summary: s, path: `/data/plugins/${id}/${s.version}`, enabled: true, consented: true, changed: false, running: false, projects: [], ...extra };
}

/** Plugins: staging hands out the seeded summaries in turn; install keeps a consent only to the same hash. */
function installPlugins(
  db: { plugins: Plugin[]; pluginStages: PluginSummary[]; pluginLogs: Record<string, string>; projects: Project[] },
  tick: () => number,
) {
  const b = bridgeModule;
  const staged = new Map<string, PluginSummary>();
  const get = (id: string) => {
    const p = db.plugins.find((x) => x.summary.id === id);
    if (!p) throw new BridgeError('PLUGIN_NOT_FOUND', `no plugin "${id}" is installed`, { plugin: id });
    return p;
  };
  b.listPlugins.mockImplementation(async () => structuredClone(db.plugins));
  b.stagePluginFile.mockImplementation(async () => b.stagePlugin('file'));
  b.stagePlugin.mockImplementation(async (): Promise<PluginStaged> => {
    const summary = db.pluginStages.shift();
    if (!summary) return { token: '', cancelled: true, summary: pluginSummary(''), installedVersion: '', unchanged: false };
    const token = `stage-${tick()}`;
    staged.set(token, summary);
    const was = db.plugins.find((x) => x.summary.id === summary.id);
    return { token, cancelled: false, summary: structuredClone(summary), installedVersion: was?.summary.version ?? '', unchanged: !!was && was.consented && was.summary.hash === summary.hash };
  });
  b.installStagedPlugin.mockImplementation(async (token, consent) => {
    const summary = staged.get(token);
    if (!summary) throw new BridgeError('NOT_FOUND', 'that plugin is no longer staged; choose the file or folder again');
    staged.delete(token);
    const was = db.plugins.find((x) => x.summary.id === summary.id);
    const row: Plugin = { summary: structuredClone(summary), path: `/data/plugins/${summary.id}/${summary.version}`, enabled: was?.enabled ?? true,
      consented: consent || (!!was && was.consented && was.summary.hash === summary.hash), changed: false, running: false, projects: was?.projects ?? [] };
    db.plugins = [...db.plugins.filter((x) => x.summary.id !== summary.id), row].sort((x, y) => x.summary.id.localeCompare(y.summary.id));
  });
  b.discardStagedPlugin.mockImplementation(async (token) => void staged.delete(token));
  b.consentPlugin.mockImplementation(async (id, hash) => {
    const p = get(id);
    if (p.summary.hash !== hash) throw new BridgeError('CONFLICT', `plugin "${id}" changed since it was shown; review it again before consenting`);
    p.consented = true;
    p.changed = false;
  });
  b.setPluginEnabled.mockImplementation(async (id, enabled) => {
    const p = get(id);
    p.enabled = enabled;
    if (!enabled) p.running = false;
  });
  b.setPluginProject.mockImplementation(async (id, projectId, state) => {
    if (!projectId) throw new BridgeError('INVALID_ARGUMENT', 'no project given', { field: 'projectId' });
    if (!db.projects.some((x) => x.id === projectId)) throw new BridgeError('PROJECT_NOT_FOUND', `no project ${projectId}; it may have been removed, so refresh the list`);
    const p = get(id);
    const rest = p.projects.filter((x) => x.projectId !== projectId);
    p.projects = state === 'app' ? rest : [...rest, { projectId, enabled: state === 'on' }].sort((x, y) => x.projectId.localeCompare(y.projectId));
    if (state === 'off' || (state === 'app' && !p.enabled)) p.running = false;
  });
  b.removePlugin.mockImplementation(async (id) => {
    get(id);
    db.plugins = db.plugins.filter((x) => x.summary.id !== id);
  });
  b.pluginLog.mockImplementation(async (id) => db.pluginLogs[id] ?? '');
}

/** An artifact row: written by message m1, still in the workspace unless extra says otherwise. */
export function artifactRow(path: string, extra: Partial<Artifact> = {}): Artifact {
  return { path, firstMessageId: 'm1', lastMessageId: 'm1', updatedAt: NOW, exists: true, ...extra };
}

/**
 * The Files pane over seed.workspace (contents by path) and seed.artifacts. Tests change
 * a file by assigning to the same seed objects; the stamp is the text itself, so a change
 * shows. A path ending in ".bin" reads as binary.
 */
function installFiles(seed: Seed, find: (id: string) => Session) {
  const b = bridgeModule;
  const files = (sessionId: string) => {
    find(sessionId);
    return (seed.workspace ??= {})[sessionId] ?? {};
  };
  b.listArtifacts.mockImplementation(async (id) => {
    const ws = files(id);
    return (seed.artifacts?.[id] ?? []).map((a) => ({ ...a, exists: a.path in ws }));
  });
  b.listFolder.mockImplementation(async (id, path) => {
    const prefix = path === '' ? '' : `${path}/`;
    const seen = new Map<string, boolean>();
    for (const p of Object.keys(files(id))) {
      if (!p.startsWith(prefix)) continue;
      const [name, ...rest] = p.slice(prefix.length).split('/');
      if (name) seen.set(name, (seen.get(name) ?? false) || rest.length > 0);
    }
    if (path !== '' && seen.size === 0) throw new BridgeError('NOT_FOUND', `${path} is not a folder the file list shows`);
    const entries = [...seen].map(([name, dir]) => ({ name, path: prefix + name, dir }));
    entries.sort((x, y) => Number(y.dir) - Number(x.dir) || x.name.localeCompare(y.name));
    return { path, entries, truncated: false };
  });
  b.findFiles.mockImplementation(async (id, query) => {
    const q = query.toLowerCase();
    const hits = Object.keys(files(id)).filter((f) => f.toLowerCase().includes(q)).sort((x, y) => x.length - y.length || x.localeCompare(y));
    return { files: hits, truncated: false, indexing: false };
  });
  b.viewFile.mockImplementation(async (id, path) => {
    const text = files(id)[path];
    if (text === undefined) throw new BridgeError('NOT_FOUND', `${path} no longer exists; it may have been moved or deleted`);
    if (path.endsWith('.bin')) {
      return { path, size: text.length, stamp: text, text: '', binary: true, tooLarge: false, note: 'This file is not text, so the viewer does not show it. Open it in its own app.' };
    }
    return { path, size: text.length, stamp: text, text, binary: false, tooLarge: false, note: '' };
  });
  b.fileStampOf.mockImplementation(async (id, path) => {
    const text = files(id)[path];
    return text === undefined ? { exists: false, stamp: '' } : { exists: true, stamp: text };
  });
  b.revealFile.mockImplementation(async (id) => void files(id));
  b.openFileInEditor.mockImplementation(async (id) => void files(id));
}

/** BrowserPreview panes: the host's state per session, kept current by preview events. */
function installPreview(
  seed: Record<string, Record<string, unknown>>,
  emit: (event: string, payload?: unknown) => void,
  onAll: <T>(events: readonly string[], parse: (name: string, p: unknown) => T | null, cb: (e: T) => void) => () => void,
) {
  const b = bridgeModule;
  const states = structuredClone(seed);
  const inBrowser: string[] = [];
  // What the UI is told is what the host keeps (events from a test included).
  onAll(PREVIEW_EVENTS, (name, p) => ({ name, p: p as Record<string, unknown> }), ({ name, p }) => {
    const id = String(p?.sessionId ?? '');
    if (name === 'preview:closed') delete states[id];
    else states[id] = { ...p };
  });
  b.previewState.mockImplementation(async (id) => previewState(states[id] ?? null));
  b.closePreview.mockImplementation(async (id) => {
    if (states[id]) emit('preview:closed', { sessionId: id });
  });
  b.openPreviewInBrowser.mockImplementation(async (id) => {
    if (!states[id]) throw new BridgeError('NOT_FOUND', 'this session has no open preview; ask the agent to open one with BrowserPreview');
    inBrowser.push(id);
  });
  b.onPreviewEvent.mockImplementation((cb) => onAll(PREVIEW_EVENTS, previewEvent, cb));
  return { states, inBrowser };
}

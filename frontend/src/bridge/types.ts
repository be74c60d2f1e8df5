// Plain TypeScript shapes of the Go DTOs (backend/api/api.go). JSON is camelCase and
// times are Unix milliseconds. The rest of the app depends on these, never on the
// classes generated into wailsjs/.

export type PermissionMode = 'ask' | 'accept-edits' | 'auto';
export type SessionPermissionMode = PermissionMode | 'inherit';
export type OperatingMode = 'agent' | 'plan' | 'goal';
export type ThemeSetting = 'system' | 'light' | 'dark';

export interface Project {
  id: string;
  name: string;
  /** Canonical absolute path of the folder. */
  path: string;
  createdAt: number;
  updatedAt: number;
}

export interface Session {
  id: string;
  /** "" for a temporary session (its workspace is a private scratch folder). */
  projectId: string;
  title: string;
  operatingMode: string;
  permissionMode: string;
  isolated: boolean;
  createdAt: number;
  updatedAt: number;
  /** 0 unless archived. */
  archivedAt: number;
}

export interface CreateSessionInput {
  /** "" creates a temporary session. */
  projectId: string;
  /** "" lets the backend pick a default title. */
  title: string;
  /** Work in an own git worktree of the project (git projects only). */
  isolated?: boolean;
}

/** Empty strings leave the corresponding mode unchanged. */
export interface SessionConfig {
  operatingMode: OperatingMode | '';
  permissionMode: SessionPermissionMode | '';
}

export type ModelApi = 'anthropic' | 'openai' | 'openai-compatible';

/**
 * The model the agent uses (hostcore.ModelSettings). The API key itself is never
 * returned: hasKey says whether one is saved.
 */
export interface ModelSettings {
  api: ModelApi;
  /** Required for openai-compatible; optional (provider default) otherwise. */
  baseUrl: string;
  model: string;
  /** 0 = the provider's default. */
  contextWindow: number;
  /** 0 = the provider's default. */
  maxOutputTokens: number;
  temperature?: number;
  /** Extended thinking (Anthropic). */
  thinking: boolean;
  /** Read-only: an API key is saved. */
  hasKey: boolean;
  /** Read-only: the path of the private file the key is stored in. */
  keyStorage: string;
  /** Read-only: nothing is saved and PI_DESKTOP_PROVIDER is set, so the environment's model is used. */
  fromEnvironment: boolean;
}

/** keyStorage value of a key kept in the OS keychain (otherwise it is the key file's path). */
export const KEYCHAIN = 'keychain';

/**
 * A saved model provider (providers.Profile). The API key is never part of it:
 * hasKey says whether one is saved, keyStorage where ("keychain" or the key file's path).
 */
export interface ProviderProfile {
  id: string;
  name: string;
  api: ModelApi;
  /** Required for openai-compatible; "" = the provider's default endpoint otherwise. */
  baseUrl: string;
  model: string;
  /** 0 = the API's default. */
  contextWindow: number;
  /** 0 = the API's default. */
  maxOutputTokens: number;
  /** Absent = the model's default. */
  temperature?: number;
  /** Extended thinking (Anthropic only). */
  thinking: boolean;
  isDefault: boolean;
  hasKey: boolean;
  /** "keychain", the key file's path, or "" without a key. */
  keyStorage: string;
  createdAt: number;
  updatedAt: number;
}

/** What saveProvider and testProvider take: id "" adds a provider. */
export type ProviderInput = Omit<ProviderProfile, 'hasKey' | 'keyStorage' | 'createdAt' | 'updatedAt'>;

/** The model from PI_DESKTOP_PROVIDER, in use while no provider is saved. */
export interface EnvironmentModel {
  api: string;
  model: string;
  baseUrl: string;
  hasKey: boolean;
}

export interface ProviderList {
  providers: ProviderProfile[];
  /** Where a key saved now goes: "keychain" or the key file's path. */
  keyStorage: string;
  environment: EnvironmentModel | null;
}

/** A connection test's outcome; code is a stable error code when ok is false. */
export interface ProviderTestResult {
  ok: boolean;
  code: string;
  message: string;
  durationMs: number;
}

export interface Settings {
  defaultPermissionMode: PermissionMode;
  defaultCommandShell: string;
  inlineVisualizations: boolean;
  /** 0 = permission cards never time out; otherwise 1..86400. */
  permissionTimeoutSeconds: number;
  theme: ThemeSetting;
  /** Variables commands receive although the environment policy drops them by default. */
  envPassthrough: string[];
  /** Extra variables the environment policy drops. */
  envDrop: string[];
}

export interface ShellOption {
  id: string;
  label: string;
}

export interface AppInfo {
  version: string;
  platform: string;
  dataDir: string;
  commandShells: ShellOption[];
}

export interface SessionsChangedEvent {
  sessionId: string;
  projectId: string;
}

export const EVENT_PROJECTS_CHANGED = 'projects:changed';
export const EVENT_SESSIONS_CHANGED = 'sessions:changed';
export const EVENT_SETTINGS_CHANGED = 'settings:changed';
export const EVENT_PROVIDERS_CHANGED = 'providers:changed';

// ---------------------------------------------------------------------------
// Agent transcript (backend/agent/store.go). args/result/input travel as raw JSON
// (Go json.RawMessage); the bridge parses them, so they are plain values here.

export type TurnState = 'running' | 'done' | 'failed' | 'aborted' | 'interrupted';

export interface TurnRecord {
  id: string;
  sessionId: string;
  prompt: string;
  state: TurnState | string;
  errorCode: string;
  errorMessage: string;
  createdAt: number;
  updatedAt: number;
  /** 0 while running. */
  endedAt: number;
}

/** provider.Block: text, thinking, tool_use, tool_result, redacted_thinking. */
export interface Block {
  type: string;
  text: string;
  toolUseId: string;
  toolName: string;
  input: unknown;
  isError: boolean;
}

/**
 * tools.Result: the common keys, plus the tool-specific fields flattened beside them
 * (Bash: exitCode, stdout, stderr, backgroundTaskId; Write/Edit: tag, review; …).
 */
export interface ToolResult {
  ok: boolean;
  code: string;
  message: string;
  details: Record<string, unknown>;
  /** workspace | scratch | visualization | external ("" when the tool has no path). */
  root: string;
  path: string;
  content: string;
  truncated: boolean;
  notice: string;
  traceId: string;
  decision: string;
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  backgroundTaskId?: string;
  /** Review records of a Write/Edit (spec §4c). */
  review: ReviewChange[];
  /** Every other tool-specific field, untouched. */
  fields: Record<string, unknown>;
}

/** Tool call states: pending, running, done, failed, aborted, skipped, interrupted. */
export type ToolCallState = 'pending' | 'running' | 'done' | 'failed' | 'aborted' | 'skipped' | 'interrupted';

export interface ToolCallRecord {
  id: string;
  turnId: string;
  messageId: string;
  toolUseId: string;
  position: number;
  tool: string;
  args: unknown;
  state: ToolCallState | string;
  result: ToolResult | null;
  modelText: string;
  isError: boolean;
  errorCode: string;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
}

export type MessageKind = 'prompt' | 'model' | 'summary';

export interface MessageRecord {
  seq: number;
  id: string;
  sessionId: string;
  turnId: string;
  role: string;
  kind: MessageKind | string;
  content: Block[];
  /** "" while streaming; end_turn, tool_use, max_tokens, other, aborted, failed, interrupted. */
  stopReason: string;
  toolCalls: ToolCallRecord[];
  createdAt: number;
  updatedAt: number;
}

export interface Transcript {
  sessionId: string;
  turns: TurnRecord[];
  messages: MessageRecord[];
}

/** A run of whole turns of a transcript (TranscriptPage). */
export interface TranscriptPage extends Transcript {
  /** Older turns exist before the first of `turns`. */
  more: boolean;
}

/** Which turns a TranscriptPage holds; see the Go PageQuery. */
export interface TranscriptPageQuery {
  /** The turns older than this one (scrolling up); '' for the newest. */
  before?: string;
  /** Every turn from this one on, however many messages (a re-read of what is shown). */
  since?: string;
  /** Messages wanted: whole turns are added, newest first, until they hold this many. */
  limit: number;
}

// ---------------------------------------------------------------------------
// Review records (backend/review).

export interface ReviewHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

export interface ReviewChange {
  snapshotId: string;
  messageId: string;
  /** Workspace-relative, '/'-separated. */
  path: string;
  operation: string;
  status: string;
  /** active | rolledBack */
  state: string;
  additions: number;
  deletions: number;
  hunks: ReviewHunk[];
  binary: boolean;
  truncated: boolean;
  reversible: boolean;
  sessionId: string;
  toolCallId: string;
  groupId: string;
  createdAt: number;
}

// ---------------------------------------------------------------------------
// Permission cards (backend/permission/broker.go).

export type ApprovalAnswer = 'allow-once' | 'allow-session' | 'deny';
export type ApprovalOutcome = ApprovalAnswer | 'cancelled' | 'timeout' | 'shutdown';

export interface ApprovalRequest {
  id: string;
  sessionId: string;
  turnId: string;
  toolCallId: string;
  tool: string;
  /** low | medium | high */
  risk: string;
  reason: string;
  /** Bounded, secrets redacted. */
  preview: string;
  path: string;
  external: boolean;
  workspace: string;
  delegate: string;
  /**
   * Write/Edit: a bounded unified diff of what the call would change ("@@ -a,b +c,d @@"
   * headers, " ", "-", "+" lines, a final "[diff truncated: N more lines]" when cut);
   * "" when there is none. Parse it with lib/unifiedDiff.
   */
  diff: string;
  /** Why there is no diff (binary file, too large, the edit does not apply) or what it is ("new file"). */
  diffNote: string;
  createdAt: number;
}

// ---------------------------------------------------------------------------
// Background tasks (backend/bgtask).

export interface BackgroundTask {
  id: string;
  sessionId: string;
  command: string;
  /** running | exited | failed | stopped … */
  state: string;
  exitCode: number | null;
  error: string;
  startedAt: number;
  /** 0 while running. */
  endedAt: number;
  removed: boolean;
}

export interface TaskStreamOutput {
  text: string;
  truncated: boolean;
  totalBytes: number;
}

export interface TaskOutput {
  task: BackgroundTask;
  stdout: TaskStreamOutput;
  stderr: TaskStreamOutput;
}

// ---------------------------------------------------------------------------
// Live events, normalized by the bridge into one tagged union per family.

export type AgentEvent =
  | {
      type: 'turn';
      sessionId: string;
      turnId: string;
      state: TurnState;
      code: string;
      message: string;
      retriable: boolean;
      /** Set on a same-turn retry of the model call; the partial message was dropped. */
      retry: string;
    }
  | {
      type: 'message';
      sessionId: string;
      turnId: string;
      messageId: string;
      role: string;
      kind: MessageKind | string;
      /** streaming, then the stop reason. */
      state: string;
    }
  | { type: 'text' | 'thinking'; sessionId: string; turnId: string; messageId: string; delta: string }
  | {
      type: 'tool_call';
      sessionId: string;
      turnId: string;
      messageId: string;
      toolCallId: string;
      toolUseId: string;
      tool: string;
      phase: 'streaming' | 'ready' | 'running';
      argsDelta: string;
      args: unknown;
    }
  | {
      type: 'tool_result';
      sessionId: string;
      turnId: string;
      messageId: string;
      toolCallId: string;
      toolUseId: string;
      tool: string;
      state: 'done' | 'failed' | 'aborted' | 'skipped';
      result: ToolResult;
      modelText: string;
      isError: boolean;
    }
  | {
      type: 'context';
      sessionId: string;
      turnId: string;
      state: 'compacting' | 'done' | 'failed';
      code: string;
      tokensBefore: number;
      tokensAfter: number;
    }
  | {
      /** Live Bash output (tool:output). */
      type: 'tool_output';
      sessionId: string;
      toolCallId: string;
      stream: 'stdout' | 'stderr';
      seq: number;
      text: string;
      /** The live stream stopped here; the rest comes with the result. */
      paused: boolean;
    };

export type PermissionEvent =
  | { type: 'permission_request'; sessionId: string; request: ApprovalRequest }
  | { type: 'permission_resolved'; sessionId: string; id: string; outcome: ApprovalOutcome };

export type TaskEvent =
  | { type: 'task_started' | 'task_exited'; sessionId: string; task: BackgroundTask }
  | { type: 'task_output'; sessionId: string; taskId: string; stdoutBytes: number; stderrBytes: number };

export const AGENT_EVENTS = [
  'agent:turn',
  'agent:message',
  'agent:text',
  'agent:thinking',
  'agent:tool_call',
  'agent:tool_result',
  'agent:context',
  'tool:output',
] as const;
export const PERMISSION_EVENTS = ['permission:request', 'permission:resolved'] as const;
export const TASK_EVENTS = ['task:started', 'task:output', 'task:exited'] as const;

// ---------------------------------------------------------------------------
// The session checklist (TodoWrite, backend/agent).

export type TodoStatus = 'pending' | 'in_progress' | 'completed';

export interface Todo {
  content: string;
  status: TodoStatus;
  /** The step as shown while it runs ("Running the tests"); "" when not given. */
  activeForm: string;
}

/** agent:todos: the session's checklist was replaced as a whole. */
export interface TodosEvent {
  sessionId: string;
  turnId: string;
  todos: Todo[];
}

export const EVENT_TODOS = 'agent:todos';

// ---------------------------------------------------------------------------
// Isolated sessions: git worktrees (backend/worktree).

export interface WorktreeCommit {
  hash: string;
  author: string;
  /** Unix ms; 0 when unknown. */
  time: number;
  subject: string;
}

export interface WorktreeFileChange {
  path: string;
  added: number;
  deleted: number;
  binary: boolean;
}

/** What merging the session branch into the project branch would do. */
export interface MergePreview {
  /** Pass back to merge(); a changed repository makes it stale. */
  token: string;
  projectBranch: string;
  projectHead: string;
  /** pi-desktop/<session id> */
  branch: string;
  worktreeHead: string;
  upToDate: boolean;
  fastForward: boolean;
  commits: WorktreeCommit[];
  moreCommits: number;
  files: WorktreeFileChange[];
  moreFiles: number;
  diff: string;
  diffTruncated: boolean;
  conflicts: string[];
  conflictsUnknown: boolean;
  syncInProgress: boolean;
  /** Uncommitted files in the worktree: they are not merged. */
  uncommitted: string[];
  moreUncommitted: number;
}

export interface MergeResult {
  projectBranch: string;
  from: string;
  to: string;
  upToDate: boolean;
  synced: boolean;
  syncCommit: string;
  fastForwarded: boolean;
  commits: number;
}

export type WorktreeSetupState = 'running' | 'done' | 'failed';

/** worktree:setup: the project's setup command in a new isolated session. */
export interface WorktreeSetupEvent {
  sessionId: string;
  state: WorktreeSetupState | string;
  command: string;
  exitCode: number | null;
  output: string;
  message: string;
}

export const EVENT_WORKTREE_SETUP = 'worktree:setup';

/** The git branch of an isolated session. */
export function sessionBranch(sessionId: string): string {
  return `pi-desktop/${sessionId}`;
}

// ---------------------------------------------------------------------------
// Decisions the agent waits for (backend/agent/ask.go, proposal.go): asktool
// questions and Plan/Goal proposals. Neither has a deadline.

export interface AskOption {
  /** The answer value when chosen. */
  label: string;
  /** "" when the model gave none. */
  description: string;
}

export interface AskQuestion {
  question: string;
  /** Empty: a free-text question. */
  options: AskOption[];
  /** More than one option may be chosen. */
  multiSelect: boolean;
}

/** One answer: the chosen option labels and any typed text; a skipped question has both empty. */
export interface AskAnswer {
  selected: string[];
  text: string;
}

/** pending, then answered (by someone) or skipped (the turn was stopped). */
export type QuestionState = 'pending' | 'answered' | 'skipped';

/** An asktool call (agent.QuestionEvent): its questions, and once settled the answers. */
export interface QuestionRequest {
  sessionId: string;
  turnId: string;
  toolCallId: string;
  questionId: string;
  questions: AskQuestion[];
  state: QuestionState;
  /** One per question once answered; empty while pending. */
  answers: AskAnswer[];
  createdAt: number;
}

export type ProposalKind = 'plan' | 'goal';

/**
 * pending, then approved / rejected by the user, cancelled (the turn was stopped) or
 * interrupted (PI-Desktop stopped before a decision).
 */
export type ProposalState = 'pending' | 'approved' | 'rejected' | 'cancelled' | 'interrupted';

/** A submitted plan or goal (agent.Proposal). */
export interface Proposal {
  proposalId: string;
  sessionId: string;
  turnId: string;
  toolCallId: string;
  kind: ProposalKind;
  /** Counts the session's proposals: 1, 2, … */
  version: number;
  title: string;
  /** The question shown with the buttons. */
  question: string;
  /** The exact Markdown the agent submitted. */
  markdown: string;
  /** Workspace-relative artifact path, e.g. .pi/plan/add-login-1.md. */
  path: string;
  sha256: string;
  size: number;
  state: ProposalState;
  /** The mode the session continues in (approved only); "" otherwise. */
  permissionMode: PermissionMode | '';
  feedback: string;
  createdAt: number;
  /** 0 while pending. */
  resolvedAt: number;
}

/** The user's answer to a pending proposal; session, turn, id and version must match it. */
export interface ProposalDecision {
  sessionId: string;
  turnId: string;
  proposalId: string;
  version: number;
  approve: boolean;
  /** Required to approve: the permission mode to continue in. */
  permissionMode?: PermissionMode;
  /** Sent with a rejection (and as a note with an approval). */
  feedback?: string;
}

export type DecisionEvent =
  | { type: 'question'; sessionId: string; question: QuestionRequest }
  | { type: 'proposal'; sessionId: string; proposal: Proposal };

export const DECISION_EVENTS = ['agent:question', 'agent:proposal'] as const;

/** WorkspaceFiles: files of a session's workspace matching a query, best first. */
export interface WorkspaceFiles {
  /** '/'-separated, relative to the workspace (the worktree of an isolated session). */
  files: string[];
  /** More files match than listed: typing more narrows the list. */
  truncated: boolean;
}

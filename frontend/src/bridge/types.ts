// The TS shapes of what crosses the bridge. Shapes Go sends are inferred from their one
// schema in wire.ts (which also parses them); shapes the UI sends are declared here.
// JSON is camelCase and times are Unix milliseconds. The rest of the app depends on
// these, never on the classes generated into wailsjs/.
import { EVENT } from './eventNames.gen';
import * as w from './wire';
import type { EventOf, Out } from './wire';
import type { Attachment } from './attachments';

export type PermissionMode = (typeof w.PERMISSION_MODES)[number];
export type SessionPermissionMode = (typeof w.SESSION_PERMISSION_MODES)[number];
export type OperatingMode = (typeof w.OPERATING_MODES)[number];
export type ThemeSetting = (typeof w.THEMES)[number];

export type Project = Out<typeof w.Project>;
export type Session = Out<typeof w.Session>;

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

export type ModelApi = (typeof w.MODEL_APIS)[number];

/** keyStorage value of a key kept in the OS keychain (otherwise it is the key file's path). */
export const KEYCHAIN = 'keychain';

export type ProviderProfile = Out<typeof w.ProviderProfile>;

/**
 * What saveProvider and testProvider take: id "" adds a provider; imagesByDefault and the
 * effective limits are the backend's to decide; openaiApi absent follows the default.
 */
export type ProviderInput = Omit<
  ProviderProfile,
  'hasKey' | 'keyStorage' | 'createdAt' | 'updatedAt' | 'imagesByDefault' | 'openaiApi' | 'effectiveContextWindow' | 'effectiveMaxOutput' | 'limitsKnown'
> & { openaiApi?: string };

export type EnvironmentModel = Out<typeof w.EnvironmentModel>;
export type ProviderList = Out<typeof w.ProviderList>;
export type ProviderTestResult = Out<typeof w.ProviderTestResult>;
export type ListedModel = Out<typeof w.ListedModel>;
export type ProviderModelList = Out<typeof w.ProviderModelList>;
export type Settings = Out<typeof w.Settings>;
export type ShellOption = Out<typeof w.ShellOption>;
export type AppInfo = Out<typeof w.AppInfo>;
export type SessionsChangedEvent = Out<typeof w.SessionsChangedEvent>;

// ---------------------------------------------------------------------------
// MCP servers (backend/api/mcp.go).

export type MCPState = (typeof w.MCP_STATES)[number];
export type MCPTransport = (typeof w.MCP_TRANSPORTS)[number];
export type MCPHeader = Out<typeof w.MCPHeader>;
export type MCPTool = Out<typeof w.MCPTool>;
export type MCPServer = Out<typeof w.MCPServer>;
export type MCPTestResult = Out<typeof w.MCPTestResult>;
export type MCPServersChanged = Out<typeof w.MCPServersChanged>;

/**
 * The add/edit form of an app server (api.MCPServerInput). A secret header or env value
 * left "" keeps the saved one.
 */
export interface MCPServerInput {
  id: string;
  transport: MCPTransport;
  command: string;
  args: string[];
  env: MCPHeader[];
  cwd: string;
  url: string;
  headers: MCPHeader[];
  enabled: boolean;
  /** 0 = the default (10 s). */
  connectTimeoutMs: number;
  /** 0 = the default (100 s), at most 600 s. */
  callTimeoutMs: number;
}

/** The composer's choice of one server for a prompt; tools [] = all the mode allows. */
export interface MCPSelection {
  serverId: string;
  /** The server's own tool names. */
  tools: string[];
}

export interface PromptOptions {
  mcp: MCPSelection[];
  /** Files the composer attached (references from attachFiles/attachData/chooseFiles). */
  attachments?: Attachment[];
}

export const EVENT_MCP_CHANGED = EVENT.mcpChanged;

export const EVENT_PROJECTS_CHANGED = EVENT.projectsChanged;
export const EVENT_SESSIONS_CHANGED = EVENT.sessionsChanged;
export const EVENT_SETTINGS_CHANGED = EVENT.settingsChanged;
export const EVENT_PROVIDERS_CHANGED = EVENT.providersChanged;

// ---------------------------------------------------------------------------
// Agent transcript (backend/agent/store.go). args/result/input travel as raw JSON
// (Go json.RawMessage); the bridge parses them, so they are plain values here.

export type TurnState = (typeof w.TURN_STATES)[number];
export type TurnRecord = Out<typeof w.TurnRecord>;
export type Block = Out<typeof w.Block>;
export type ToolResult = Out<typeof w.ToolResult>;
export type ImageRef = Out<typeof w.ImageRef>;
export type ToolCallState = (typeof w.TOOL_CALL_STATES)[number];
export type ToolCallRecord = Out<typeof w.ToolCallRecord>;
export type InstructionFile = Out<typeof w.InstructionFile>;
export type MessageKind = (typeof w.MESSAGE_KINDS)[number];
export type MessageRecord = Out<typeof w.MessageRecord>;
export type Transcript = Out<typeof w.Transcript>;
export type TranscriptPage = Out<typeof w.TranscriptPage>;
export type DelegationState = (typeof w.DELEGATION_STATES)[number];
export type Delegation = Out<typeof w.Delegation>;
export type DelegationPage = Out<typeof w.DelegationPage>;

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

export type ReviewHunk = Out<typeof w.ReviewHunk>;
export type ReviewChange = Out<typeof w.ReviewChange>;

// ---------------------------------------------------------------------------
// Permission cards (backend/permission/broker.go).

export type ApprovalAnswer = (typeof w.APPROVAL_ANSWERS)[number] | `${typeof w.ALLOW_RULE_ANSWER}${string}`;
export type ApprovalOutcome = (typeof w.APPROVAL_OUTCOMES)[number];
export type ApprovalRequest = Out<typeof w.ApprovalRequest>;
export type CommandEffect = Out<typeof w.CommandEffect>;
export type RuleChoice = Out<typeof w.RuleChoice>;
/** Where an MCP tool comes from: its server's id, its own name and title there. */
export type ToolOrigin = Out<typeof w.ToolOrigin>;

// ---------------------------------------------------------------------------
// Background tasks (backend/bgtask).

export type BackgroundTask = Out<typeof w.BackgroundTask>;
export type TaskStreamOutput = Out<typeof w.TaskStreamOutput>;
export type TaskOutput = Out<typeof w.TaskOutput>;

// ---------------------------------------------------------------------------
// Live events, normalized by the bridge into one tagged union per family.

export type AgentEvent = EventOf<typeof w.agentEvents>;
export type PermissionEvent = EventOf<typeof w.permissionEvents>;
export type TaskEvent = EventOf<typeof w.taskEvents>;

/** A family's event names: the keys of its schema map in wire.ts, so there is one list. */
function namesOf<F extends Record<string, unknown>>(family: F): ReadonlyArray<keyof F & string> {
  return Object.keys(family) as Array<keyof F & string>;
}

/** Every agent:* event and tool:output (live Bash output); see wire.agentEvents. */
export const AGENT_EVENTS = namesOf(w.agentEvents);
export const PERMISSION_EVENTS = namesOf(w.permissionEvents);
export const TASK_EVENTS = namesOf(w.taskEvents);

// ---------------------------------------------------------------------------
// The session checklist (TodoWrite, backend/agent).

export type TodoStatus = (typeof w.TODO_STATUSES)[number];
export type Todo = Out<typeof w.Todo>;
export type TodosEvent = Out<typeof w.TodosEvent>;

export const EVENT_TODOS = EVENT.agentTodos;

// ---------------------------------------------------------------------------
// Isolated sessions: git worktrees (backend/worktree).

export type WorktreeCommit = Out<typeof w.WorktreeCommit>;
export type WorktreeFileChange = Out<typeof w.WorktreeFileChange>;
export type MergePreview = Out<typeof w.MergePreview>;
export type MergeResult = Out<typeof w.MergeResult>;
export type WorktreeSetupState = (typeof w.WORKTREE_SETUP_STATES)[number];
export type WorktreeSetupEvent = Out<typeof w.WorktreeSetupEvent>;

export const EVENT_WORKTREE_SETUP = EVENT.worktreeSetup;

/** The git branch of an isolated session. */
export function sessionBranch(sessionId: string): string {
  return `pi-desktop/${sessionId}`;
}

// ---------------------------------------------------------------------------
// Decisions the agent waits for (backend/agent/ask.go, proposal.go): asktool
// questions and Plan/Goal proposals. Neither has a deadline.

export type AskOption = Out<typeof w.AskOption>;
export type AskQuestion = Out<typeof w.AskQuestion>;
export type AskAnswer = Out<typeof w.AskAnswer>;
/** pending, then answered (by someone) or skipped (the turn was stopped). */
export type QuestionState = (typeof w.QUESTION_STATES)[number];
export type QuestionRequest = Out<typeof w.QuestionRequest>;
export type ProposalKind = (typeof w.PROPOSAL_KINDS)[number];
/**
 * pending, then approved / rejected by the user, cancelled (the turn was stopped) or
 * interrupted (PI-Desktop stopped before a decision).
 */
export type ProposalState = (typeof w.PROPOSAL_STATES)[number];
export type Proposal = Out<typeof w.Proposal>;

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

export type DecisionEvent = EventOf<typeof w.decisionEvents>;

export const DECISION_EVENTS = namesOf(w.decisionEvents);

export type WorkspaceFiles = Out<typeof w.WorkspaceFiles>;

// What a turn costs (backend/agent spend.go, hostcore costs.go).
export type Usage = Out<typeof w.Usage>;
export type SessionCost = Out<typeof w.SessionCost>;
export type DaySpend = Out<typeof w.DaySpend>;

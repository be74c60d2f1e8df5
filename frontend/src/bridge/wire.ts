// One schema per shape that crosses the Wails bridge: types.ts infers the TS types from
// these, and normalize.ts parses with them. Every field has a default because Go sends
// null for a nil slice, leaves out omitempty fields, and events are untyped: the UI
// must never crash on a missing or malformed field. Unknown keys are dropped.
//
// wire.test.ts parses a fixture that Go renders from the real structs
// (testdata/wire.gen.json) and fails when a Go field is lost here.
// No wailsjs import here, so the fake bridge in tests parses exactly as the real one.
import * as v from 'valibot';
import { EVENT } from './eventNames.gen';

type Rec = Record<string, unknown>;
type Entries = v.ObjectEntries;

function isRecord(x: unknown): x is Rec {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Anything that is not an object reads as {} (every field then takes its default). */
function toRecord(x: unknown): Rec {
  return isRecord(x) ? x : {};
}

// --- fields ---------------------------------------------------------------------

const str = v.fallback(v.string(), '');
const num = v.fallback(v.pipe(v.number(), v.finite()), 0);
/** Only true is true. */
const bool = v.fallback(v.boolean(), false);

// A derived field (a pipe) has no fallback of its own, so a missing key would fail the
// object: v.optional runs it on a stand-in input instead.

/** A string, with def for a missing or empty one. */
function strOr(def: string) {
  return v.optional(v.pipe(str, v.transform((s) => s || def)), '');
}

/** One of values; def for anything else. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T, def: T[number]) {
  return v.fallback(v.picklist(values), def);
}

/** A list; null (a nil Go slice) or junk reads as []. */
function list<S extends v.GenericSchema>(item: S) {
  return v.fallback(v.array(item), () => []);
}

/** The strings of a list; other members are dropped. */
const strList = v.optional(
  v.pipe(
    list(v.unknown()),
    v.transform((a) => a.filter((x): x is string => typeof x === 'string')),
  ),
  () => [],
);

/** A list of values as strings (settings lists). */
const stringifiedList = v.optional(
  v.pipe(
    list(v.unknown()),
    v.transform((a) => a.map(String)),
  ),
  () => [],
);

/** A number that may be absent: exitCode of a task that runs, … */
const numOrNull = v.fallback(v.nullable(v.number()), null);

/** An object with these fields; a non-object reads as {}. */
function record<E extends Entries>(entries: E) {
  return v.optional(v.pipe(v.unknown(), v.transform(toRecord), v.object(entries)), () => ({}));
}

/** A Go time.Time (RFC 3339 string) or Unix ms to Unix ms; 0 for the zero time or junk. */
export function toMillis(x: unknown): number {
  if (typeof x === 'number') return Number.isFinite(x) ? x : 0;
  if (typeof x !== 'string' || x === '' || x.startsWith('0001-01-01')) return 0;
  const ms = Date.parse(x);
  return Number.isFinite(ms) ? ms : 0;
}

const millis = v.optional(v.pipe(v.unknown(), v.transform(toMillis)), 0);

/**
 * A Go json.RawMessage as it may arrive: already a JSON value (the normal case), a
 * JSON string, or a byte array. Undecodable input is returned as is.
 */
export function parseRaw(x: unknown): unknown {
  if (Array.isArray(x) && x.length > 0 && x.every((b) => typeof b === 'number' && b >= 0 && b <= 255)) {
    try {
      return JSON.parse(new TextDecoder().decode(new Uint8Array(x as number[])));
    } catch {
      return x;
    }
  }
  if (typeof x === 'string') {
    const t = x.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return JSON.parse(t);
      } catch {
        return x;
      }
    }
  }
  return x;
}

/** Absent stays absent. */
const raw = v.optional(v.pipe(v.unknown(), v.transform(parseRaw)));

export type Out<S extends v.GenericSchema> = v.InferOutput<S>;

// --- enums ----------------------------------------------------------------------

export const PERMISSION_MODES = ['ask', 'accept-edits', 'auto'] as const;
export const SESSION_PERMISSION_MODES = [...PERMISSION_MODES, 'inherit'] as const;
export const OPERATING_MODES = ['agent', 'plan', 'goal'] as const;
export const THEMES = ['system', 'light', 'dark'] as const;
export const MODEL_APIS = ['anthropic', 'openai', 'openai-compatible'] as const;
export const TURN_STATES = ['running', 'done', 'failed', 'aborted', 'interrupted'] as const;
export const TOOL_CALL_STATES = ['pending', 'running', 'done', 'failed', 'aborted', 'skipped', 'interrupted'] as const;
export const MESSAGE_KINDS = ['prompt', 'model', 'summary'] as const;
export const APPROVAL_ANSWERS = ['allow-once', 'allow-session', 'deny'] as const;
export const APPROVAL_OUTCOMES = [...APPROVAL_ANSWERS, 'cancelled', 'timeout', 'shutdown', 'allow-rule'] as const;
/** An answer choosing one of a card's ruleChoices: ALLOW_RULE_ANSWER + its id. */
export const ALLOW_RULE_ANSWER = 'allow-rule:';
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export const QUESTION_STATES = ['pending', 'answered', 'skipped'] as const;
export const PROPOSAL_KINDS = ['plan', 'goal'] as const;
export const PROPOSAL_STATES = ['pending', 'approved', 'rejected', 'cancelled', 'interrupted'] as const;
export const WORKTREE_SETUP_STATES = ['running', 'done', 'failed'] as const;
/** A delegate run's state; waiting = one of its calls has an approval card open. */
export const DELEGATION_STATES = ['running', 'waiting', 'done', 'failed', 'stopped', 'interrupted'] as const;

// --- projects, sessions, settings (backend/api) -------------------------------------

export const Project = record({
  id: str,
  name: str,
  /** Canonical absolute path of the folder. */
  path: str,
  createdAt: num,
  updatedAt: num,
  /** Runs once in each new isolated worktree ("" = none). */
  setupCommand: str,
});

export const Session = record({
  id: str,
  /** "" for a temporary session (its workspace is a private scratch folder). */
  projectId: str,
  title: str,
  operatingMode: str,
  permissionMode: str,
  isolated: bool,
  createdAt: num,
  updatedAt: num,
  /** 0 unless archived. */
  archivedAt: num,
});

export const Settings = record({
  defaultPermissionMode: oneOf(PERMISSION_MODES, 'ask'),
  defaultCommandShell: str,
  inlineVisualizations: bool,
  /** 0 = permission cards never time out; otherwise 1..86400. */
  permissionTimeoutSeconds: num,
  theme: oneOf(THEMES, 'system'),
  /** Variables commands receive although the environment policy drops them by default. */
  envPassthrough: stringifiedList,
  /** Extra variables the environment policy drops. */
  envDrop: stringifiedList,
});

export const ShellOption = record({ id: str, label: str });

export const AppInfo = record({
  version: str,
  platform: str,
  dataDir: str,
  commandShells: list(ShellOption),
});

export const SessionsChangedEvent = record({ sessionId: str, projectId: str });

// --- model providers (backend/providers, hostcore) ------------------------------------

/** A temperature that is absent stands for the model's default. */
const temperature = v.fallback(v.optional(v.number()), undefined);

/** Drops keys whose value is undefined, so an absent optional field stays absent. */
function compact<T extends Rec>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const optPrice = v.fallback(v.optional(v.pipe(v.number(), v.finite())), undefined);
const priceEntries = { input: optPrice, output: optPrice, cacheWrite: optPrice, cacheRead: optPrice };
const modelPriceEntries = { input: num, output: num, cacheWrite: num, cacheRead: num };

/**
 * A saved model provider (providers.Profile). The API key is never part of it:
 * hasKey says whether one is saved, keyStorage where ("keychain" or the key file's path).
 */
export const ProviderProfile = v.pipe(
  record({
    id: str,
    name: str,
    api: oneOf(MODEL_APIS, 'anthropic'),
    /** Required for openai-compatible; "" = the provider's default endpoint otherwise. */
    baseUrl: str,
    model: str,
    /** 0 = the API's default. */
    contextWindow: num,
    /** 0 = the API's default. */
    maxOutputTokens: num,
    /** Absent = the model's default. */
    temperature,
    /** Extended thinking (Anthropic only). */
    thinking: bool,
    /** The user's choice; absent follows imagesByDefault. */
    supportsImages: v.fallback(v.optional(v.boolean()), undefined),
    /** Whether the model's family is known to accept images (the backend decides). */
    imagesByDefault: bool,
    /** OpenAI APIs: whether prompt_cache_key is sent; absent = sent to OpenAI, not to compatible servers. */
    promptCacheKey: v.fallback(v.optional(v.boolean()), undefined),
    /** OpenAI APIs: "responses" or "chat" as the user chose; "" follows the default (see openaiWireApi). */
    openaiApi: str,
    /** The limits turns run with: the values above when set, else the model's (limitsKnown), else the API's defaults. */
    effectiveContextWindow: num,
    effectiveMaxOutput: num,
    limitsKnown: bool,
    isDefault: bool,
    hasKey: bool,
    /** "keychain", the key file's path, or "" without a key. */
    keyStorage: str,
    createdAt: num,
    updatedAt: num,
    /** This provider's own prices, USD per million tokens; an absent field keeps the built-in price. */
    priceOverrides: v.fallback(v.optional(v.pipe(record(priceEntries), v.transform(compact))), undefined),
    /** The built-in table's price of the model; absent = unknown, or a server on this machine. */
    builtinPrice: v.fallback(v.optional(record(modelPriceEntries)), undefined),
    /** What a turn costs now; absent = unknown (shown as —). */
    price: v.fallback(v.optional(record(modelPriceEntries)), undefined),
  }),
  v.transform(compact),
);

/** The model from PI_DESKTOP_PROVIDER, in use while no provider is saved. */
export const EnvironmentModel = record({ api: str, model: str, baseUrl: str, hasKey: bool });

export const ProviderList = record({
  providers: list(ProviderProfile),
  /** Where a key saved now goes: "keychain" or the key file's path. */
  keyStorage: str,
  environment: v.nullish(EnvironmentModel, null),
});

/** A connection test's outcome; code is a stable error code when ok is false. */
/** One model a server lists (provider.ListedModel); displayName only from Anthropic. */
export const ListedModel = record({ id: str, displayName: str });

/**
 * A connection test's outcome; code is a stable error code when ok is false. models is what
 * the server lists, asked beside the test; modelsCode says why there is none
 * (MODEL_LIST_UNAVAILABLE: the server has no list, the model id is typed).
 */
export const ProviderTestResult = record({
  ok: bool,
  code: str,
  message: str,
  durationMs: num,
  models: list(ListedModel),
  modelsCode: str,
  modelsMessage: str,
});

/** The models a provider's server lists, for the model picker; a failure carries a stable code. */
export const ProviderModelList = record({ ok: bool, code: str, message: str, models: list(ListedModel) });

// --- MCP servers (backend/api/mcp.go) -----------------------------------------------

export const MCP_STATES = ['disabled', 'untrusted', 'connecting', 'ready', 'failed', 'needs_auth'] as const;
export const MCP_SCOPES = ['user', 'project'] as const;
export const MCP_TRANSPORTS = ['stdio', 'http', 'sse'] as const;

/**
 * An HTTP header or env variable of a server. A secret value never reaches the window:
 * value is "" and hasValue says whether one is saved.
 */
export const MCPHeader = record({ name: str, value: str, secret: bool, hasValue: bool });

/**
 * One tool of a server; name is the server's own, modelName what the model of the listed scope's sessions
 * calls it (mcp_<server>_<tool>, unique over their catalog), "" for a tool those sessions are not offered.
 */
export const MCPTool = record({
  name: str,
  modelName: str,
  title: str,
  description: str,
  enabled: bool,
  /** What the tool's name, description and schema cost in context once loaded. */
  schemaTokens: num,
});

/** One configured server and its live state. A project server is untrusted until the user trusts its definitionHash. */
export const MCPServer = record({
  id: str,
  scope: oneOf(MCP_SCOPES, 'user'),
  /** The project of a project server; "" for an app server. */
  projectId: str,
  /** "app", ".mcp.json" or ".agents/servers/<file>.json"; "." is a project folder that cannot be read (a failed row, id ""). */
  source: str,
  transport: oneOf(MCP_TRANSPORTS, 'stdio'),
  command: str,
  args: strList,
  env: list(MCPHeader),
  cwd: str,
  url: str,
  headers: list(MCPHeader),
  enabled: bool,
  /** An unknown state reads as failed: nothing is offered as ready that is not. */
  state: oneOf(MCP_STATES, 'failed'),
  errorCode: str,
  error: str,
  /** The last lines of a stdio server's stderr. */
  logTail: strList,
  restarts: num,
  trusted: bool,
  definitionHash: str,
  /** The kept tools (at most 64); omittedTools counts the rest. */
  tools: list(MCPTool),
  omittedTools: num,
  schemaTokens: num,
  /** 0 = the default (10 s). */
  connectTimeoutMs: num,
  /** 0 = the default (100 s). */
  callTimeoutMs: num,
  /** An app server that the listed project's own (trusted) server of the same id replaces in that project's sessions. */
  overridden: bool,
  signingIn: bool,
});

/** What Test found: the tools, or the error with its code and the server's last stderr lines. */
export const MCPTestResult = record({ ok: bool, errorCode: str, error: str, tools: list(MCPTool), logTail: strList });

/** mcp:changed: which project's list to reload ("" = the app's servers, part of every list). */
export const MCPServersChanged = record({ projectId: str, serverId: str });

// --- subagent definitions (backend/api/subagents.go) --------------------------------

export const SUBAGENT_SOURCES = ['builtin', 'user', 'project', 'plugin'] as const;
export const SUBAGENT_STATES = ['effective', 'overridden', 'over-limit', 'error'] as const;
export const SUBAGENT_PERMISSIONS = ['inherit', 'ask', 'accept-edits', 'auto'] as const;

/** One definition as Settings → Subagents lists it; an error row has only name, source, path and error. */
export const Subagent = record({
  name: str,
  source: oneOf(SUBAGENT_SOURCES, 'project'),
  /** An unknown state reads as error: nothing is shown as usable that is not. */
  state: oneOf(SUBAGENT_STATES, 'error'),
  /** The file, or "builtin:<name>". */
  path: str,
  /** One of the app's own: saved and deleted here; the others are edited in their files. */
  editable: bool,
  error: str,
  description: str,
  /** The working tools it names ("*" expanded); inherit adds the parent's live catalog. */
  tools: strList,
  inherit: bool,
  excludedTools: strList,
  /** The tools value as the file writes it (for the edit form). */
  toolsWritten: strList,
  /** As written: "" or "inherit" = the session's model. */
  model: str,
  /** The saved provider it resolved to ("" = the session's model). */
  modelProfileId: str,
  modelProfileName: str,
  /** The effective scope ("" on an error row). */
  permission: str,
  maxTurns: num,
  prompt: str,
  warnings: strList,
  overrides: str,
  overriddenBy: str,
});

export const SubagentList = record({
  subagents: list(Subagent),
  /** Where the app's own definitions are saved. */
  userDir: str,
  /** The project whose files were read ("" = none). */
  projectRoot: str,
  /** How many definitions can be in effect at once. */
  limit: num,
  /** The tool names a definition may name one by one. */
  workingTools: strList,
});

// --- custom slash commands (backend/api/commands.go) ---------------------------------

export const SLASH_COMMAND_SOURCES = ['user', 'project'] as const;
export const SLASH_COMMAND_STATES = ['effective', 'overridden', 'error'] as const;

/** One command file: "/name" in the composer's menu when its state is effective. */
export const SlashCommand = record({
  /** What follows "/": "review", "git:commit" (git/commit.md). */
  name: str,
  source: oneOf(SLASH_COMMAND_SOURCES, 'project'),
  /** An unknown state reads as error: nothing is offered that is not usable. */
  state: oneOf(SLASH_COMMAND_STATES, 'error'),
  path: str,
  description: str,
  argumentHint: str,
  /** Why it cannot be used, what of it was ignored, or which file replaced it. */
  problems: strList,
});

export const SlashCommandList = record({ commands: list(SlashCommand) });

/** A command filled with its arguments: the prompt to send as typed. */
export const SlashCommandExpansion = record({ name: str, prompt: str });

// --- skills (backend/api/skills.go) ------------------------------------------------

export const SKILL_SOURCES = ['builtin', 'user', 'project'] as const;

/** One skill a project's sessions see; userOnly ones run only from /skill:<name>. */
export const SkillEntry = record({
  name: str,
  description: str,
  source: oneOf(SKILL_SOURCES, 'project'),
  path: str,
  userOnly: bool,
});

/** A file that is not a usable skill, with its stable reason code and why. */
export const SkillProblem = record({ path: str, name: str, source: oneOf(SKILL_SOURCES, 'project'), reason: str, message: str });

export const SkillList = record({ skills: list(SkillEntry), problems: list(SkillProblem), listed: num, leftOut: num });

// --- history (backend/api/history.go) ---------------------------------------------

/** A piece of a search hit's snippet; match marks the text that matched. */
export const SearchSegment = record({ text: str, match: bool });

/** A past message or tool call that matched a search; opens sessionId at messageId. */
export const SearchHit = record({
  kind: oneOf(['message', 'tool_call'] as const, 'message'),
  sessionId: str,
  sessionTitle: str,
  projectId: str,
  messageId: str,
  createdAt: num,
  snippet: list(SearchSegment),
});

/** Something a later start of the app asked the window to open (backend/api/open.go). */
export const OpenRequest = record({
  kind: oneOf(['folder', 'plugin', 'session', 'refused'] as const, 'refused'),
  /** Absolute with links resolved (folder, plugin); the argument as given (refused). */
  path: str,
  session: v.nullish(Session, null),
  /** Why a request was refused, with the next step. */
  message: str,
});

/** Where an export was written; path is '' when the user cancelled. */
export const ExportResult = record({ path: str, bytes: num });

// --- review records (backend/review) ------------------------------------------------

export const ReviewHunk = record({
  oldStart: num,
  oldLines: num,
  newStart: num,
  newLines: num,
  lines: v.optional(
    v.pipe(list(v.unknown()), v.transform((a) => a.map((x) => (typeof x === 'string' ? x : '')))),
    () => [],
  ),
});

export const ReviewChange = record({
  snapshotId: str,
  messageId: str,
  /** Workspace-relative, '/'-separated. */
  path: str,
  operation: str,
  status: str,
  /** active | rolledBack */
  state: strOr('active'),
  additions: num,
  deletions: num,
  hunks: list(ReviewHunk),
  binary: bool,
  truncated: bool,
  reversible: bool,
  sessionId: str,
  toolCallId: str,
  groupId: str,
  createdAt: num,
});

// --- the Activity log (backend/audit) and a refused rollback (backend/review since.go) ---

export const AuditRow = record({
  /** Paging cursor; newer rows have larger ids. */
  id: num,
  traceId: str,
  sessionId: str,
  turnId: str,
  toolCallId: str,
  tool: str,
  delegate: str,
  /** The MCP server of an MCP tool call ("" otherwise). */
  mcpServer: str,
  /** Bounded, secrets redacted. */
  argsPreview: str,
  /** workspace | scratch | visualization | external | "" */
  pathRoot: str,
  externalPath: bool,
  permissionMode: str,
  operatingMode: str,
  /** allow, granted, allow-once, allow-session, deny, denied, timeout, cancelled, user, … ("" when refused before policy). */
  decision: str,
  /** A permission card was shown. */
  prompted: bool,
  permissionWaitMs: num,
  /** The tool body. */
  durationMs: num,
  overheadMs: num,
  totalMs: num,
  ok: bool,
  errorCode: str,
  createdAt: num,
  /** A command's command-rules record as JSON (decision, matched rules, a saved rule); "" otherwise. */
  commandRules: str,
});

export const ActivitySummary = record({
  /** Rows the filter selects in the whole session. */
  matching: num,
  tools: strList,
  decisions: strList,
  errorCodes: strList,
});

export const ActivityPage = record({
  /** Newest first. */
  rows: list(AuditRow),
  /** Pass to activityLog for the next (older) page; 0 when this is the last. */
  nextCursor: num,
  /** With the first page only. */
  summary: v.nullish(ActivitySummary, null),
});

/** What happened to the file after the agent's change (details.since of a CONFLICT). */
export const ReviewSince = record({
  /** modified | added (the deleted path holds a file again) | deleted (the file is gone) */
  status: str,
  additions: num,
  deletions: num,
  hunks: list(ReviewHunk),
  binary: bool,
  truncated: bool,
});

// --- agent transcript (backend/agent/store.go) -------------------------------------

/**
 * A stored image of a tool result (tools.ImageRef): the window loads it from the
 * content-addressed store by sha256, never as bytes over the bridge.
 */
export const ImageRef = record({
  sha256: str,
  /** image/png | image/jpeg | image/gif | image/webp */
  mediaType: str,
  width: num,
  height: num,
  bytes: num,
});

/** tools.Approval: what let a call run, for its tool row (never the model's). */
export const Approval = record({
  /** user (a card was answered; the result's decision is the answer) | rule | mode | session */
  by: str,
  /** The permission mode in effect: ask | accept-edits | auto. */
  mode: str,
  /** The command rules that allowed it, or the one an "Always allow" answer saved. */
  rules: strList,
  /** How long the card waited for the answer. */
  waitMs: num,
});

/** The keys of tools.Result read by name; every other key is kept in `fields`. */
const toolResultEntries = {
  ok: bool,
  code: str,
  message: str,
  details: v.optional(v.pipe(v.unknown(), v.transform(toRecord)), () => ({})),
  /** workspace | scratch | visualization | external ("" when the tool has no path). */
  root: str,
  path: str,
  content: str,
  truncated: bool,
  notice: str,
  traceId: str,
  decision: str,
  approval: v.nullish(Approval, null),
  exitCode: v.fallback(v.optional(v.number()), undefined),
  stdout: v.fallback(v.optional(v.string()), undefined),
  stderr: v.fallback(v.optional(v.string()), undefined),
  backgroundTaskId: v.fallback(v.optional(v.string()), undefined),
  /** Review records of a Write/Edit (spec §4c). */
  review: list(ReviewChange),
  /** Pictures the call produced (an MCP tool, a screenshot), stored by the host. */
  images: list(ImageRef),
};

const ToolResultKeys = v.object(toolResultEntries);

/**
 * tools.Result (raw JSON): the common keys, plus the tool-specific fields flattened
 * beside them (Bash: exitCode, stdout, stderr, backgroundTaskId; Write/Edit: tag,
 * review; …). Every other tool-specific field lands in `fields`, untouched.
 */
export const ToolResult = v.optional(
  v.pipe(
    raw,
    v.transform(toRecord),
    v.transform((r) => {
      const fields: Rec = {};
      for (const [k, val] of Object.entries(r)) if (!(k in toolResultEntries)) fields[k] = val;
      return { ...compact(v.parse(ToolResultKeys, r)), fields };
    }),
  ),
  () => ({}),
);

export const TurnRecord = record({
  id: str,
  sessionId: str,
  prompt: str,
  /** running | done | failed | aborted | interrupted */
  state: str,
  errorCode: str,
  errorMessage: str,
  createdAt: num,
  updatedAt: num,
  /** 0 while running. */
  endedAt: num,
});

/**
 * api.Attachment: a file attached to a prompt, copied into the session's pasted folder;
 * sha256 names an image's prepared copy (served at /_attachments/<sha256>).
 */
export const Attachment = record({
  path: str,
  name: str,
  size: num,
  mediaType: str,
  sha256: str,
  width: num,
  height: num,
  imageBytes: num,
  imageMediaType: str,
});

/** provider.Block: text, thinking, tool_use, tool_result, redacted_thinking. */
export const Block = record({
  type: str,
  text: str,
  toolUseId: str,
  toolName: str,
  input: raw,
  isError: bool,
  /** A prompt's attachments (references, never bytes). */
  attachments: list(Attachment),
});

/** A path-scoped instruction file (AGENTS.md, else CLAUDE.md) loaded with a tool call's result. */
export const InstructionFile = record({
  /** Workspace-relative, forward slashes. */
  path: str,
  /** Bytes on disk. */
  size: num,
  /** Bytes the model received (the bounds may cut a file); 0 when skipped. */
  loaded: num,
  truncated: bool,
  /** Why it was not loaded; '' when it was. */
  skipped: str,
});

export const ToolCallRecord = record({
  id: str,
  turnId: str,
  messageId: str,
  toolUseId: str,
  position: num,
  tool: str,
  args: raw,
  /** pending, running, done, failed, aborted, skipped, interrupted. */
  state: strOr('pending'),
  result: v.nullish(ToolResult, null),
  modelText: str,
  isError: bool,
  errorCode: str,
  createdAt: num,
  startedAt: num,
  finishedAt: num,
  instructions: list(InstructionFile),
});

export const MessageRecord = record({
  seq: num,
  id: str,
  sessionId: str,
  turnId: str,
  role: str,
  /** prompt | model | summary */
  kind: str,
  content: list(Block),
  /** "" while streaming; end_turn, tool_use, max_tokens, other, aborted, failed, interrupted. */
  stopReason: str,
  toolCalls: list(ToolCallRecord),
  createdAt: num,
  updatedAt: num,
  /** A model response's tokens (zero for other messages). Usage is declared below, hence lazy. */
  usage: v.optional(v.lazy(() => Usage), {}),
  /** A model response's cost at the price of its time; null when unknown. */
  costUsd: numOrNull,
});

const transcriptEntries = {
  sessionId: str,
  turns: list(TurnRecord),
  messages: v.optional(
    v.pipe(list(MessageRecord), v.transform((ms) => ms.sort((a, b) => a.seq - b.seq))),
    () => [],
  ),
};

export const Transcript = record(transcriptEntries);

/** A run of whole turns of a transcript (agent.Page). */
export const TranscriptPage = record({
  ...transcriptEntries,
  /** Older turns exist before the first of `turns`. */
  more: bool,
});

// --- delegations: Task subagents' runs (backend/agent/delegate.go) -------------------------

/** One delegate run (agent.Delegation), as stored and as TaskList sees it. */
export const Delegation = record({
  id: str,
  sessionId: str,
  parentTurnId: str,
  /** The Task call that started it: its row in the parent's transcript. */
  parentToolCallId: str,
  /** The delegate's own turn. */
  turnId: str,
  subagent: str,
  /** builtin | user | project */
  source: str,
  description: str,
  prompt: str,
  tools: strList,
  state: oneOf(DELEGATION_STATES, 'failed'),
  /** Its last text: what TaskWait hands the parent. */
  report: str,
  errorCode: str,
  errorMessage: str,
  turnsUsed: num,
  toolCount: num,
  createdAt: num,
  /** 0 while it runs. */
  finishedAt: num,
  /** A writing delegate of an isolated session: its worktree's branch. */
  branch: str,
  /** '' | merged | unchanged | conflict | kept: how its worktree ended. */
  mergeState: str,
});

/** A delegate run with its own conversation (agent.DelegationPage). */
export const DelegationPage = record({
  delegation: Delegation,
  turns: list(TurnRecord),
  messages: v.optional(
    v.pipe(list(MessageRecord), v.transform((ms) => ms.sort((a, b) => a.seq - b.seq))),
    () => [],
  ),
});

// --- permission cards (backend/permission/broker.go) ------------------------------------

/** Where an MCP tool comes from. */
export const ToolOrigin = record({
  server: str,
  tool: str,
  title: str,
});

/** One simple command of a Bash card's command, as the shell parser sees it. */
export const CommandLine = record({
  text: str,
  /** Wrappers looked through: "timeout 10", "env". */
  wrappers: strList,
  /** allow (allowed by a rule) | ask (needs you) | deny */
  decision: str,
  reason: str,
  /** The rules that matched: "allow git status (project)". */
  rules: strList,
});

/** A file a Bash card's command would write. */
export const CommandWrite = record({
  /** As written. */
  path: str,
  /** Where it resolves; "" when unknown. */
  abs: str,
  /** workspace | scratch | visualization | external | null | unknown */
  root: str,
  /** ">", ">>", "tee", "dd of=" … */
  via: str,
  /** What a Write there needs: allow | ask | deny. */
  decision: str,
  reason: str,
});

/** What a Bash card's command would do (backend/permission/command.go); dialect "" = no command. */
export const CommandEffect = record({
  /** The command rules' answer for the whole command: allow | ask | deny. */
  decision: str,
  reason: str,
  /** posix | powershell | cmd */
  dialect: str,
  commands: list(CommandLine),
  writes: list(CommandWrite),
  matched: strList,
  parseError: str,
});

/** An "Always allow …" answer a card offers. */
export const RuleChoice = record({
  id: str,
  /** "git status" */
  words: str,
  /** session | project */
  scope: str,
  label: str,
});

export const ApprovalRequest = record({
  id: str,
  sessionId: str,
  turnId: str,
  toolCallId: str,
  tool: str,
  /** low | medium | high */
  risk: str,
  reason: str,
  /** Bounded, secrets redacted. */
  preview: str,
  path: str,
  external: bool,
  /** The change reaches a protected path (.git, the agent's configuration): it asks in every mode. */
  protected: bool,
  workspace: str,
  delegate: str,
  /** An MCP tool's server id, and the tool's own name and title there; "" for other tools. */
  server: str,
  serverTool: str,
  toolTitle: str,
  /**
   * Write/Edit: a bounded unified diff of what the call would change ("@@ -a,b +c,d @@"
   * headers, " ", "-", "+" lines, a final "[diff truncated: N more lines]" when cut);
   * "" when there is none. Parse it with lib/unifiedDiff.
   */
  diff: str,
  /** Why there is no diff (binary file, too large, the edit does not apply) or what it is ("new file"). */
  diffNote: str,
  createdAt: num,
  /** Bash: the command as the shell parser sees it. */
  command: CommandEffect,
  /** Bash: the "Always allow …" answers. */
  ruleChoices: list(RuleChoice),
});

// --- background tasks (backend/bgtask) -------------------------------------------------

export const BackgroundTask = record({
  id: str,
  sessionId: str,
  command: str,
  /** running | exited | failed | stopped … */
  state: str,
  exitCode: numOrNull,
  error: str,
  startedAt: millis,
  /** 0 while running. */
  endedAt: millis,
  removed: bool,
});

export const TaskStreamOutput = record({ text: str, truncated: bool, totalBytes: num });

export const TaskOutput = record({ task: BackgroundTask, stdout: TaskStreamOutput, stderr: TaskStreamOutput });

// --- the session checklist (TodoWrite, backend/agent) -----------------------------------

export const Todo = record({
  content: str,
  status: oneOf(TODO_STATUSES, 'pending'),
  /** The step as shown while it runs ("Running the tests"); "" when not given. */
  activeForm: str,
});

/** agent:todos: the session's checklist was replaced as a whole. */
export const TodosEvent = record({ sessionId: str, turnId: str, todos: list(Todo) });

// --- isolated sessions: git worktrees (backend/worktree) --------------------------------

export const WorktreeCommit = record({
  hash: str,
  author: str,
  /** Unix ms; 0 when unknown. */
  time: millis,
  subject: str,
});

export const WorktreeFileChange = record({ path: str, added: num, deleted: num, binary: bool });

/** What merging the session branch into the project branch would do. */
export const MergePreview = record({
  /** Pass back to merge(); a changed repository makes it stale. */
  token: str,
  projectBranch: str,
  projectHead: str,
  /** pi-desktop/<session id> */
  branch: str,
  worktreeHead: str,
  upToDate: bool,
  fastForward: bool,
  commits: list(WorktreeCommit),
  moreCommits: num,
  files: list(WorktreeFileChange),
  moreFiles: num,
  diff: str,
  diffTruncated: bool,
  conflicts: strList,
  conflictsUnknown: bool,
  syncInProgress: bool,
  /** Uncommitted files in the worktree: they are not merged. */
  uncommitted: strList,
  moreUncommitted: num,
});

export const MergeResult = record({
  projectBranch: str,
  from: str,
  to: str,
  upToDate: bool,
  synced: bool,
  syncCommit: str,
  fastForwarded: bool,
  commits: num,
});

/** worktree:setup: the project's setup command in a new isolated session. */
export const WorktreeSetupEvent = record({
  sessionId: str,
  /** running | done | failed */
  state: str,
  command: str,
  exitCode: v.fallback(v.nullable(v.pipe(v.number(), v.finite())), null),
  output: str,
  message: str,
});

/** WorkspaceFiles: files of a session's workspace matching a query, best first. */
export const WorkspaceFiles = record({
  /** '/'-separated, relative to the workspace (the worktree of an isolated session). */
  files: stringifiedList,
  /** More files match than listed: typing more narrows the list. */
  truncated: bool,
  /** The workspace's file index is still being built: more files may match later. */
  indexing: bool,
});

// --- decisions the agent waits for (backend/agent/ask.go, proposal.go) --------------------

export const AskOption = record({
  /** The answer value when chosen. */
  label: str,
  /** "" when the model gave none. */
  description: str,
});

export const AskQuestion = record({
  question: str,
  /** Empty: a free-text question. Go sends {label, description}; a bare string label is accepted as the model may send it. */
  options: v.optional(
    v.pipe(
      list(v.pipe(v.unknown(), v.transform((o) => (typeof o === 'string' ? { label: o } : o)), AskOption)),
      v.transform((os) => os.filter((o) => o.label !== '')),
    ),
    () => [],
  ),
  /** More than one option may be chosen. */
  multiSelect: bool,
});

/** One answer: the chosen option labels and any typed text; a skipped question has both empty. */
export const AskAnswer = record({ selected: strList, text: str });

/** An asktool call (agent.QuestionEvent): its questions, and once settled the answers. */
export const QuestionRequest = record({
  sessionId: str,
  turnId: str,
  toolCallId: str,
  questionId: str,
  questions: list(AskQuestion),
  /** An unknown state is treated as settled: a card never offers buttons it cannot honour. */
  state: oneOf(QUESTION_STATES, 'skipped'),
  /** One per question once answered; empty while pending. */
  answers: list(AskAnswer),
  createdAt: num,
});

/** A submitted plan or goal (agent.Proposal). */
export const Proposal = record({
  proposalId: str,
  sessionId: str,
  turnId: str,
  toolCallId: str,
  kind: oneOf(PROPOSAL_KINDS, 'plan'),
  /** Counts the session's proposals: 1, 2, … */
  version: num,
  title: str,
  /** The question shown with the buttons. */
  question: str,
  /** The exact Markdown the agent submitted. */
  markdown: str,
  /** Workspace-relative artifact path, e.g. .pi/plan/add-login-1.md. */
  path: str,
  sha256: str,
  size: num,
  state: oneOf(PROPOSAL_STATES, 'interrupted'),
  /** The mode the session continues in (approved only); "" otherwise. */
  permissionMode: oneOf([...PERMISSION_MODES, ''], ''),
  feedback: str,
  createdAt: num,
  /** 0 while pending. */
  resolvedAt: num,
});

// --- live events: one schema per event name, each tagged with its type ---------------------

/** The payload's fields, tagged with the event's type. */
function tagged<const T extends string, E extends Entries>(type: T, entries: E) {
  return v.pipe(record(entries), v.transform((p) => ({ type, ...p })));
}

const inTurn = { sessionId: str, turnId: str };
/** A delegate's own events carry its delegation id ("" for the session's own run). */
const inRun = { ...inTurn, delegationId: str };
const delta = { ...inRun, messageId: str, delta: str };

export const agentEvents = {
  [EVENT.agentTurn]: tagged('turn', {
    ...inRun,
    state: oneOf(TURN_STATES, 'failed'),
    code: str,
    message: str,
    retriable: bool,
    /** Set on a same-turn retry of the model call; the partial message was dropped. */
    retry: str,
  }),
  [EVENT.agentMessage]: tagged('message', {
    ...inRun,
    messageId: str,
    role: str,
    /** prompt | model | summary */
    kind: str,
    /** streaming, then the stop reason. */
    state: str,
    /** An ended model response's tokens; zero while streaming and for other messages. */
    usage: v.optional(v.lazy(() => Usage), {}),
    /** An ended model response's cost; null when unknown (never 0 for unknown). */
    costUsd: numOrNull,
  }),
  [EVENT.agentText]: tagged('text', delta),
  [EVENT.agentThinking]: tagged('thinking', delta),
  [EVENT.agentToolCall]: tagged('tool_call', {
    ...inRun,
    messageId: str,
    toolCallId: str,
    toolUseId: str,
    tool: str,
    /** started: a call that waited on a card starts its run after the answer. */
    phase: oneOf(['streaming', 'ready', 'running', 'started'], 'streaming'),
    argsDelta: str,
    args: raw,
    /** An MCP tool's origin: the server's id, the tool's own name and title; null for other tools. */
    mcp: v.nullish(ToolOrigin, null),
    /** On started: how long the call waited for the user's answer. */
    waitedMs: num,
  }),
  [EVENT.agentToolResult]: tagged('tool_result', {
    ...inRun,
    messageId: str,
    toolCallId: str,
    toolUseId: str,
    tool: str,
    state: oneOf(['done', 'failed', 'aborted', 'skipped'], 'failed'),
    result: ToolResult,
    modelText: str,
    isError: bool,
    /** Path instruction files loaded with this result. */
    instructions: list(InstructionFile),
  }),
  [EVENT.agentContext]: tagged('context', {
    ...inTurn,
    state: oneOf(['compacting', 'done', 'failed'], 'compacting'),
    code: str,
    tokensBefore: num,
    tokensAfter: num,
  }),
  /** A delegate run started, changed (state, tool count) or ended. */
  [EVENT.agentDelegation]: tagged('delegation', {
    sessionId: str,
    delegationId: str,
    parentTurnId: str,
    parentToolCallId: str,
    turnId: str,
    subagent: str,
    description: str,
    state: oneOf(DELEGATION_STATES, 'failed'),
    /** How long it has run when the event was sent. */
    elapsedMs: num,
    toolCount: num,
    turnsUsed: num,
    code: str,
    message: str,
    branch: str,
    mergeState: str,
  }),
  /** Live Bash output, and an MCP call's progress lines (stream "progress"). */
  [EVENT.toolOutput]: tagged('tool_output', {
    sessionId: str,
    toolCallId: str,
    stream: oneOf(['stdout', 'stderr', 'progress'], 'stdout'),
    seq: num,
    text: str,
    /** The live stream stopped here; the rest comes with the result. */
    paused: bool,
  }),
};

export const permissionEvents = {
  [EVENT.permissionRequest]: v.pipe(
    ApprovalRequest,
    v.transform((request) => ({ type: 'permission_request' as const, sessionId: request.sessionId, request })),
  ),
  [EVENT.permissionResolved]: tagged('permission_resolved', {
    sessionId: str,
    id: str,
    outcome: oneOf(APPROVAL_OUTCOMES, 'cancelled'),
    /** The chosen rule's label when outcome is allow-rule. */
    rule: str,
  }),
};

function taskLifecycle<const T extends string>(type: T) {
  return v.pipe(BackgroundTask, v.transform((task) => ({ type, sessionId: task.sessionId, task })));
}

export const taskEvents = {
  [EVENT.taskStarted]: taskLifecycle('task_started'),
  [EVENT.taskExited]: taskLifecycle('task_exited'),
  [EVENT.taskOutput]: tagged('task_output', { sessionId: str, taskId: str, stdoutBytes: num, stderrBytes: num }),
};

export const decisionEvents = {
  [EVENT.agentQuestion]: v.pipe(
    QuestionRequest,
    v.transform((question) => ({ type: 'question' as const, sessionId: question.sessionId, question })),
  ),
  [EVENT.agentProposal]: v.pipe(
    Proposal,
    v.transform((proposal) => ({ type: 'proposal' as const, sessionId: proposal.sessionId, proposal })),
  ),
};

/** The union of what a family's schemas produce. */
export type EventOf<F extends Record<string, v.GenericSchema>> = Out<F[keyof F]>;

// --- command rules (backend/api/commandrules.go) ------------------------------------

export const RULE_DECISIONS = ['allow', 'ask', 'deny'] as const;
export const RULE_SCOPES = ['session', 'project', 'global'] as const;
export const RULE_SHELLS = ['posix', 'powershell', 'cmd'] as const;

/** One command rule as Settings → Permissions lists it. */
export const CommandRule = record({
  id: str,
  /** An unknown decision reads as ask: nothing is shown as allowed that is not. */
  decision: oneOf(RULE_DECISIONS, 'ask'),
  program: str,
  /** The first words of the arguments it matches ([] = any). */
  args: strList,
  scope: oneOf(RULE_SCOPES, 'global'),
  note: str,
  /** A project rule's project; name and path are "" in a check's matched rules. */
  projectId: str,
  projectName: str,
  projectPath: str,
  /** A session rule's session. */
  sessionId: str,
  sessionTitle: str,
  createdAt: num,
});

/** One simple command of a checked command, with its decision and why. */
export const CheckedCommand = record({
  text: str,
  /** The wrappers looked through: "timeout 10", "nice". */
  wrappers: strList,
  program: str,
  args: strList,
  decision: oneOf(RULE_DECISIONS, 'ask'),
  label: str,
  reason: str,
  /** The rules it matched, strictest first. */
  rules: list(CommandRule),
  /** A construct no rule can allow (eval, sh -c, …). */
  alwaysAsk: bool,
});

/** A file a checked command would write, as written. */
export const CheckedWrite = record({
  path: str,
  /** False when the path is only known when the shell runs it. */
  static: bool,
  via: str,
  /** Index in commands of the command that writes; -1 for a compound command's redirection. */
  command: v.fallback(v.pipe(v.number(), v.finite()), -1),
});

/** How the rules decide a command: the same facts `pi-desktop rules check` prints. */
export const CommandCheck = record({
  decision: oneOf(RULE_DECISIONS, 'ask'),
  label: str,
  reason: str,
  commands: list(CheckedCommand),
  writes: list(CheckedWrite),
  /** The "Always allow" choices a card would offer: "git status". */
  suggestions: strList,
  parseError: str,
  shell: oneOf(RULE_SHELLS, 'posix'),
});

// --- what a turn costs (backend/agent spend.go, hostcore costs.go) ---------------------

/** Tokens of one or more model responses; input is the whole prompt, the cache figures parts of it. */
export const Usage = record({ inputTokens: num, outputTokens: num, cacheReadTokens: num, cacheWriteTokens: num });

/** A cost in US dollars; null when unknown (a local model, a model without a price), never 0 for unknown. */
const costUsd = numOrNull;

/** The session header's figures: the session's cost so far and its context in use. */
export const SessionCost = record({
  usage: record({
    sessionId: str,
    costUsd,
    /** Responses whose cost is unknown, left out of costUsd. */
    unpriced: num,
    responses: num,
    usage: Usage,
    /** The whole prompt of the session's last request. */
    contextTokens: num,
  }),
  /** The model's context window in tokens; 0 = unknown. */
  contextWindow: num,
});

/** One provider's model responses on one local day. */
export const DaySpend = record({
  /** YYYY-MM-DD in the user's time zone. */
  day: str,
  providerId: str,
  /** "" when the provider was removed since, or the model came from the environment. */
  providerName: str,
  model: str,
  costUsd,
  unpriced: num,
  responses: num,
  usage: Usage,
});

export const SpendPerDay = list(DaySpend);

// --- checkpoints (backend/checkpoint) ------------------------------------------------

/** One snapshot of a session's workspace, or the record that one was not captured (reason). */
export const Checkpoint = record({
  id: str,
  sessionId: str,
  turnId: str,
  messageId: str,
  toolCallId: str,
  /** before-first-mutation | after-bash | end-of-turn | before-restore | after-restore */
  kind: str,
  workspace: str,
  captured: bool,
  reason: str,
  filesChanged: num,
  createdAt: num,
});

/** A file a restore changes, would change, or skipped. */
export const RestoreFile = record({
  /** Workspace-relative, '/'-separated. */
  path: str,
  /** create (missing now: written back) | modify | delete (created since: removed) */
  action: str,
  /** Git modes: "100644", "100755", "120000" (a link); "" when absent. */
  modeNow: str,
  modeThen: str,
  /** Changed since the session's latest checkpoint by someone other than the agent. */
  conflict: bool,
  /** Why it was (or will be) left alone. */
  skipped: str,
  /** Unified diff from now to the checkpoint ("" with a note: binary, too large, a link). */
  diff: str,
  note: str,
  additions: num,
  deletions: num,
});

export const RestorePlan = record({ checkpoint: Checkpoint, files: list(RestoreFile), conflicts: num });

/** What a restore did; restoring `before` undoes it. */
export const RestoreResult = record({ checkpoint: Checkpoint, before: Checkpoint, restored: list(RestoreFile), skipped: list(RestoreFile) });

/** A file one Bash call changed, with the diff from before the call to after it. */
export const CommandFile = record({
  path: str,
  /** added | modified | deleted */
  status: str,
  modeBefore: str,
  modeAfter: str,
  diff: str,
  note: str,
  additions: num,
  deletions: num,
});

/** What one Bash call changed in the workspace (captured false: unknown, with the reason). */
export const CommandChange = record({
  checkpointId: str,
  turnId: str,
  messageId: str,
  toolCallId: str,
  captured: bool,
  reason: str,
  createdAt: num,
  files: list(CommandFile),
  /** The checkpoint compared with; edits by Write/Edit since it show too. */
  since: str,
  truncated: bool,
});

/** The disk a project's checkpoints take. */
export const CheckpointUsage = record({ projectId: str, bytes: num, checkpoints: num, shadows: num });

// --- plugins (backend/api/plugins.go) -----------------------------------------------

export const PLUGIN_RISKS = ['low', 'medium', 'high'] as const;

/** One agent tool a plugin contributes; an unknown risk reads as medium, never low. */
export const PluginTool = record({
  name: str,
  modelName: str,
  risk: oneOf(PLUGIN_RISKS, 'medium'),
  planSafeActions: strList,
  description: str,
});

/** One MCP server a plugin contributes: the command it runs, or the URL it reaches. */
export const PluginServer = record({ id: str, transport: str, command: str, args: strList, url: str });

/** What a plugin contributes and asks for: the consent card, as the CLI prints it. */
export const PluginSummary = record({
  id: str,
  name: str,
  version: str,
  description: str,
  author: str,
  permissions: strList,
  command: str,
  args: strList,
  tools: list(PluginTool),
  skills: strList,
  subagents: strList,
  commands: strList,
  mcpServers: list(PluginServer),
  warnings: strList,
  files: num,
  hash: str,
});

/** An installed plugin with its state. */
/** One project's own choice for a plugin: it wins over the app-wide switch there, either way. */
export const PluginProject = record({ projectId: str, enabled: bool });

/** A project's state for a plugin as setPluginProject takes it ('app': follow the app-wide switch). */
export const PLUGIN_PROJECT_STATES = ['on', 'off', 'app'] as const;

export const Plugin = record({
  summary: PluginSummary,
  path: str,
  /** The app-wide switch: every project without a choice of its own, and sessions without a project. */
  enabled: bool,
  consented: bool,
  changed: bool,
  running: bool,
  /** The projects that made their own choice; every other project follows enabled. */
  projects: list(PluginProject),
});

/** A plugin checked and staged, not installed: its consent card (cancelled: the dialog was closed). */
export const PluginStaged = record({
  token: str,
  cancelled: bool,
  summary: PluginSummary,
  installedVersion: str,
  unchanged: bool,
});
// --- the Files pane (backend/api/files.go) -----------------------------------------

/** A workspace file the session's agent wrote (an artifact). */
export const Artifact = record({
  /** '/'-separated, relative to the workspace. */
  path: str,
  firstMessageId: str,
  lastMessageId: str,
  updatedAt: num,
  /** Still a file of the workspace. */
  exists: bool,
});

export const FolderEntry = record({ name: str, path: str, dir: bool });

/** One level of the workspace tree. */
export const FolderListing = record({ path: str, entries: list(FolderEntry), truncated: bool });

/** A file as the read-only viewer shows it: text, or a note when binary or too large. */
export const FileView = record({
  path: str,
  size: num,
  stamp: str,
  text: str,
  binary: bool,
  tooLarge: bool,
  note: str,
});

export const FileStamp = record({ exists: bool, stamp: str });
// --- BrowserPreview (backend/api/preview.go) -----------------------------------

export const PreviewState = record({
  sessionId: str,
  kind: str, // file | url
  url: str,
  target: str,
  title: str,
  revision: num,
});
export const PreviewClosed = record({ sessionId: str });

// Pure normalizers from the Go JSON (as Wails delivers it) to the plain shapes in
// types.ts. No wailsjs import here, so the fake bridge in tests reuses them and emits
// exactly what the real bridge would.
import type {
  AgentEvent,
  ApprovalOutcome,
  AskAnswer,
  AskQuestion,
  DecisionEvent,
  PermissionMode,
  Proposal,
  ProposalState,
  QuestionRequest,
  ApprovalRequest,
  BackgroundTask,
  Block,
  MergePreview,
  MergeResult,
  MessageRecord,
  PermissionEvent,
  ReviewChange,
  ReviewHunk,
  TaskEvent,
  TaskOutput,
  TaskStreamOutput,
  Todo,
  TodosEvent,
  ToolCallRecord,
  ToolResult,
  Transcript,
  TranscriptPage,
  TurnRecord,
  TurnState,
  WorktreeSetupEvent,
} from './types';

type Rec = Record<string, unknown>;

function isRecord(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function rec(v: unknown): Rec {
  return isRecord(v) ? v : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

function bool(v: unknown): boolean {
  return v === true;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** A Go time.Time (RFC 3339 string) or Unix ms to Unix ms; 0 for the zero time or junk. */
export function toMillis(v: unknown): number {
  if (typeof v === 'number') return Number.isFinite(v) ? v : 0;
  if (typeof v !== 'string' || v === '' || v.startsWith('0001-01-01')) return 0;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * A Go json.RawMessage as it may arrive: already a JSON value (the normal case), a
 * JSON string, or the byte array the generated TS types claim. Undecodable input is
 * returned as is.
 */
export function parseRaw(v: unknown): unknown {
  if (Array.isArray(v) && v.length > 0 && v.every((b) => typeof b === 'number' && b >= 0 && b <= 255)) {
    try {
      return JSON.parse(new TextDecoder().decode(new Uint8Array(v as number[])));
    } catch {
      return v;
    }
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (t.startsWith('{') || t.startsWith('[')) {
      try {
        return JSON.parse(t);
      } catch {
        return v;
      }
    }
  }
  return v;
}

const RESULT_KEYS = new Set([
  'ok', 'code', 'message', 'details', 'root', 'path', 'content', 'truncated', 'notice', 'traceId', 'decision',
  'exitCode', 'stdout', 'stderr', 'backgroundTaskId', 'review',
]);

export function hunk(v: unknown): ReviewHunk {
  const h = rec(v);
  return {
    oldStart: num(h.oldStart),
    oldLines: num(h.oldLines),
    newStart: num(h.newStart),
    newLines: num(h.newLines),
    lines: list(h.lines).map(str),
  };
}

export function reviewChange(v: unknown): ReviewChange {
  const c = rec(v);
  return {
    snapshotId: str(c.snapshotId),
    messageId: str(c.messageId),
    path: str(c.path),
    operation: str(c.operation),
    status: str(c.status),
    state: str(c.state) || 'active',
    additions: num(c.additions),
    deletions: num(c.deletions),
    hunks: list(c.hunks).map(hunk),
    binary: bool(c.binary),
    truncated: bool(c.truncated),
    reversible: bool(c.reversible),
    sessionId: str(c.sessionId),
    toolCallId: str(c.toolCallId),
    groupId: str(c.groupId),
    createdAt: num(c.createdAt),
  };
}

export function toolResult(v: unknown): ToolResult {
  const r = rec(parseRaw(v));
  const fields: Rec = {};
  for (const [k, val] of Object.entries(r)) if (!RESULT_KEYS.has(k)) fields[k] = val;
  return {
    ok: bool(r.ok),
    code: str(r.code),
    message: str(r.message),
    details: rec(r.details),
    root: str(r.root),
    path: str(r.path),
    content: str(r.content),
    truncated: bool(r.truncated),
    notice: str(r.notice),
    traceId: str(r.traceId),
    decision: str(r.decision),
    ...(typeof r.exitCode === 'number' ? { exitCode: r.exitCode } : {}),
    ...(typeof r.stdout === 'string' ? { stdout: r.stdout } : {}),
    ...(typeof r.stderr === 'string' ? { stderr: r.stderr } : {}),
    ...(typeof r.backgroundTaskId === 'string' ? { backgroundTaskId: r.backgroundTaskId } : {}),
    review: list(r.review).map(reviewChange),
    fields,
  };
}

function block(v: unknown): Block {
  const b = rec(v);
  return {
    type: str(b.type),
    text: str(b.text),
    toolUseId: str(b.toolUseId),
    toolName: str(b.toolName),
    input: parseRaw(b.input),
    isError: bool(b.isError),
  };
}

function toolCallRecord(v: unknown): ToolCallRecord {
  const c = rec(v);
  return {
    id: str(c.id),
    turnId: str(c.turnId),
    messageId: str(c.messageId),
    toolUseId: str(c.toolUseId),
    position: num(c.position),
    tool: str(c.tool),
    args: parseRaw(c.args),
    state: str(c.state) || 'pending',
    result: c.result === undefined || c.result === null ? null : toolResult(c.result),
    modelText: str(c.modelText),
    isError: bool(c.isError),
    errorCode: str(c.errorCode),
    createdAt: num(c.createdAt),
    startedAt: num(c.startedAt),
    finishedAt: num(c.finishedAt),
  };
}

function turnRecord(v: unknown): TurnRecord {
  const t = rec(v);
  return {
    id: str(t.id),
    sessionId: str(t.sessionId),
    prompt: str(t.prompt),
    state: str(t.state),
    errorCode: str(t.errorCode),
    errorMessage: str(t.errorMessage),
    createdAt: num(t.createdAt),
    updatedAt: num(t.updatedAt),
    endedAt: num(t.endedAt),
  };
}

function messageRecord(v: unknown): MessageRecord {
  const m = rec(v);
  return {
    seq: num(m.seq),
    id: str(m.id),
    sessionId: str(m.sessionId),
    turnId: str(m.turnId),
    role: str(m.role),
    kind: str(m.kind),
    content: list(m.content).map(block),
    stopReason: str(m.stopReason),
    toolCalls: list(m.toolCalls).map(toolCallRecord),
    createdAt: num(m.createdAt),
    updatedAt: num(m.updatedAt),
  };
}

export function transcript(v: unknown): Transcript {
  const t = rec(v);
  return {
    sessionId: str(t.sessionId),
    turns: list(t.turns).map(turnRecord),
    messages: list(t.messages).map(messageRecord).sort((a, b) => a.seq - b.seq),
  };
}

export function transcriptPage(v: unknown): TranscriptPage {
  return { ...transcript(v), more: bool(rec(v).more) };
}

export function approvalRequest(v: unknown): ApprovalRequest {
  const r = rec(v);
  return {
    id: str(r.id),
    sessionId: str(r.sessionId),
    turnId: str(r.turnId),
    toolCallId: str(r.toolCallId),
    tool: str(r.tool),
    risk: str(r.risk),
    reason: str(r.reason),
    preview: str(r.preview),
    path: str(r.path),
    external: bool(r.external),
    workspace: str(r.workspace),
    delegate: str(r.delegate),
    diff: str(r.diff),
    diffNote: str(r.diffNote),
    createdAt: num(r.createdAt),
  };
}

export function backgroundTask(v: unknown): BackgroundTask {
  const t = rec(v);
  return {
    id: str(t.id),
    sessionId: str(t.sessionId),
    command: str(t.command),
    state: str(t.state),
    exitCode: typeof t.exitCode === 'number' ? t.exitCode : null,
    error: str(t.error),
    startedAt: toMillis(t.startedAt),
    endedAt: toMillis(t.endedAt),
    removed: bool(t.removed),
  };
}

function streamOutput(v: unknown): TaskStreamOutput {
  const s = rec(v);
  return { text: str(s.text), truncated: bool(s.truncated), totalBytes: num(s.totalBytes) };
}

export function taskOutput(v: unknown): TaskOutput {
  const o = rec(v);
  return { task: backgroundTask(o.task), stdout: streamOutput(o.stdout), stderr: streamOutput(o.stderr) };
}

const TODO_STATUSES: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);

export function todo(v: unknown): Todo {
  const t = rec(v);
  const status = str(t.status);
  return {
    content: str(t.content),
    status: (TODO_STATUSES.has(status) ? status : 'pending') as Todo['status'],
    activeForm: str(t.activeForm),
  };
}

/** agent:todos; null without a session id. */
export function todosEvent(payload: unknown): TodosEvent | null {
  const p = rec(payload);
  const sessionId = str(p.sessionId);
  if (sessionId === '') return null;
  return { sessionId, turnId: str(p.turnId), todos: list(p.todos).map(todo) };
}

const TURN_STATES: ReadonlySet<string> = new Set(['running', 'done', 'failed', 'aborted', 'interrupted']);

/** Normalizes one agent:* or tool:output payload; null for an unknown event name. */
export function agentEvent(name: string, payload: unknown): AgentEvent | null {
  const p = rec(payload);
  const base = { sessionId: str(p.sessionId), turnId: str(p.turnId) };
  switch (name) {
    case 'agent:turn': {
      const state = str(p.state);
      return {
        type: 'turn',
        ...base,
        state: (TURN_STATES.has(state) ? state : 'failed') as TurnState,
        code: str(p.code),
        message: str(p.message),
        retriable: bool(p.retriable),
        retry: str(p.retry),
      };
    }
    case 'agent:message':
      return { type: 'message', ...base, messageId: str(p.messageId), role: str(p.role), kind: str(p.kind), state: str(p.state) };
    case 'agent:text':
    case 'agent:thinking':
      return { type: name === 'agent:text' ? 'text' : 'thinking', ...base, messageId: str(p.messageId), delta: str(p.delta) };
    case 'agent:tool_call': {
      const phase = str(p.phase);
      return {
        type: 'tool_call',
        ...base,
        messageId: str(p.messageId),
        toolCallId: str(p.toolCallId),
        toolUseId: str(p.toolUseId),
        tool: str(p.tool),
        phase: phase === 'ready' || phase === 'running' ? phase : 'streaming',
        argsDelta: str(p.argsDelta),
        args: parseRaw(p.args),
      };
    }
    case 'agent:tool_result': {
      const state = str(p.state);
      return {
        type: 'tool_result',
        ...base,
        messageId: str(p.messageId),
        toolCallId: str(p.toolCallId),
        toolUseId: str(p.toolUseId),
        tool: str(p.tool),
        state: state === 'done' || state === 'aborted' || state === 'skipped' ? state : 'failed',
        result: toolResult(p.result),
        modelText: str(p.modelText),
        isError: bool(p.isError),
      };
    }
    case 'agent:context': {
      const state = str(p.state);
      return {
        type: 'context',
        ...base,
        state: state === 'done' || state === 'failed' ? state : 'compacting',
        code: str(p.code),
        tokensBefore: num(p.tokensBefore),
        tokensAfter: num(p.tokensAfter),
      };
    }
    case 'tool:output':
      return {
        type: 'tool_output',
        sessionId: str(p.sessionId),
        toolCallId: str(p.toolCallId),
        stream: p.stream === 'stderr' ? 'stderr' : 'stdout',
        seq: num(p.seq),
        text: str(p.text),
        paused: bool(p.paused),
      };
    default:
      return null;
  }
}

const OUTCOMES: ReadonlySet<string> = new Set(['allow-once', 'allow-session', 'deny', 'cancelled', 'timeout', 'shutdown']);

export function permissionEvent(name: string, payload: unknown): PermissionEvent | null {
  const p = rec(payload);
  if (name === 'permission:request') {
    const request = approvalRequest(p);
    return { type: 'permission_request', sessionId: request.sessionId, request };
  }
  if (name === 'permission:resolved') {
    const outcome = str(p.outcome);
    return {
      type: 'permission_resolved',
      sessionId: str(p.sessionId),
      id: str(p.id),
      outcome: (OUTCOMES.has(outcome) ? outcome : 'cancelled') as ApprovalOutcome,
    };
  }
  return null;
}

export function taskEvent(name: string, payload: unknown): TaskEvent | null {
  const p = rec(payload);
  switch (name) {
    case 'task:started':
    case 'task:exited': {
      const task = backgroundTask(p);
      return { type: name === 'task:started' ? 'task_started' : 'task_exited', sessionId: task.sessionId, task };
    }
    case 'task:output':
      return { type: 'task_output', sessionId: str(p.sessionId), taskId: str(p.taskId), stdoutBytes: num(p.stdoutBytes), stderrBytes: num(p.stderrBytes) };
    default:
      return null;
  }
}

// --- worktrees -----------------------------------------------------------------

function strList(v: unknown): string[] {
  return list(v).filter((x): x is string => typeof x === 'string');
}

export function mergePreview(v: unknown): MergePreview {
  const p = rec(v);
  return {
    token: str(p.token),
    projectBranch: str(p.projectBranch),
    projectHead: str(p.projectHead),
    branch: str(p.branch),
    worktreeHead: str(p.worktreeHead),
    upToDate: bool(p.upToDate),
    fastForward: bool(p.fastForward),
    commits: list(p.commits).map((c) => {
      const r = rec(c);
      return { hash: str(r.hash), author: str(r.author), time: toMillis(r.time), subject: str(r.subject) };
    }),
    moreCommits: num(p.moreCommits),
    files: list(p.files).map((f) => {
      const r = rec(f);
      return { path: str(r.path), added: num(r.added), deleted: num(r.deleted), binary: bool(r.binary) };
    }),
    moreFiles: num(p.moreFiles),
    diff: str(p.diff),
    diffTruncated: bool(p.diffTruncated),
    conflicts: strList(p.conflicts),
    conflictsUnknown: bool(p.conflictsUnknown),
    syncInProgress: bool(p.syncInProgress),
    uncommitted: strList(p.uncommitted),
    moreUncommitted: num(p.moreUncommitted),
  };
}

export function mergeResult(v: unknown): MergeResult {
  const p = rec(v);
  return {
    projectBranch: str(p.projectBranch),
    from: str(p.from),
    to: str(p.to),
    upToDate: bool(p.upToDate),
    synced: bool(p.synced),
    syncCommit: str(p.syncCommit),
    fastForwarded: bool(p.fastForwarded),
    commits: num(p.commits),
  };
}

export function worktreeSetupEvent(payload: unknown): WorktreeSetupEvent | null {
  const p = rec(payload);
  const sessionId = str(p.sessionId);
  if (sessionId === '') return null;
  return {
    sessionId,
    state: str(p.state),
    command: str(p.command),
    exitCode: typeof p.exitCode === 'number' && Number.isFinite(p.exitCode) ? p.exitCode : null,
    output: str(p.output),
    message: str(p.message),
  };
}

// --- decisions (asktool questions, Plan/Goal proposals) ---------------------------

function askQuestion(v: unknown): AskQuestion {
  const q = rec(v);
  return {
    question: str(q.question),
    // Go sends {label, description}; a bare string label is accepted as the model may send it.
    options: list(q.options)
      .map((o) => (typeof o === 'string' ? { label: o, description: '' } : { label: str(rec(o).label), description: str(rec(o).description) }))
      .filter((o) => o.label !== ''),
    multiSelect: bool(q.multiSelect),
  };
}

export function askAnswer(v: unknown): AskAnswer {
  const a = rec(v);
  return { selected: strList(a.selected), text: str(a.text) };
}

const QUESTION_STATES: ReadonlySet<string> = new Set(['pending', 'answered', 'skipped']);

export function questionRequest(v: unknown): QuestionRequest {
  const q = rec(v);
  const state = str(q.state);
  return {
    sessionId: str(q.sessionId),
    turnId: str(q.turnId),
    toolCallId: str(q.toolCallId),
    questionId: str(q.questionId),
    questions: list(q.questions).map(askQuestion),
    // An unknown state is treated as settled: a card never offers buttons it cannot honour.
    state: (QUESTION_STATES.has(state) ? state : 'skipped') as QuestionRequest['state'],
    answers: list(q.answers).map(askAnswer),
    createdAt: num(q.createdAt),
  };
}

const PROPOSAL_STATES: ReadonlySet<string> = new Set(['pending', 'approved', 'rejected', 'cancelled', 'interrupted']);
const PERMISSION_MODES: ReadonlySet<string> = new Set(['ask', 'accept-edits', 'auto']);

export function proposal(v: unknown): Proposal {
  const p = rec(v);
  const state = str(p.state);
  const mode = str(p.permissionMode);
  return {
    proposalId: str(p.proposalId),
    sessionId: str(p.sessionId),
    turnId: str(p.turnId),
    toolCallId: str(p.toolCallId),
    kind: p.kind === 'goal' ? 'goal' : 'plan',
    version: num(p.version),
    title: str(p.title),
    question: str(p.question),
    markdown: str(p.markdown),
    path: str(p.path),
    sha256: str(p.sha256),
    size: num(p.size),
    state: (PROPOSAL_STATES.has(state) ? state : 'interrupted') as ProposalState,
    permissionMode: PERMISSION_MODES.has(mode) ? (mode as PermissionMode) : '',
    feedback: str(p.feedback),
    createdAt: num(p.createdAt),
    resolvedAt: num(p.resolvedAt),
  };
}

/** Normalizes agent:question or agent:proposal; null for another name or a payload without an id. */
export function decisionEvent(name: string, payload: unknown): DecisionEvent | null {
  if (name === 'agent:question') {
    const question = questionRequest(payload);
    return question.questionId === '' ? null : { type: 'question', sessionId: question.sessionId, question };
  }
  if (name === 'agent:proposal') {
    const p = proposal(payload);
    return p.proposalId === '' ? null : { type: 'proposal', sessionId: p.sessionId, proposal: p };
  }
  return null;
}

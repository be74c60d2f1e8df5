// Pure state of one session's transcript: a stored Transcript plus the live agent,
// tool-output and permission events turned into an ordered list of view items.
// Every item is immutable; an update replaces the item, so memoized rows re-render
// only when their own item changed.
import type { Attachment } from '../bridge/attachments';
import type {
  AgentEvent,
  ApprovalOutcome,
  ApprovalRequest,
  Delegation,
  DelegationPage,
  DelegationState,
  InstructionFile,
  MessageRecord,
  PermissionEvent,
  ToolCallRecord,
  ToolOrigin,
  ToolResult,
  Transcript,
  TurnRecord,
  TurnState,
  Usage,
} from '../bridge/types';

export type ToolStatus = 'streaming' | 'pending' | 'running' | 'done' | 'failed' | 'aborted' | 'skipped' | 'interrupted';

export interface OutputChunk {
  /** progress: an MCP server's progress notification, one line each. */
  stream: 'stdout' | 'stderr' | 'progress';
  seq: number;
  text: string;
}

export interface PromptItem {
  kind: 'prompt';
  key: string;
  turnId: string;
  messageId: string;
  text: string;
  /** The files attached to the prompt (references; stored with it, so a reload shows them). */
  attachments?: Attachment[];
}

export interface TextItem {
  kind: 'text' | 'thinking';
  key: string;
  turnId: string;
  messageId: string;
  /** Markdown source (text) or plain thinking. */
  text: string;
  streaming: boolean;
  /** The ended model response's tokens and cost, on the last text item of its message. */
  usage?: MessageUsage;
}

/** One model response's tokens and cost, shown under its message. */
export interface MessageUsage {
  usage: Usage;
  /** null when no price is known: shown as "—", never as $0. */
  costUsd: number | null;
}

export interface ToolItem {
  kind: 'tool';
  key: string;
  turnId: string;
  messageId: string;
  toolCallId: string;
  toolUseId: string;
  tool: string;
  /**
   * An MCP tool's server and own name, as its tool_call event said; null for other tools
   * and for calls loaded from the stored transcript (the catalog names those).
   */
  mcp: ToolOrigin | null;
  /** Parsed arguments once complete; null while they stream. */
  args: unknown;
  /** Raw argument JSON as it streams. */
  argsText: string;
  status: ToolStatus;
  /**
   * Unix ms; 0 when unknown. A call that waited on a card counts from the user's answer
   * (its run), not from the card: the wait is waitedMs.
   */
  startedAt: number;
  finishedAt: number;
  /** How long its approval card waited for the user (0: no card, or not known yet). */
  waitedMs: number;
  result: ToolResult | null;
  modelText: string;
  isError: boolean;
  /** Live Bash output and MCP progress lines, ordered per stream. */
  output: OutputChunk[];
  /** The live stream stopped (size limit) or older chunks were dropped. */
  outputPaused: boolean;
  /** Its model response's tokens and cost, when the message has no text to carry them. */
  usage?: MessageUsage;
  /** Path instruction files (AGENTS.md, CLAUDE.md) loaded with the result. */
  instructions: InstructionFile[];
}

export interface ApprovalItem {
  kind: 'approval';
  /** `approval:<sessionId>:<requestId>`: keyed by session and request. */
  key: string;
  turnId: string;
  request: ApprovalRequest;
  /** null while pending. */
  outcome: ApprovalOutcome | null;
  /** The rule an allow-rule answer saved ("Always allow git status in this project"). */
  rule?: string;
}

export interface TurnStatusItem {
  kind: 'turn-status';
  key: string;
  turnId: string;
  state: 'failed' | 'aborted' | 'interrupted';
  code: string;
  message: string;
  retriable: boolean;
}

export interface NoticeItem {
  kind: 'notice';
  key: string;
  turnId: string;
  tone: 'info' | 'error';
  text: string;
  code: string;
  /** Collapsed detail, e.g. the text of a context summary. */
  detail: string;
}

export type TranscriptItem = PromptItem | TextItem | ToolItem | ApprovalItem | TurnStatusItem | NoticeItem;

/**
 * A delegate run (a Task subagent) as its Task row shows it: the record the
 * agent:delegation events (or the stored list) give, and its own conversation, built by
 * this same reducer from the events that carry its delegationId (or from its stored
 * turn). Nothing of it ever enters the parent's items.
 */
export interface DelegateRun {
  id: string;
  /** The Task call that started it: the row it lives in. */
  parentToolCallId: string;
  parentTurnId: string;
  /** The delegate's own turn ("" until known). */
  turnId: string;
  subagent: string;
  description: string;
  state: DelegationState;
  /** How long it had run at seenAt (Unix ms); while it runs the row adds the time since. */
  elapsedMs: number;
  seenAt: number;
  /** An agent:delegation event about it reached this window. */
  seenLive: boolean;
  toolCount: number;
  code: string;
  message: string;
  /** A writing delegate of an isolated session: its worktree's branch ("" otherwise). */
  branch: string;
  /** How its worktree ended: '' | merged | unchanged | conflict | kept. */
  mergeState: string;
  /** The stored report; "" until a stored record names it (the row then reads its last text). */
  report: string;
  /** Its conversation: what this window saw of it, or its stored turn once loaded. */
  run: TranscriptState;
  /** The conversation is whole: seen from its start here, or loaded from storage. */
  complete: boolean;
}

export interface TurnInfo {
  state: TurnState;
  code: string;
  message: string;
  retriable: boolean;
}

export interface TranscriptState {
  sessionId: string;
  status: 'loading' | 'ready' | 'error';
  loadError: { code: string; message: string } | null;
  items: TranscriptItem[];
  turns: Record<string, TurnInfo>;
  /** The running turn, if any. */
  activeTurnId: string | null;
  /** Message id → "streaming" or its stop reason. */
  messages: Record<string, string>;
  /** Text of a prompt sent from this window whose prompt message has not arrived yet. */
  pendingPrompt: string | null;
  /** The attachments of the pending prompt. */
  pendingAttachments?: Attachment[];
  /** Live output that arrived before its tool call. */
  pendingOutput: Record<string, OutputChunk[]>;
  /**
   * The stored transcript should be read again once no turn runs: a turn that was
   * running at load ended (deltas during the load may be missing), or a prompt's text
   * is unknown here.
   */
  reloadWanted: boolean;
  /** Turns that were running when the transcript was loaded. */
  reloadOnEnd: string[];
  /** The oldest turn shown; a long session shows its latest turns and pages older ones in. */
  firstTurnId: string | null;
  /** Older turns exist than those shown. */
  hasOlder: boolean;
  /** An older page is on its way. */
  loadingOlder: boolean;
  /** The session's delegate runs by delegation id. */
  delegates: Record<string, DelegateRun>;
}

export type TranscriptAction =
  | { type: 'loaded'; transcript: Transcript; more?: boolean; reload?: boolean; delegations?: Delegation[] }
  | { type: 'delegateLoaded'; page: DelegationPage }
  | { type: 'delegateLoadFailed'; delegationId: string; code: string; message: string }
  | { type: 'olderRequested' }
  | { type: 'olderLoaded'; before: string; transcript: Transcript; more: boolean }
  | { type: 'olderFailed' }
  | { type: 'loadFailed'; code: string; message: string }
  | { type: 'approvalsLoaded'; requests: ApprovalRequest[] }
  | { type: 'promptSubmitted'; text: string; attachments?: Attachment[] }
  | { type: 'promptRejected' }
  | { type: 'reloadStarted' }
  | { type: 'event'; event: AgentEvent | PermissionEvent; at: number };

/** Live output kept per tool call (the result carries the full, bounded output). */
export const MAX_LIVE_OUTPUT_CHARS = 100_000;

export function initialTranscript(sessionId: string): TranscriptState {
  return {
    sessionId,
    status: 'loading',
    loadError: null,
    items: [],
    turns: {},
    activeTurnId: null,
    messages: {},
    pendingPrompt: null,
    pendingOutput: {},
    reloadWanted: false,
    reloadOnEnd: [],
    firstTurnId: null,
    hasOlder: false,
    loadingOlder: false,
    delegates: {},
  };
}

const TERMINAL: ReadonlySet<ToolStatus> = new Set(['done', 'failed', 'aborted', 'skipped', 'interrupted']);
const RANK: Record<ToolStatus, number> = {
  streaming: 0,
  pending: 1,
  running: 2,
  done: 3,
  failed: 3,
  aborted: 3,
  skipped: 3,
  interrupted: 3,
};

export function isTerminal(s: ToolStatus): boolean {
  return TERMINAL.has(s);
}

function toolStatus(state: string): ToolStatus {
  switch (state) {
    case 'pending':
    case 'running':
    case 'done':
    case 'failed':
    case 'aborted':
    case 'skipped':
    case 'interrupted':
      return state;
    default:
      return 'pending';
  }
}

/** Never moves a call backwards (a late "running" after its result is ignored). */
function advance(from: ToolStatus, to: ToolStatus): ToolStatus {
  return RANK[to] > RANK[from] || (RANK[to] === 3 && RANK[from] < 3) ? to : from;
}

export function approvalKey(sessionId: string, requestId: string): string {
  return `approval:${sessionId}:${requestId}`;
}

function toolKey(toolCallId: string): string {
  return `tool:${toolCallId}`;
}

function newTool(p: { turnId: string; messageId: string; toolCallId: string; toolUseId: string; tool: string }): ToolItem {
  return {
    kind: 'tool',
    key: toolKey(p.toolCallId),
    turnId: p.turnId,
    messageId: p.messageId,
    toolCallId: p.toolCallId,
    toolUseId: p.toolUseId,
    tool: p.tool,
    mcp: null,
    args: null,
    argsText: '',
    status: 'streaming',
    startedAt: 0,
    finishedAt: 0,
    waitedMs: 0,
    result: null,
    modelText: '',
    isError: false,
    output: [],
    outputPaused: false,
    instructions: [],
  };
}

function toolFromRecord(c: ToolCallRecord, fallbackTool: string, fallbackArgs: unknown): ToolItem {
  return {
    ...newTool({ turnId: c.turnId, messageId: c.messageId, toolCallId: c.id, toolUseId: c.toolUseId, tool: c.tool || fallbackTool }),
    args: c.args ?? fallbackArgs ?? null,
    status: toolStatus(c.state),
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    waitedMs: c.result?.approval?.waitMs ?? 0,
    result: c.result,
    modelText: c.modelText,
    isError: c.isError,
    instructions: c.instructions,
  };
}

function promptText(m: MessageRecord, turn: TurnRecord | undefined): string {
  const text = m.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
  return text !== '' ? text : turn?.prompt ?? '';
}

function statusItem(turnId: string, t: TurnInfo): TurnStatusItem | null {
  if (t.state !== 'failed' && t.state !== 'aborted' && t.state !== 'interrupted') return null;
  return { kind: 'turn-status', key: `turn:${turnId}`, turnId, state: t.state, code: t.code, message: t.message, retriable: t.retriable };
}

function turnState(s: string): TurnState {
  return s === 'running' || s === 'done' || s === 'failed' || s === 'aborted' || s === 'interrupted' ? s : 'failed';
}

/** Items of one stored message, in block order. */
function messageItems(m: MessageRecord, turn: TurnRecord | undefined, running: boolean): TranscriptItem[] {
  if (m.kind === 'prompt' || (m.role === 'user' && m.kind !== 'summary')) {
    const attachments = m.content.flatMap((b) => b.attachments ?? []);
    return [{ kind: 'prompt', key: `prompt:${m.id}`, turnId: m.turnId, messageId: m.id, text: promptText(m, turn), ...(attachments.length > 0 ? { attachments } : {}) }];
  }
  if (m.kind === 'summary') {
    const detail = m.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
    return [{ kind: 'notice', key: `summary:${m.id}`, turnId: m.turnId, tone: 'info', text: 'Earlier conversation was summarized to free context', code: '', detail }];
  }
  const streaming = running && m.stopReason === '';
  const items: TranscriptItem[] = [];
  const calls = new Map(m.toolCalls.map((c) => [c.toolUseId, c]));
  const used = new Set<string>();
  m.content.forEach((b, i) => {
    if (b.type === 'text' || b.type === 'thinking') {
      if (b.text === '') return;
      items.push({ kind: b.type, key: `${m.id}:${i}`, turnId: m.turnId, messageId: m.id, text: b.text, streaming });
    } else if (b.type === 'tool_use') {
      const c = calls.get(b.toolUseId);
      if (c) {
        used.add(c.id);
        items.push(toolFromRecord(c, b.toolName, b.input));
      } else {
        // The call was never prepared (the message was cut off).
        const id = `${m.id}:${b.toolUseId || i}`;
        items.push({
          ...newTool({ turnId: m.turnId, messageId: m.id, toolCallId: id, toolUseId: b.toolUseId, tool: b.toolName }),
          args: b.input ?? null,
          status: streaming ? 'pending' : m.stopReason === 'interrupted' ? 'interrupted' : 'aborted',
        });
      }
    }
  });
  for (const c of [...m.toolCalls].sort((a, b) => a.position - b.position)) {
    if (!used.has(c.id)) items.push(toolFromRecord(c, '', null));
  }
  return items;
}

/** What a response's figures say, or null when it reported none (an aborted stream). */
function messageUsage(usage: Usage, costUsd: number | null): MessageUsage | null {
  const tokens = usage.inputTokens + usage.outputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return tokens > 0 || costUsd !== null ? { usage, costUsd } : null;
}

/**
 * Puts a model response's usage where its message ends to the reader: its last text
 * item, else its last tool call. Live events and a stored transcript both go through
 * here, so a reload shows what the live view showed.
 */
function withUsage(items: TranscriptItem[], messageId: string, u: MessageUsage | null): TranscriptItem[] {
  if (!u) return items;
  let at = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (it.kind === 'text' && it.messageId === messageId) {
      at = i;
      break;
    }
    if (at < 0 && it.kind === 'tool' && it.messageId === messageId) at = i;
  }
  if (at < 0) return items;
  const it = items[at] as TextItem | ToolItem;
  return replaceAt(items, at, { ...it, usage: u });
}

function build(t: Transcript): Pick<TranscriptState, 'items' | 'turns' | 'activeTurnId' | 'messages' | 'reloadOnEnd' | 'firstTurnId'> {
  const turns: Record<string, TurnInfo> = {};
  const byTurn = new Map<string, MessageRecord[]>();
  const messages: Record<string, string> = {};
  for (const m of t.messages) {
    const list = byTurn.get(m.turnId) ?? [];
    list.push(m);
    byTurn.set(m.turnId, list);
  }
  const items: TranscriptItem[] = [];
  let activeTurnId: string | null = null;
  const reloadOnEnd: string[] = [];
  const ordered = [...t.turns].sort((a, b) => a.createdAt - b.createdAt);
  for (const turn of ordered) {
    const info: TurnInfo = { state: turnState(turn.state), code: turn.errorCode, message: turn.errorMessage, retriable: false };
    turns[turn.id] = info;
    const running = info.state === 'running';
    if (running) {
      activeTurnId = turn.id;
      reloadOnEnd.push(turn.id);
    }
    const msgs = byTurn.get(turn.id) ?? [];
    byTurn.delete(turn.id);
    if (!msgs.some((m) => m.kind === 'prompt') && turn.prompt !== '') {
      items.push({ kind: 'prompt', key: `prompt:turn:${turn.id}`, turnId: turn.id, messageId: '', text: turn.prompt });
    }
    for (const m of msgs) {
      const streaming = m.stopReason === '' && running;
      messages[m.id] = streaming ? 'streaming' : m.stopReason || 'other';
      const own = messageItems(m, turn, running);
      items.push(...(m.kind === 'model' && !streaming ? withUsage(own, m.id, messageUsage(m.usage, m.costUsd)) : own));
    }
    const s = statusItem(turn.id, info);
    if (s) items.push(s);
  }
  // Messages of turns the transcript did not list (should not happen): keep them visible.
  for (const msgs of byTurn.values()) {
    for (const m of msgs) {
      messages[m.id] = m.stopReason || 'other';
      const own = messageItems(m, undefined, false);
      items.push(...(m.kind === 'model' ? withUsage(own, m.id, messageUsage(m.usage, m.costUsd)) : own));
    }
  }
  return { items, turns, activeTurnId, messages, reloadOnEnd, firstTurnId: ordered[0]?.id ?? null };
}

// --- item list helpers --------------------------------------------------------

function indexOfKey(items: TranscriptItem[], key: string): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.key === key) return i;
  return -1;
}

function lastIndexOfMessage(items: TranscriptItem[], messageId: string): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if ((it.kind === 'text' || it.kind === 'thinking' || it.kind === 'tool' || it.kind === 'prompt') && it.messageId === messageId) {
      // Keep a tool call's approval card right under it.
      let j = i;
      while (j + 1 < items.length && items[j + 1]!.kind === 'approval') j++;
      return j;
    }
  }
  return -1;
}

function insertAfter(items: TranscriptItem[], index: number, item: TranscriptItem): TranscriptItem[] {
  if (index < 0 || index >= items.length - 1) return [...items, item];
  return [...items.slice(0, index + 1), item, ...items.slice(index + 1)];
}

function replaceAt(items: TranscriptItem[], index: number, item: TranscriptItem): TranscriptItem[] {
  const next = items.slice();
  next[index] = item;
  return next;
}

function mapItems(items: TranscriptItem[], fn: (it: TranscriptItem) => TranscriptItem): TranscriptItem[] {
  let changed = false;
  const next = items.map((it) => {
    const n = fn(it);
    if (n !== it) changed = true;
    return n;
  });
  return changed ? next : items;
}

function appendChunks(item: ToolItem, chunks: OutputChunk[], paused: boolean): ToolItem {
  let output = item.output;
  let dropped = false;
  for (const c of chunks) {
    if (output.some((o) => o.stream === c.stream && o.seq === c.seq)) continue;
    // In order per stream: place it after the last chunk of its stream with a lower seq.
    let at = output.length;
    while (at > 0 && output[at - 1]!.stream === c.stream && output[at - 1]!.seq > c.seq) at--;
    output = [...output.slice(0, at), c, ...output.slice(at)];
  }
  let total = output.reduce((n, o) => n + o.text.length, 0);
  while (total > MAX_LIVE_OUTPUT_CHARS && output.length > 1) {
    total -= output[0]!.text.length;
    output = output.slice(1);
    dropped = true;
  }
  if (output === item.output && !paused) return item;
  return { ...item, output, outputPaused: item.outputPaused || paused || dropped };
}

/** Finds the tool item, creating it (after its message's items) when it does not exist yet. */
function withTool(
  state: TranscriptState,
  p: { turnId: string; messageId: string; toolCallId: string; toolUseId: string; tool: string },
  update: (t: ToolItem) => ToolItem,
): TranscriptState {
  const key = toolKey(p.toolCallId);
  const i = indexOfKey(state.items, key);
  if (i >= 0) {
    const cur = state.items[i] as ToolItem;
    const next = update(cur.tool === '' && p.tool !== '' ? { ...cur, tool: p.tool } : cur);
    return next === cur ? state : { ...state, items: replaceAt(state.items, i, next) };
  }
  let item = update(newTool(p));
  const early = state.pendingOutput[p.toolCallId];
  let pendingOutput = state.pendingOutput;
  if (early) {
    item = appendChunks(item, early, false);
    pendingOutput = { ...pendingOutput };
    delete pendingOutput[p.toolCallId];
  }
  const items = insertAfter(state.items, lastIndexOfMessage(state.items, p.messageId), item);
  return { ...state, items, pendingOutput };
}

// --- event handlers -----------------------------------------------------------

function onTurn(state: TranscriptState, e: Extract<AgentEvent, { type: 'turn' }>): TranscriptState {
  const info: TurnInfo = { state: e.state, code: e.code, message: e.message, retriable: e.retriable };
  if (e.state === 'running') {
    let items = state.items;
    let messages = state.messages;
    if (e.retry !== '') {
      // A same-turn retry: the partial message was dropped, so drop what it showed.
      const dropped = new Set(
        items
          .filter((it) => (it.kind === 'text' || it.kind === 'thinking' || it.kind === 'tool') && it.turnId === e.turnId && state.messages[it.messageId] === 'streaming')
          .map((it) => (it as TextItem | ToolItem).messageId),
      );
      items = items.filter((it) => !((it.kind === 'text' || it.kind === 'thinking' || it.kind === 'tool') && dropped.has(it.messageId)));
      messages = { ...messages };
      for (const id of dropped) delete messages[id];
      const notice: NoticeItem = {
        kind: 'notice',
        key: `retry:${e.turnId}`,
        turnId: e.turnId,
        tone: 'info',
        text: 'The model call failed and is being retried',
        code: e.retry,
        detail: '',
      };
      const at = indexOfKey(items, notice.key);
      items = at >= 0 ? replaceAt(items, at, notice) : [...items, notice];
    }
    return { ...state, items, messages, turns: { ...state.turns, [e.turnId]: info }, activeTurnId: e.turnId };
  }

  // The turn ended: nothing of it streams or waits any more.
  const endStatus: ToolStatus = e.state === 'interrupted' ? 'interrupted' : e.state === 'done' ? 'skipped' : 'aborted';
  let items = mapItems(state.items, (it) => {
    if (it.turnId !== e.turnId) return it;
    if ((it.kind === 'text' || it.kind === 'thinking') && it.streaming) return { ...it, streaming: false };
    if (it.kind === 'tool' && !isTerminal(it.status)) return { ...it, status: endStatus };
    if (it.kind === 'approval' && it.outcome === null) return { ...it, outcome: 'cancelled' };
    if (it.kind === 'notice' && it.key === `retry:${e.turnId}`) return { ...it, text: 'The model call was retried' };
    return it;
  });
  const s = statusItem(e.turnId, info);
  if (s) {
    const at = indexOfKey(items, s.key);
    items = at >= 0 ? replaceAt(items, at, s) : [...items, s];
  }
  const hasPrompt = items.some((it) => it.kind === 'prompt' && it.turnId === e.turnId && it.text !== '');
  const reload = state.reloadOnEnd.includes(e.turnId) || !hasPrompt;
  return {
    ...state,
    items,
    turns: { ...state.turns, [e.turnId]: info },
    activeTurnId: state.activeTurnId === e.turnId ? null : state.activeTurnId,
    reloadWanted: state.reloadWanted || reload,
    reloadOnEnd: state.reloadOnEnd.filter((id) => id !== e.turnId),
  };
}

function onMessage(state: TranscriptState, e: Extract<AgentEvent, { type: 'message' }>): TranscriptState {
  const messages = { ...state.messages, [e.messageId]: e.state };
  if (e.kind === 'prompt') {
    const key = `prompt:${e.messageId}`;
    if (indexOfKey(state.items, key) >= 0) return { ...state, messages };
    const att = state.pendingAttachments;
    const item: PromptItem = { kind: 'prompt', key, turnId: e.turnId, messageId: e.messageId, text: state.pendingPrompt ?? '', ...(att?.length ? { attachments: att } : {}) };
    return { ...state, messages, items: [...state.items, item], pendingPrompt: null, pendingAttachments: undefined };
  }
  if (e.kind === 'summary') {
    const key = `summary:${e.messageId}`;
    if (indexOfKey(state.items, key) >= 0) return { ...state, messages };
    const item: NoticeItem = { kind: 'notice', key, turnId: e.turnId, tone: 'info', text: 'Earlier conversation was summarized to free context', code: '', detail: '' };
    return { ...state, messages, items: [...state.items, item] };
  }
  if (e.state === 'streaming') return { ...state, messages };
  const cut = e.state === 'aborted' || e.state === 'failed';
  const items = mapItems(state.items, (it) => {
    if ((it.kind === 'text' || it.kind === 'thinking') && it.messageId === e.messageId && it.streaming) return { ...it, streaming: false };
    // A call whose arguments never finished streaming will not run.
    if (cut && it.kind === 'tool' && it.messageId === e.messageId && it.status === 'streaming') return { ...it, status: 'aborted' };
    return it;
  });
  return { ...state, messages, items: e.kind === 'model' ? withUsage(items, e.messageId, messageUsage(e.usage, e.costUsd)) : items };
}

function onDelta(state: TranscriptState, e: Extract<AgentEvent, { type: 'text' | 'thinking' }>): TranscriptState {
  if (e.delta === '') return state;
  const ms = state.messages[e.messageId];
  if (ms !== undefined && ms !== 'streaming') return state; // already ended (e.g. loaded complete)
  const last = lastIndexOfMessage(state.items, e.messageId);
  const cur = last >= 0 ? state.items[last] : undefined;
  if (cur && cur.kind === e.type && cur.streaming) {
    return { ...state, items: replaceAt(state.items, last, { ...cur, text: cur.text + e.delta }) };
  }
  const n = state.items.filter((it) => (it.kind === 'text' || it.kind === 'thinking' || it.kind === 'tool') && it.messageId === e.messageId).length;
  const item: TextItem = { kind: e.type, key: `${e.messageId}:live${n}`, turnId: e.turnId, messageId: e.messageId, text: e.delta, streaming: true };
  const messages = ms === undefined ? { ...state.messages, [e.messageId]: 'streaming' } : state.messages;
  return { ...state, messages, items: insertAfter(state.items, last, item) };
}

function onToolCall(state: TranscriptState, e: Extract<AgentEvent, { type: 'tool_call' }>, at: number): TranscriptState {
  return withTool(state, e, (cur) => {
    // The first event that names the origin sets it; a later one without it keeps it.
    const t = e.mcp && !sameOrigin(cur.mcp, e.mcp) ? { ...cur, mcp: e.mcp } : cur;
    switch (e.phase) {
      case 'streaming':
        return e.argsDelta === '' ? t : { ...t, argsText: t.argsText + e.argsDelta };
      case 'ready': {
        const status = advance(t.status, 'pending');
        return { ...t, args: e.args ?? t.args, status };
      }
      case 'running': {
        const status = advance(t.status, 'running');
        if (status === t.status && t.startedAt !== 0) return t;
        return { ...t, status, startedAt: t.startedAt || at };
      }
      case 'started':
        // The user's answer came: the run is timed from here, the wait apart.
        if (isTerminal(t.status)) return t;
        return { ...t, status: 'running', startedAt: at, waitedMs: e.waitedMs };
    }
  });
}

function sameOrigin(a: ToolOrigin | null, b: ToolOrigin): boolean {
  return a !== null && a.server === b.server && a.tool === b.tool && a.title === b.title;
}

function onToolResult(state: TranscriptState, e: Extract<AgentEvent, { type: 'tool_result' }>, at: number): TranscriptState {
  return withTool(state, e, (t) => ({
    ...t,
    status: e.state,
    result: e.result,
    modelText: e.modelText,
    isError: e.isError,
    instructions: e.instructions,
    startedAt: t.startedAt || at,
    finishedAt: at,
    waitedMs: e.result?.approval?.waitMs || t.waitedMs,
  }));
}

function onContext(state: TranscriptState, e: Extract<AgentEvent, { type: 'context' }>): TranscriptState {
  const key = `context:${e.turnId}:${state.items.filter((it) => it.key.startsWith(`context:${e.turnId}:`)).length}`;
  // Update the open compaction notice of this turn, else add one.
  let i = -1;
  for (let j = state.items.length - 1; j >= 0; j--) {
    const it = state.items[j]!;
    if (it.kind === 'notice' && it.key.startsWith(`context:${e.turnId}:`)) {
      i = j;
      break;
    }
  }
  const open = i >= 0 && (state.items[i] as NoticeItem).text === COMPACTING;
  const notice: NoticeItem = {
    kind: 'notice',
    key: open ? state.items[i]!.key : key,
    turnId: e.turnId,
    tone: e.state === 'failed' ? 'error' : 'info',
    text:
      e.state === 'compacting'
        ? COMPACTING
        : e.state === 'done'
          ? `Context summarized${e.tokensBefore > 0 ? ` (${e.tokensBefore.toLocaleString('en-US')} → ${e.tokensAfter.toLocaleString('en-US')} tokens)` : ''}`
          : 'Summarizing the context failed',
    code: e.code,
    detail: '',
  };
  return { ...state, items: open ? replaceAt(state.items, i, notice) : [...state.items, notice] };
}

const COMPACTING = 'Summarizing earlier context…';

function onOutput(state: TranscriptState, e: Extract<AgentEvent, { type: 'tool_output' }>): TranscriptState {
  const chunk: OutputChunk = { stream: e.stream, seq: e.seq, text: e.text };
  const i = indexOfKey(state.items, toolKey(e.toolCallId));
  if (i < 0) {
    const list = state.pendingOutput[e.toolCallId] ?? [];
    return { ...state, pendingOutput: { ...state.pendingOutput, [e.toolCallId]: [...list, chunk] } };
  }
  const cur = state.items[i] as ToolItem;
  const next = appendChunks(cur, [chunk], e.paused);
  return next === cur ? state : { ...state, items: replaceAt(state.items, i, next) };
}

function addApproval(state: TranscriptState, request: ApprovalRequest): TranscriptState {
  if (request.sessionId !== state.sessionId) return state;
  const key = approvalKey(request.sessionId, request.id);
  if (indexOfKey(state.items, key) >= 0) return state;
  const item: ApprovalItem = { kind: 'approval', key, turnId: request.turnId, request, outcome: null };
  let at = request.toolCallId ? indexOfKey(state.items, toolKey(request.toolCallId)) : -1;
  while (at >= 0 && at + 1 < state.items.length && state.items[at + 1]!.kind === 'approval') at++;
  return { ...state, items: insertAfter(state.items, at, item) };
}

function resolveApproval(state: TranscriptState, e: Extract<PermissionEvent, { type: 'permission_resolved' }>): TranscriptState {
  const i = indexOfKey(state.items, approvalKey(e.sessionId, e.id));
  if (i < 0) return state;
  const cur = state.items[i] as ApprovalItem;
  if (cur.outcome === e.outcome) {
    // The broker's event may name the saved rule after the card settled locally.
    return e.rule && !cur.rule ? { ...state, items: replaceAt(state.items, i, { ...cur, rule: e.rule }) } : state;
  }
  // The first answer wins; a later event never flips a settled card.
  if (cur.outcome !== null && cur.outcome !== 'cancelled') return state;
  return { ...state, items: replaceAt(state.items, i, { ...cur, outcome: e.outcome, ...(e.rule ? { rule: e.rule } : {}) }) };
}

function onLoaded(state: TranscriptState, t: Transcript, more: boolean, reload: boolean): TranscriptState {
  if (reload && state.activeTurnId !== null) return state; // a new turn started meanwhile: keep the live view
  const built = build(t);
  const firstTurnId = built.firstTurnId ?? (reload ? state.firstTurnId : null);
  let items = built.items;
  if (reload) {
    // Turns seen live but not (yet) stored stay visible rather than vanish.
    const stored = new Set(t.turns.map((x) => x.id));
    const live = state.items.filter((it) => it.kind !== 'approval' && it.turnId !== '' && !stored.has(it.turnId));
    if (live.length > 0) items = [...items, ...live];
  }
  // Keep what only the live view knows: live output, an MCP call's origin, approval cards.
  const old = new Map(state.items.map((it) => [it.key, it]));
  items = items.map((it) => {
    if (it.kind !== 'tool') return it;
    const prev = old.get(it.key);
    if (!prev || prev.kind !== 'tool') return it;
    let next = it;
    if (prev.output.length > 0) next = { ...next, output: prev.output, outputPaused: prev.outputPaused };
    if (prev.mcp && !next.mcp) next = { ...next, mcp: prev.mcp };
    return next;
  });
  let next: TranscriptState = {
    ...state,
    status: 'ready',
    loadError: null,
    ...built,
    items,
    // Messages already seen live stay known.
    messages: { ...state.messages, ...built.messages },
    activeTurnId: built.activeTurnId ?? (reload ? null : state.activeTurnId),
    firstTurnId,
    hasOlder: more,
  };
  for (const it of state.items) {
    if (it.kind !== 'approval') continue;
    next = addApproval(next, it.request);
    if (it.outcome) next = resolveApproval(next, { type: 'permission_resolved', sessionId: it.request.sessionId, id: it.request.id, outcome: it.outcome, rule: it.rule ?? '' });
  }
  return next;
}

/** Puts an older page's turns above what is shown. */
function onOlderLoaded(state: TranscriptState, before: string, t: Transcript, more: boolean): TranscriptState {
  // A page asked for before a reload moved the first turn is stale.
  if (state.status !== 'ready' || before !== state.firstTurnId) return { ...state, loadingOlder: false };
  const built = build(t);
  const shown = new Set(state.items.map((it) => it.key));
  const older = built.items.filter((it) => !shown.has(it.key));
  return {
    ...state,
    items: older.length > 0 ? [...older, ...state.items] : state.items,
    turns: { ...built.turns, ...state.turns },
    messages: { ...built.messages, ...state.messages },
    firstTurnId: built.firstTurnId ?? state.firstTurnId,
    hasOlder: more && built.firstTurnId !== null,
    loadingOlder: false,
  };
}

export function transcriptReducer(state: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case 'loaded':
      return onLoaded(state, action.transcript, action.more === true, action.reload === true);
    case 'delegateLoaded':
    case 'delegateLoadFailed':
      return state; // sessionTranscriptReducer (state/delegates) handles delegates
    case 'olderRequested':
      return state.loadingOlder || !state.hasOlder ? state : { ...state, loadingOlder: true };
    case 'olderLoaded':
      return onOlderLoaded(state, action.before, action.transcript, action.more);
    case 'olderFailed':
      return state.loadingOlder ? { ...state, loadingOlder: false } : state;
    case 'loadFailed':
      return { ...state, status: 'error', loadError: { code: action.code, message: action.message } };
    case 'approvalsLoaded':
      return action.requests.reduce(addApproval, state);
    case 'promptSubmitted':
      return { ...state, pendingPrompt: action.text, pendingAttachments: action.attachments };
    case 'promptRejected':
      return state.pendingPrompt === null ? state : { ...state, pendingPrompt: null, pendingAttachments: undefined };
    case 'reloadStarted':
      return state.reloadWanted ? { ...state, reloadWanted: false } : state;
    case 'event': {
      const e = action.event;
      if (e.sessionId !== state.sessionId) return state; // never another session's events
      switch (e.type) {
        case 'turn':
          return onTurn(state, e);
        case 'message':
          return onMessage(state, e);
        case 'text':
        case 'thinking':
          return onDelta(state, e);
        case 'tool_call':
          return onToolCall(state, e, action.at);
        case 'tool_result':
          return onToolResult(state, e, action.at);
        case 'context':
          return onContext(state, e);
        case 'tool_output':
          return onOutput(state, e);
        case 'permission_request':
          return addApproval(state, e.request);
        case 'permission_resolved':
          return resolveApproval(state, e);
        case 'delegation':
          return state; // sessionTranscriptReducer (state/delegates) handles delegates
      }
    }
  }
}

/** Approval cards still waiting for an answer, the delegates' included. */
export function pendingApprovalCount(state: TranscriptState): number {
  let n = state.items.filter((it) => it.kind === 'approval' && it.outcome === null).length;
  for (const d of Object.values(state.delegates)) n += pendingApprovalCount(d.run);
  return n;
}

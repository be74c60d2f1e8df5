// Delegate runs (Task subagents) inside one session's transcript state. A delegate's own
// events carry its delegationId: they never become the parent's items, they build the
// delegate's own TranscriptState (the same transcriptReducer) shown in its Task row. Its
// approval cards go there too, found by the delegate's turn or tool call.
import type { AgentEvent, ApprovalRequest, Delegation, DelegationPage, PermissionEvent } from '../bridge/types';
import { initialTranscript, transcriptReducer, type DelegateRun, type TranscriptAction, type TranscriptState } from './transcript';

type DelegationEvent = Extract<AgentEvent, { type: 'delegation' }>;

export function isFinished(d: Pick<DelegateRun, 'state'>): boolean {
  return d.state !== 'running' && d.state !== 'waiting';
}

function newRun(sessionId: string, id: string, complete: boolean): DelegateRun {
  return {
    id,
    parentToolCallId: '',
    parentTurnId: '',
    turnId: '',
    subagent: '',
    description: '',
    state: 'running',
    elapsedMs: 0,
    seenAt: 0,
    seenLive: false,
    toolCount: 0,
    code: '',
    message: '',
    branch: '',
    mergeState: '',
    report: '',
    run: { ...initialTranscript(sessionId), status: complete ? 'ready' : 'loading' },
    complete,
  };
}

function put(state: TranscriptState, d: DelegateRun): TranscriptState {
  return state.delegates[d.id] === d ? state : { ...state, delegates: { ...state.delegates, [d.id]: d } };
}

/** The delegate, created when unknown: one first seen live started after this window loaded. */
function delegate(state: TranscriptState, id: string): DelegateRun {
  return state.delegates[id] ?? newRun(state.sessionId, id, true);
}

/**
 * A stored record over what this window knows. A finished record is final; an unfinished
 * one never moves back a delegate this window has seen live (the list may have been read
 * before its last event).
 */
function fromRecord(cur: DelegateRun, d: Delegation): DelegateRun {
  const finished = isFinished(d);
  const keepLive = !finished && cur.seenLive;
  return {
    ...cur,
    parentToolCallId: d.parentToolCallId,
    parentTurnId: d.parentTurnId,
    turnId: d.turnId,
    subagent: d.subagent,
    description: d.description,
    state: keepLive ? cur.state : d.state,
    elapsedMs: finished && d.finishedAt >= d.createdAt ? d.finishedAt - d.createdAt : keepLive ? cur.elapsedMs : 0,
    seenAt: keepLive ? cur.seenAt : d.createdAt,
    toolCount: Math.max(cur.toolCount, d.toolCount),
    code: keepLive ? cur.code : d.errorCode,
    message: keepLive ? cur.message : d.errorMessage,
    branch: d.branch || cur.branch,
    mergeState: d.mergeState || cur.mergeState,
    report: d.report,
  };
}

function onDelegation(state: TranscriptState, e: DelegationEvent, at: number): TranscriptState {
  const cur = delegate(state, e.delegationId);
  return put(state, {
    ...cur,
    parentToolCallId: e.parentToolCallId,
    parentTurnId: e.parentTurnId,
    turnId: e.turnId,
    subagent: e.subagent,
    description: e.description,
    state: e.state,
    elapsedMs: e.elapsedMs,
    seenAt: at,
    seenLive: true,
    toolCount: e.toolCount,
    code: e.code,
    message: e.message,
    branch: e.branch || cur.branch,
    mergeState: e.mergeState || cur.mergeState,
  });
}

/** Applies one action to a delegate's own conversation. */
function inRun(state: TranscriptState, d: DelegateRun, action: TranscriptAction): TranscriptState {
  const run = transcriptReducer(d.run, action);
  return run === d.run ? state : put(state, { ...d, run });
}

const toolKey = (toolCallId: string) => `tool:${toolCallId}`;

/** The delegate an approval card or live output belongs to: by its turn, else by its tool call. */
function ownerOf(state: TranscriptState, turnId: string, toolCallId: string): DelegateRun | null {
  const all = Object.values(state.delegates);
  return (
    all.find((d) => turnId !== '' && d.turnId === turnId) ??
    all.find((d) => toolCallId !== '' && d.run.items.some((it) => it.key === toolKey(toolCallId))) ??
    null
  );
}

function addApproval(state: TranscriptState, request: ApprovalRequest, at: number): TranscriptState {
  const owner = ownerOf(state, request.turnId, request.toolCallId);
  const action: TranscriptAction = { type: 'event', event: { type: 'permission_request', sessionId: request.sessionId, request }, at };
  return owner ? inRun(state, owner, action) : transcriptReducer(state, action);
}

function onLoaded(state: TranscriptState, delegations: Delegation[]): TranscriptState {
  let next = state;
  for (const d of delegations) {
    if (d.sessionId !== '' && d.sessionId !== state.sessionId) continue;
    const cur = next.delegates[d.id] ?? newRun(state.sessionId, d.id, false);
    next = put(next, fromRecord(cur, d));
  }
  return next;
}

function onDelegateLoaded(state: TranscriptState, page: DelegationPage): TranscriptState {
  const d = page.delegation;
  if (d.id === '' || (d.sessionId !== '' && d.sessionId !== state.sessionId)) return state;
  const cur = fromRecord(state.delegates[d.id] ?? newRun(state.sessionId, d.id, false), d);
  const run = transcriptReducer(cur.run, { type: 'loaded', transcript: { sessionId: state.sessionId, turns: page.turns, messages: page.messages } });
  return put(state, { ...cur, run, complete: true });
}

/**
 * transcriptReducer for a session with delegates: a delegate's events, cards and live
 * output go to its own run; everything else is the parent's.
 */
export function sessionTranscriptReducer(state: TranscriptState, action: TranscriptAction): TranscriptState {
  switch (action.type) {
    case 'loaded': {
      const next = transcriptReducer(state, action);
      return action.delegations ? onLoaded(next, action.delegations) : next;
    }
    case 'delegateLoaded':
      return onDelegateLoaded(state, action.page);
    case 'delegateLoadFailed': {
      const d = state.delegates[action.delegationId];
      return d ? inRun(state, d, { type: 'loadFailed', code: action.code, message: action.message }) : state;
    }
    case 'approvalsLoaded':
      return action.requests.reduce((s, r) => addApproval(s, r, 0), state);
    case 'event':
      return onEvent(state, action.event, action.at);
    default:
      return transcriptReducer(state, action);
  }
}

function onEvent(state: TranscriptState, e: AgentEvent | PermissionEvent, at: number): TranscriptState {
  if (e.sessionId !== state.sessionId) return state;
  switch (e.type) {
    case 'delegation':
      return onDelegation(state, e, at);
    case 'turn':
    case 'message':
    case 'text':
    case 'thinking':
    case 'tool_call':
    case 'tool_result':
      if (e.delegationId === '') break;
      // The delegate's own run sees the event as its own (no delegationId).
      return inRun(state, delegate(state, e.delegationId), { type: 'event', event: { ...e, delegationId: '' }, at });
    case 'tool_output': {
      if (state.items.some((it) => it.key === toolKey(e.toolCallId))) break;
      const owner = ownerOf(state, '', e.toolCallId);
      if (owner) return inRun(state, owner, { type: 'event', event: e, at });
      break;
    }
    case 'permission_request':
      return addApproval(state, e.request, at);
    case 'permission_resolved': {
      // Wherever the card is: the parent's list or a delegate's.
      let next = transcriptReducer(state, { type: 'event', event: e, at });
      for (const d of Object.values(next.delegates)) next = inRun(next, d, { type: 'event', event: e, at });
      return next;
    }
  }
  return transcriptReducer(state, { type: 'event', event: e, at });
}

/** The delegates by the Task call that started them (the rows they live in). */
export function delegatesByCall(delegates: Record<string, DelegateRun>): Record<string, DelegateRun> {
  const out: Record<string, DelegateRun> = {};
  for (const d of Object.values(delegates)) if (d.parentToolCallId !== '') out[d.parentToolCallId] = d;
  return out;
}

/** How long a delegate has run, as of now. */
export function delegateElapsed(d: DelegateRun, now: number): number {
  return isFinished(d) || d.seenAt === 0 ? d.elapsedMs : d.elapsedMs + Math.max(0, now - d.seenAt);
}

/** What a delegate reported: its stored report, else the last text it wrote here. */
export function delegateReport(d: DelegateRun): string {
  if (d.report !== '') return d.report;
  for (let i = d.run.items.length - 1; i >= 0; i--) {
    const it = d.run.items[i]!;
    if (it.kind === 'text') return it.text;
    if (it.kind === 'tool') return '';
  }
  return '';
}

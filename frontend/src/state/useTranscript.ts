// Feeds transcriptReducer for one session: subscribes to its live events (through the
// session event router) first, loads the
// stored transcript and the pending approval cards, then replays what arrived during
// the load. A long session opens with its latest turns (a page of about
// PAGE_MESSAGES messages); loadOlder pages earlier turns in above them. The session's
// review records live in features/review/useReviewChanges, one copy for the pane and
// the rows under each tool.
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import * as bridge from '../bridge';
import { toBridgeError } from '../bridge/errors';
import type { AgentEvent, ApprovalAnswer, ApprovalOutcome, MCPSelection, PermissionEvent } from '../bridge/types';
import { ALLOW_RULE_ANSWER } from '../bridge/wire';
import type { Attachment } from '../bridge/attachments';
import { useEventRouter } from './LiveData';
import { sessionTranscriptReducer } from './delegates';
import { initialTranscript, type TranscriptAction, type TranscriptState } from './transcript';

export interface TranscriptApi {
  state: TranscriptState;
  /** True while a turn runs. */
  running: boolean;
  /** True while SendPrompt is on its way. */
  sending: boolean;
  /**
   * Resolves once the turn started; rejects with a BridgeError (the text is the caller's
   * to keep). MCP servers chosen in the composer go with this prompt (SendPromptWith).
   */
  send: (text: string, mcp?: MCPSelection[], attachments?: Attachment[]) => Promise<void>;
  stop: () => Promise<void>;
  resolveApproval: (requestId: string, answer: ApprovalAnswer) => Promise<void>;
  reload: () => void;
  /** Loads the page of turns before the oldest shown (no-op while one loads or none is left). */
  loadOlder: () => void;
  /** Loads a delegate's own conversation from storage (an opened Task row this window did not see whole). */
  loadDelegate: (delegationId: string) => void;
}

/** Messages asked for per transcript page: enough to fill the window many times over. */
export const PAGE_MESSAGES = 300;

export function useTranscript(sessionId: string): TranscriptApi {
  const [state, dispatch] = useReducer(sessionTranscriptReducer, sessionId, initialTranscript);
  const [sending, setSending] = useState(false);
  const [loadSeq, setLoadSeq] = useState(0);
  const router = useEventRouter();

  useEffect(() => {
    let live = true;
    let buffer: TranscriptAction[] | null = [];
    const handle = (event: AgentEvent | PermissionEvent) => {
      const action: TranscriptAction = { type: 'event', event, at: Date.now() };
      if (buffer) buffer.push(action);
      else dispatch(action);
    };
    const offAgent = router.on('agent', sessionId, handle);
    const offPermission = router.on('permission', sessionId, handle);
    const flush = () => {
      const queued = buffer ?? [];
      buffer = null;
      for (const a of queued) dispatch(a);
    };
    Promise.all([
      bridge.transcriptPage(sessionId, { limit: PAGE_MESSAGES }),
      bridge.pendingApprovals(sessionId).catch(() => []),
      // Without the list the Task rows still show what their calls say.
      bridge.delegations(sessionId).catch(() => []),
    ]).then(
      ([t, requests, delegations]) => {
        if (!live) return;
        dispatch({ type: 'loaded', transcript: t, more: t.more, delegations });
        dispatch({ type: 'approvalsLoaded', requests });
        flush();
      },
      (err: unknown) => {
        if (!live) return;
        const e = toBridgeError(err);
        dispatch({ type: 'loadFailed', code: e.code, message: e.message });
        flush();
      },
    );
    return () => {
      live = false;
      offAgent();
      offPermission();
    };
  }, [router, sessionId, loadSeq]);

  // Re-read the stored turns shown (from the oldest on) when the reducer asks (see
  // reloadWanted). Never while an older page loads: the two would race for the first turn.
  const reloading = useRef(false);
  const firstTurnId = useRef(state.firstTurnId);
  firstTurnId.current = state.firstTurnId;
  useEffect(() => {
    if (!state.reloadWanted || state.activeTurnId !== null || state.loadingOlder) return;
    dispatch({ type: 'reloadStarted' });
    reloading.current = true;
    const since = firstTurnId.current ?? '';
    Promise.all([bridge.transcriptPage(sessionId, { since, limit: PAGE_MESSAGES }), bridge.delegations(sessionId).catch(() => undefined)]).then(
      ([t, delegations]) => dispatch({ type: 'loaded', transcript: t, more: t.more, reload: true, delegations }),
      () => {},
    ).finally(() => {
      reloading.current = false;
    });
  }, [state.reloadWanted, state.activeTurnId, state.loadingOlder, sessionId]);

  const olderWanted = state.status === 'ready' && state.hasOlder && !state.loadingOlder;
  const loadOlder = useCallback(() => {
    const before = firstTurnId.current;
    if (!olderWanted || reloading.current || before === null) return;
    dispatch({ type: 'olderRequested' });
    bridge.transcriptPage(sessionId, { before, limit: PAGE_MESSAGES }).then(
      (t) => dispatch({ type: 'olderLoaded', before, transcript: t, more: t.more }),
      () => dispatch({ type: 'olderFailed' }), // scrolling to the top again retries
    );
  }, [olderWanted, sessionId]);

  const send = useCallback(
    async (text: string, mcp: MCPSelection[] = [], attachments: Attachment[] = []) => {
      dispatch(attachments.length > 0 ? { type: 'promptSubmitted', text, attachments } : { type: 'promptSubmitted', text });
      setSending(true);
      try {
        if (attachments.length > 0) await bridge.sendPromptWith(sessionId, text, { mcp, attachments });
        else if (mcp.length > 0) await bridge.sendPromptWith(sessionId, text, { mcp });
        else await bridge.sendPrompt(sessionId, text);
      } catch (err) {
        dispatch({ type: 'promptRejected' });
        throw toBridgeError(err);
      } finally {
        setSending(false);
      }
    },
    [sessionId],
  );

  const stop = useCallback(async () => {
    await bridge.stopSession(sessionId);
  }, [sessionId]);

  const resolveApproval = useCallback(
    async (requestId: string, answer: ApprovalAnswer) => {
      await bridge.resolveApproval(sessionId, requestId, answer);
      // The broker announces it too; settle the card now so it never lingers.
      // An Always-allow answer settles as allow-rule; the broker's event names the rule.
      const outcome = answer.startsWith(ALLOW_RULE_ANSWER) ? 'allow-rule' : (answer as ApprovalOutcome);
      dispatch({ type: 'event', event: { type: 'permission_resolved', sessionId, id: requestId, outcome, rule: '' }, at: Date.now() });
    },
    [sessionId],
  );

  const reload = useCallback(() => setLoadSeq((n) => n + 1), []);

  const loadDelegate = useCallback(
    (delegationId: string) => {
      bridge.delegationTranscript(sessionId, delegationId).then(
        (page) => dispatch({ type: 'delegateLoaded', page }),
        (err: unknown) => {
          const e = toBridgeError(err);
          dispatch({ type: 'delegateLoadFailed', delegationId, code: e.code, message: e.message });
        },
      );
    },
    [sessionId],
  );

  return { state, running: state.activeTurnId !== null, sending, send, stop, resolveApproval, reload, loadOlder, loadDelegate };
}

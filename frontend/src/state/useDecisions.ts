// One session's decision cards, from the session activity store (the one record of what
// the session waits for; it hears agent:question / agent:proposal through the event
// router). Showing the session drops the settled cards and reads what is already
// waiting again (a reloaded window shows it again). Answering settles the card at once; a refused answer closes it with
// the error (fail closed) instead of leaving buttons that cannot work.
import { useCallback, useEffect } from 'react';
import * as bridge from '../bridge';
import { toBridgeError } from '../bridge/errors';
import type { AskAnswer, PermissionMode, Proposal, QuestionRequest } from '../bridge/types';
import { proposalKey, questionKey, type DecisionsState } from './decisions';
import { useSessionDecisions } from './SessionActivityContext';

/** Codes after which an answer can never apply: the card closes and shows them. */
const FINAL_CODES: ReadonlySet<string> = new Set(['PLAN_APPROVAL_STALE', 'PLAN_APPROVAL_INTERRUPTED', 'NOT_FOUND', 'SESSION_NOT_FOUND']);

export interface DecisionsApi {
  state: DecisionsState;
  /** Rejects with a BridgeError the card shows (its buttons stay for a retry). */
  answer: (q: QuestionRequest, answers: AskAnswer[]) => Promise<void>;
  approve: (p: Proposal, permissionMode: PermissionMode, note: string) => Promise<void>;
  reject: (p: Proposal, feedback: string) => Promise<void>;
  dismiss: (key: string) => void;
  /** Re-reads what is waiting (after a stale decision). */
  reload: () => void;
}

export function useDecisions(sessionId: string): DecisionsApi {
  const { state, dispatch, load } = useSessionDecisions(sessionId);

  // Whenever the session is shown: drop the outcomes seen last time, then read again
  // what waits (it may have changed unseen).
  useEffect(() => {
    dispatch({ type: 'shown' });
    load();
  }, [dispatch, load]);

  const fail = useCallback((key: string, err: unknown) => {
    const e = toBridgeError(err);
    if (FINAL_CODES.has(e.code)) dispatch({ type: 'closed', key, code: e.code, message: e.message });
    throw e;
  }, [dispatch]);

  const answer = useCallback(
    async (q: QuestionRequest, answers: AskAnswer[]) => {
      try {
        await bridge.answerQuestion(sessionId, q.questionId, answers);
      } catch (err) {
        fail(questionKey(q.questionId), err);
      }
      // The agent announces it too; settle now so the card never lingers.
      const padded = q.questions.map((_, i) => answers[i] ?? { selected: [], text: '' });
      dispatch({ type: 'event', event: { type: 'question', sessionId, question: { ...q, state: 'answered', answers: padded } } });
    },
    [sessionId, fail, dispatch],
  );

  const decide = useCallback(
    async (p: Proposal, approve: boolean, permissionMode: PermissionMode | undefined, feedback: string) => {
      let settled: Proposal;
      try {
        settled = await bridge.resolveProposal({
          sessionId,
          turnId: p.turnId,
          proposalId: p.proposalId,
          version: p.version,
          approve,
          ...(approve && permissionMode ? { permissionMode } : {}),
          ...(feedback !== '' ? { feedback } : {}),
        });
      } catch (err) {
        return fail(proposalKey(p.proposalId), err);
      }
      dispatch({ type: 'event', event: { type: 'proposal', sessionId, proposal: { ...p, ...settled, sessionId } } });
    },
    [sessionId, fail, dispatch],
  );

  const approve = useCallback((p: Proposal, mode: PermissionMode, note: string) => decide(p, true, mode, note), [decide]);
  const reject = useCallback((p: Proposal, feedback: string) => decide(p, false, undefined, feedback), [decide]);
  const dismiss = useCallback((key: string) => dispatch({ type: 'dismissed', key }), [dispatch]);
  const reload = load;

  return { state, answer, approve, reject, dismiss, reload };
}

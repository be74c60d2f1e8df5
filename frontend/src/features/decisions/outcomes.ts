// Words for settled decisions, shared by the cards and the transcript's tool rows.
import type { AskAnswer, ProposalKind, ProposalState } from '../../bridge/types';
import { permissionModeLabel } from '../../lib/labels';

export function kindLabel(kind: ProposalKind | string): string {
  return kind === 'goal' ? 'Goal' : 'Plan';
}

/** One line for an answer: the chosen labels, then the typed text; "" when skipped. */
export function answerText(a: AskAnswer | undefined): string {
  if (!a) return '';
  const parts = [a.selected.join(', '), a.text.trim()].filter((x) => x !== '');
  return parts.join(' — ');
}

export function isSkipped(answers: readonly AskAnswer[]): boolean {
  return answers.every((a) => answerText(a) === '');
}

/** The outcome line of a settled proposal. */
export function proposalOutcome(kind: ProposalKind | string, state: ProposalState | string, permissionMode: string, path: string): string {
  const k = kindLabel(kind).toLowerCase();
  const kept = path ? ` The ${k} is kept at ${path}.` : '';
  switch (state) {
    case 'approved':
      return permissionMode
        ? `Approved — continuing in Agent mode with ${permissionModeLabel(permissionMode)}.`
        : 'Approved — continuing in Agent mode.';
    case 'rejected':
      return `Rejected — the agent revises the ${k}.`;
    case 'cancelled':
      return `Cancelled — the turn was stopped before a decision.${kept}`;
    case 'interrupted':
      return `Interrupted — PI-Desktop stopped before a decision.${kept}`;
    default:
      return 'Waiting for a decision.';
  }
}

/** What to do after an answer was refused for good (the card closed). */
export function nextStepFor(code: string): string {
  switch (code) {
    case 'PLAN_APPROVAL_STALE':
      return 'Nothing was applied. Check what is waiting now: a newer version may be pending, or the turn ended.';
    case 'PLAN_APPROVAL_INTERRUPTED':
      return 'Nothing was applied. The document is kept; ask the agent to continue from it.';
    case 'NOT_FOUND':
      return 'Your answer was not sent: the question was answered in another window, or its turn was stopped.';
    case 'SESSION_NOT_FOUND':
      return 'The session no longer exists.';
    default:
      return 'Nothing was applied.';
  }
}

// Pure state of one session's decision surfaces: the asktool questions and Plan/Goal
// proposals the agent waits for. A card appears while its request is pending; once it
// is settled (here, in another window, by Stop, or refused as stale) it keeps showing
// the outcome, without buttons, until dismissed or until another turn starts.
import type { DecisionEvent, Proposal, QuestionRequest } from '../bridge/types';

/** Why a card closed without the backend telling its outcome (a refused answer). */
export interface ClosedBy {
  code: string;
  message: string;
}

export interface QuestionCard {
  kind: 'question';
  /** `question:<id>` */
  key: string;
  request: QuestionRequest;
  closedBy: ClosedBy | null;
}

export interface ProposalCard {
  kind: 'proposal';
  /** `proposal:<id>` */
  key: string;
  proposal: Proposal;
  closedBy: ClosedBy | null;
}

export type DecisionCard = QuestionCard | ProposalCard;

export interface DecisionsState {
  sessionId: string;
  status: 'loading' | 'ready';
  cards: DecisionCard[];
  /** Keys already settled: a late load must not bring them back as pending. */
  settled: Record<string, true>;
}

export type DecisionsAction =
  | { type: 'loaded'; questions: QuestionRequest[]; proposals: Proposal[] }
  | { type: 'shown' }
  | { type: 'event'; event: DecisionEvent }
  | { type: 'closed'; key: string; code: string; message: string }
  | { type: 'dismissed'; key: string }
  | { type: 'turnStarted'; turnId: string }
  | { type: 'turnEnded' };

export function initialDecisions(sessionId: string): DecisionsState {
  return { sessionId, status: 'loading', cards: [], settled: {} };
}

export const questionKey = (id: string) => `question:${id}`;
export const proposalKey = (id: string) => `proposal:${id}`;

/** A card still offers its buttons. */
export function isPending(card: DecisionCard): boolean {
  if (card.closedBy) return false;
  return card.kind === 'question' ? card.request.state === 'pending' : card.proposal.state === 'pending';
}

function createdAt(card: DecisionCard): number {
  return card.kind === 'question' ? card.request.createdAt : card.proposal.createdAt;
}

function turnOf(card: DecisionCard): string {
  return card.kind === 'question' ? card.request.turnId : card.proposal.turnId;
}

function sorted(cards: DecisionCard[]): DecisionCard[] {
  return [...cards].sort((a, b) => createdAt(a) - createdAt(b));
}

function toCard(x: { kind: 'question'; request: QuestionRequest } | { kind: 'proposal'; proposal: Proposal }): DecisionCard {
  return x.kind === 'question'
    ? { kind: 'question', key: questionKey(x.request.questionId), request: x.request, closedBy: null }
    : { kind: 'proposal', key: proposalKey(x.proposal.proposalId), proposal: x.proposal, closedBy: null };
}

function settledState(card: DecisionCard): boolean {
  return card.kind === 'question' ? card.request.state !== 'pending' : card.proposal.state !== 'pending';
}

/** Adds or replaces one card from a fresh request; a settled request only updates a card already shown. */
function upsert(state: DecisionsState, next: DecisionCard): DecisionsState {
  const i = state.cards.findIndex((c) => c.key === next.key);
  if (!settledState(next)) {
    if (state.settled[next.key]) return state;
    if (i >= 0) {
      const cur = state.cards[i]!;
      // A refused answer closed it locally; the backend still says pending: keep it closed.
      if (cur.closedBy) return state;
      const cards = [...state.cards];
      cards[i] = next;
      return { ...state, cards };
    }
    return { ...state, cards: sorted([...state.cards, next]) };
  }
  const settled = { ...state.settled, [next.key]: true as const };
  if (i < 0) return { ...state, settled };
  const cards = [...state.cards];
  cards[i] = { ...next, closedBy: null };
  return { ...state, cards, settled };
}

export function decisionsReducer(state: DecisionsState, action: DecisionsAction): DecisionsState {
  switch (action.type) {
    case 'loaded': {
      let next: DecisionsState = { ...state, status: 'ready' };
      const pendingQuestions = new Set<string>();
      for (const q of action.questions) {
        if (q.sessionId !== state.sessionId && q.sessionId !== '') continue;
        pendingQuestions.add(questionKey(q.questionId));
        next = upsert(next, toCard({ kind: 'question', request: q }));
      }
      for (const p of action.proposals) {
        if (p.sessionId !== state.sessionId && p.sessionId !== '') continue;
        next = upsert(next, toCard({ kind: 'proposal', proposal: p }));
      }
      // A question card still pending here but no longer waiting in the backend was
      // settled while we were not listening: it can no longer be answered.
      const cards = next.cards.map((c): DecisionCard =>
        c.kind === 'question' && isPending(c) && !pendingQuestions.has(c.key)
          ? { ...c, closedBy: { code: 'NOT_FOUND', message: 'This question no longer waits: it was answered elsewhere, or its turn was stopped.' } }
          : c,
      );
      // Closed-by-error cards that are pending again (e.g. an approval refused because
      // the mode changed) stay closed; a reload on purpose reopens them, see 'dismissed'.
      return { ...next, cards };
    }
    case 'shown': {
      // Outcomes are for the user who was looking: reopening the session shows only
      // what still waits (the load that follows refreshes those).
      const cards = state.cards.filter(isPending);
      return cards.length === state.cards.length ? state : { ...state, cards };
    }
    case 'event': {
      const e = action.event;
      if (e.sessionId !== state.sessionId) return state;
      return upsert(state, e.type === 'question' ? toCard({ kind: 'question', request: e.question }) : toCard({ kind: 'proposal', proposal: e.proposal }));
    }
    case 'closed': {
      const cards = state.cards.map((c) => (c.key === action.key ? { ...c, closedBy: { code: action.code, message: action.message } } : c));
      return { ...state, cards };
    }
    case 'dismissed': {
      const card = state.cards.find((c) => c.key === action.key);
      if (!card || isPending(card)) return state;
      return { ...state, cards: state.cards.filter((c) => c.key !== action.key) };
    }
    case 'turnEnded': {
      // Questions and proposals live as long as their turn. The agent settles them before
      // the turn ends; one still pending here missed that event and can no longer apply.
      if (!state.cards.some(isPending)) return state;
      const cards = state.cards.map((c): DecisionCard =>
        isPending(c) ? { ...c, closedBy: { code: 'NOT_FOUND', message: 'This no longer waits: its turn ended.' } } : c,
      );
      return { ...state, cards };
    }
    case 'turnStarted': {
      // Outcomes belong to their turn; a new turn starts with a clean surface.
      const cards = state.cards.filter((c) => isPending(c) || turnOf(c) === action.turnId);
      return cards.length === state.cards.length ? state : { ...state, cards };
    }
  }
}

import { describe, expect, it } from 'vitest';
import * as norm from '../bridge/normalize';
import type { DecisionEvent } from '../bridge/types';
import { proposalRaw, questionRaw } from '../test/fakeBridge';
import { decisionsReducer, initialDecisions, isPending, type DecisionsState } from './decisions';
import { activityReducer, initialActivity, sessionActivity, waitingCount } from './SessionActivityContext';

const q = (id: string, extra: Record<string, unknown> = {}) => norm.questionRequest(questionRaw(id, 's1', [{ question: 'Q?' }], extra));
const p = (id: string, extra: Record<string, unknown> = {}) => norm.proposal(proposalRaw(id, 's1', extra));
const ev = (e: { question?: ReturnType<typeof q>; proposal?: ReturnType<typeof p> }): DecisionEvent =>
  e.question ? { type: 'question', sessionId: e.question.sessionId, question: e.question } : { type: 'proposal', sessionId: e.proposal!.sessionId, proposal: e.proposal! };

function reduce(...actions: Parameters<typeof decisionsReducer>[1][]): DecisionsState {
  return actions.reduce(decisionsReducer, initialDecisions('s1'));
}

describe('decisionsReducer', () => {
  it('loads pending questions and proposals, oldest first; settled proposals are not shown', () => {
    const s = reduce({
      type: 'loaded',
      questions: [q('q1', { createdAt: 20 })],
      proposals: [p('old', { state: 'approved', createdAt: 1 }), p('p1', { createdAt: 10 })],
    });
    expect(s.status).toBe('ready');
    expect(s.cards.map((c) => c.key)).toEqual(['proposal:p1', 'question:q1']);
    expect(s.cards.every(isPending)).toBe(true);
  });

  it('settles a shown card in place and never brings it back as pending', () => {
    let s = reduce({ type: 'loaded', questions: [], proposals: [] }, { type: 'event', event: ev({ proposal: p('p1') }) });
    s = decisionsReducer(s, { type: 'event', event: ev({ proposal: p('p1', { state: 'rejected', feedback: 'no' }) }) });
    expect(s.cards).toHaveLength(1);
    expect(isPending(s.cards[0]!)).toBe(false);
    s = decisionsReducer(s, { type: 'event', event: ev({ proposal: p('p1') }) });
    s = decisionsReducer(s, { type: 'loaded', questions: [], proposals: [p('p1')] });
    expect(isPending(s.cards[0]!)).toBe(false);
  });

  it('ignores settled requests it never showed and events of other sessions', () => {
    const s = reduce(
      { type: 'event', event: ev({ question: q('q1', { state: 'answered' }) }) },
      { type: 'event', event: { type: 'question', sessionId: 's2', question: { ...q('q2'), sessionId: 's2' } } },
    );
    expect(s.cards).toEqual([]);
  });

  it('a refused answer closes the card; a pending echo keeps it closed until dismissed and reloaded', () => {
    let s = reduce({ type: 'event', event: ev({ proposal: p('p1') }) }, { type: 'closed', key: 'proposal:p1', code: 'PLAN_APPROVAL_STALE', message: 'out of date' });
    expect(s.cards[0]).toMatchObject({ closedBy: { code: 'PLAN_APPROVAL_STALE' } });
    s = decisionsReducer(s, { type: 'loaded', questions: [], proposals: [p('p1')] });
    expect(isPending(s.cards[0]!)).toBe(false);
    s = decisionsReducer(s, { type: 'dismissed', key: 'proposal:p1' });
    expect(s.cards).toEqual([]);
    s = decisionsReducer(s, { type: 'loaded', questions: [], proposals: [p('p1')] });
    expect(isPending(s.cards[0]!)).toBe(true);
  });

  it('a pending question missing from a reload can no longer be answered', () => {
    const s = reduce({ type: 'event', event: ev({ question: q('q1') }) }, { type: 'loaded', questions: [], proposals: [] });
    expect(s.cards[0]).toMatchObject({ closedBy: { code: 'NOT_FOUND' } });
  });

  it('showing the session again drops settled and closed cards, keeps pending ones, and a late load brings none back', () => {
    let s = reduce({ type: 'loaded', questions: [q('q1'), q('q2')], proposals: [p('p1'), p('p2')] });
    s = decisionsReducer(s, { type: 'event', event: ev({ proposal: p('p1', { state: 'approved' }) }) });
    s = decisionsReducer(s, { type: 'event', event: ev({ question: q('q1', { state: 'answered' }) }) });
    s = decisionsReducer(s, { type: 'closed', key: 'proposal:p2', code: 'PLAN_APPROVAL_STALE', message: 'stale' });
    expect(s.cards).toHaveLength(4);
    s = decisionsReducer(s, { type: 'shown' });
    expect(s.cards.map((c) => c.key)).toEqual(['question:q2']);
    // A load still carrying the approved plan as pending must not bring it back.
    s = decisionsReducer(s, { type: 'loaded', questions: [q('q2')], proposals: [p('p1'), p('p2')] });
    expect(s.cards.map((c) => c.key).sort()).toEqual(['proposal:p2', 'question:q2']);
    expect(s.cards.every(isPending)).toBe(true);
    expect(decisionsReducer(s, { type: 'shown' })).toBe(s);
  });

  it('never dismisses a pending card; a new turn clears the outcomes of earlier ones', () => {
    let s = reduce(
      { type: 'event', event: ev({ question: q('q1') }) },
      { type: 'event', event: ev({ proposal: p('p1', { turnId: 't0' }) }) },
      { type: 'event', event: ev({ proposal: p('p1', { turnId: 't0', state: 'cancelled' }) }) },
      { type: 'dismissed', key: 'question:q1' },
    );
    expect(s.cards.map((c) => c.key)).toEqual(['question:q1', 'proposal:p1']);
    s = decisionsReducer(s, { type: 'turnStarted', turnId: 't2' });
    expect(s.cards.map((c) => c.key)).toEqual(['question:q1']);
  });
});

describe('activityReducer decisions', () => {
  const q2 = (id: string, extra: Record<string, unknown> = {}) => norm.questionRequest(questionRaw(id, 's2', [{ question: 'Q?' }], extra));
  const p2 = (id: string) => norm.proposal(proposalRaw(id, 's2'));
  const decided = (action: Parameters<typeof decisionsReducer>[1]) => ({ type: 'decisions' as const, sessionId: 's2', action });

  it('counts questions and proposals beside approvals and forgets them when settled or the turn ends', () => {
    let s = activityReducer(initialActivity, { type: 'requested', sessionId: 's2', id: 'r1' });
    s = activityReducer(s, decided({ type: 'event', event: { type: 'question', sessionId: 's2', question: q2('q1') } }));
    s = activityReducer(s, decided({ type: 'loaded', questions: [q2('q1')], proposals: [p2('p1')] }));
    expect(waitingCount(sessionActivity(s), 's2')).toBe(3);
    s = activityReducer(s, decided({ type: 'event', event: { type: 'question', sessionId: 's2', question: q2('q1', { state: 'answered' }) } }));
    expect(sessionActivity(s).decisions.s2).toEqual(['proposal:p1']);
    // A late seed does not bring a settled one back.
    s = activityReducer(s, decided({ type: 'loaded', questions: [q2('q1')], proposals: [] }));
    expect(sessionActivity(s).decisions.s2).toEqual(['proposal:p1']);
    s = activityReducer(s, { type: 'turn', sessionId: 's2', turnId: 't1', running: false });
    expect(sessionActivity(s).decisions.s2).toBeUndefined();
    expect(waitingCount(sessionActivity(s), 's2')).toBe(1);
  });

  it('the sidebar and the composer read the same cards: what the pane shows pending is what the badge counts', () => {
    let s = activityReducer(initialActivity, decided({ type: 'loaded', questions: [q2('q1')], proposals: [p2('p1')] }));
    const pane = s.sessions.s2!;
    expect(sessionActivity(s).decisions.s2).toEqual(pane.cards.filter(isPending).map((c) => c.key));
    s = activityReducer(s, decided({ type: 'closed', key: 'proposal:p1', code: 'PLAN_APPROVAL_STALE', message: 'out of date' }));
    expect(sessionActivity(s).decisions.s2).toEqual(['question:q1']);
    expect(s.sessions.s2!.cards.filter(isPending).map((c) => c.key)).toEqual(['question:q1']);
  });
});

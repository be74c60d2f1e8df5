import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent, DecisionEvent } from '../bridge/types';
import { NOW, bridgeModule as bridge, project, resetFakeBridge, session } from '../test/fakeBridge';
import { renderApp } from '../test/render';
import { ANY_SESSION, SessionEventRouter } from './sessionEvents';

vi.mock('../bridge', () => import('../test/fakeBridge').then((m) => m.bridgeModule));

const text = (sessionId: string): AgentEvent => ({ type: 'text', sessionId, turnId: 't1', messageId: 'm1', delta: 'hi', delegationId: '' });

describe('SessionEventRouter', () => {
  it('hands an event to the listeners of its session and of every session, nobody else', () => {
    const router = new SessionEventRouter();
    const heard: string[] = [];
    router.on('agent', 's1', (e) => heard.push(`s1:${e.sessionId}`));
    router.on('agent', 's2', (e) => heard.push(`s2:${e.sessionId}`));
    router.on('agent', ANY_SESSION, (e) => heard.push(`any:${e.sessionId}`));
    router.on('decision', 's1', (e: DecisionEvent) => heard.push(`decision:${e.sessionId}`));
    router.dispatch('agent', text('s1'));
    router.dispatch('agent', text('s3'));
    expect(heard).toEqual(['s1:s1', 'any:s1', 'any:s3']);
  });

  it('stops calling a listener once unsubscribed, also from inside a dispatch', () => {
    const router = new SessionEventRouter();
    const heard: string[] = [];
    const offA = router.on('agent', 's1', () => {
      heard.push('a');
      offA();
    });
    router.on('agent', 's1', () => heard.push('b'));
    router.dispatch('agent', text('s1'));
    router.dispatch('agent', text('s1'));
    expect(heard).toEqual(['a', 'b', 'b']);
  });
});

describe('one subscription to the bridge', () => {
  beforeEach(() => {
    resetFakeBridge({
      projects: [project('p1', 'alpha-app')],
      sessions: [session('s1', 'p1', 'Fix login bug', NOW - 60_000), session('s2', 'p1', 'Other', NOW - 120_000)],
    });
  });

  it('the whole app, with a session, its panels and its composer shown, subscribes to each event channel once', async () => {
    const { user } = await renderApp();
    await user.click(screen.getByRole('button', { name: /^Fix login bug/ }));
    await user.click(await screen.findByRole('button', { name: 'Changes (0)' }));
    await user.click(await screen.findByRole('button', { name: 'Activity' }));
    await user.click(screen.getByRole('button', { name: /^Other/ }));
    await screen.findByRole('heading', { name: 'Other' });
    for (const on of [bridge.onAgentEvent, bridge.onPermissionEvent, bridge.onDecisionEvent, bridge.onTaskEvent, bridge.onTodos, bridge.onWorktreeSetup]) {
      expect(on).toHaveBeenCalledTimes(1);
    }
    for (const on of [bridge.onProvidersChanged, bridge.onSettingsChanged, bridge.onProjectsChanged, bridge.onSessionsChanged]) {
      expect(on).toHaveBeenCalledTimes(1);
    }
  });
});

import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../state/queryKeys';
import { SessionEventRouter } from '../../state/sessionEvents';
import { resetFakeBridge, type FakeBackend } from '../../test/fakeBridge';
import { cacheRules } from './cacheRules';

vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));

const lists = {
  p1: queryKeys.sessions('p1'),
  p2: queryKeys.sessions('p2'),
  temporary: queryKeys.sessions(''),
  archived: [...queryKeys.archived, ['p1', 'p2']],
};

let backend: FakeBackend;
let client: QueryClient;
let stop: () => void;
beforeEach(() => {
  backend = resetFakeBridge();
  client = new QueryClient();
  for (const key of Object.values(lists)) client.setQueryData(key, []);
  stop = cacheRules(client, new SessionEventRouter());
});
afterEach(() => stop());

function stale(): string[] {
  return Object.entries(lists)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name);
}

describe('cacheRules: sessions:changed', () => {
  it.each([
    { name: "a project's session refreshes that project's list and the archive", projectId: 'p1', want: ['p1', 'archived'] },
    // Deleting a session announces no project: every list may have lost it.
    { name: 'an unknown project refreshes every session list', projectId: '', want: ['p1', 'p2', 'temporary', 'archived'] },
  ])('$name', ({ projectId, want }) => {
    backend.emit('sessions:changed', { sessionId: 's1', projectId });
    expect(stale()).toEqual(want);
  });
});

describe('cacheRules: mcp:changed', () => {
  const servers = { app: queryKeys.mcpServers(''), p1: queryKeys.mcpServers('p1'), p2: queryKeys.mcpServers('p2') };
  const staleServers = () =>
    Object.entries(servers)
      .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
      .map(([name]) => name);
  beforeEach(() => {
    for (const key of Object.values(servers)) client.setQueryData(key, []);
  });

  it.each([
    { name: "a project's server refreshes only that project's list", projectId: 'p1', want: ['p1'] },
    // The app's servers are part of every project's list.
    { name: 'an app server refreshes every list', projectId: '', want: ['app', 'p1', 'p2'] },
  ])('$name', ({ projectId, want }) => {
    backend.emit('mcp:changed', { projectId, serverId: 'everything' });
    expect(staleServers()).toEqual(want);
    expect(stale()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Project, Session } from '../bridge/types';
import { initialWorkspace, isExpanded, workspaceReducer, type WorkspaceState } from './workspace';

const p = (id: string): Project => ({ id, name: id, path: `/x/${id}`, createdAt: 1, updatedAt: 1, setupCommand: '' });
const s = (id: string, projectId: string, updatedAt: number, archivedAt = 0): Session => ({
  id, projectId, title: id, operatingMode: 'agent', permissionMode: 'inherit', isolated: false, createdAt: updatedAt, updatedAt, archivedAt,
});

function loaded(): WorkspaceState {
  let st = workspaceReducer(initialWorkspace, { type: 'projectsLoaded', projects: [p('a'), p('b')] });
  st = workspaceReducer(st, { type: 'sessionsLoaded', projectId: 'a', sessions: [s('a2', 'a', 20), s('a1', 'a', 10)] });
  st = workspaceReducer(st, { type: 'sessionsLoaded', projectId: '', sessions: [s('t1', '', 5)] });
  return st;
}

describe('workspaceReducer', () => {
  it('moves an archived session out of the active list and into a loaded archive', () => {
    let st = workspaceReducer(loaded(), { type: 'archivedLoaded', sessions: [] });
    st = workspaceReducer(st, { type: 'sessionUpdated', session: s('a1', 'a', 10, 99) });
    expect(st.sessions.a!.map((x) => x.id)).toEqual(['a2']);
    expect(st.archived!.map((x) => x.id)).toEqual(['a1']);
  });

  it('puts a restored session back, newest first', () => {
    let st = workspaceReducer(loaded(), { type: 'archivedLoaded', sessions: [s('a3', 'a', 30, 40)] });
    st = workspaceReducer(st, { type: 'sessionUpdated', session: s('a3', 'a', 30) });
    expect(st.sessions.a!.map((x) => x.id)).toEqual(['a3', 'a2', 'a1']);
    expect(st.archived).toEqual([]);
  });

  it('keeps the selection in sync with fresh data and clears it on delete', () => {
    let st = workspaceReducer(loaded(), { type: 'select', session: s('a1', 'a', 10) });
    st = workspaceReducer(st, { type: 'sessionsLoaded', projectId: 'a', sessions: [{ ...s('a1', 'a', 11), title: 'renamed' }] });
    expect(st.selected?.title).toBe('renamed');
    st = workspaceReducer(st, { type: 'sessionRemoved', id: 'a1' });
    expect(st.selected).toBeNull();
    expect(st.sessions.a).toEqual([]);
  });

  it('drops a removed project with its sessions and selection', () => {
    let st = workspaceReducer(loaded(), { type: 'select', session: s('a2', 'a', 20) });
    st = workspaceReducer(st, { type: 'projectRemoved', id: 'a' });
    expect(st.projects.map((x) => x.id)).toEqual(['b']);
    expect(st.sessions.a).toBeUndefined();
    expect(st.sessions['']).toHaveLength(1);
    expect(st.selected).toBeNull();
  });

  it('forgets sessions of projects that disappeared from a reload but keeps temporary ones', () => {
    const st = workspaceReducer(loaded(), { type: 'projectsLoaded', projects: [p('b')] });
    expect(Object.keys(st.sessions).sort()).toEqual(['']);
  });

  it('expands projects by default and remembers collapsing', () => {
    let st = loaded();
    expect(isExpanded(st, 'a')).toBe(true);
    st = workspaceReducer(st, { type: 'setExpanded', projectId: 'a', expanded: false });
    expect(isExpanded(st, 'a')).toBe(false);
    st = workspaceReducer(st, { type: 'setExpanded', projectId: 'a', expanded: true });
    expect(isExpanded(st, 'a')).toBe(true);
  });

  it('selecting a session leaves the settings view', () => {
    let st = workspaceReducer(loaded(), { type: 'showView', view: 'settings' });
    st = workspaceReducer(st, { type: 'select', session: s('t1', '', 5) });
    expect(st.view).toBe('session');
  });
});

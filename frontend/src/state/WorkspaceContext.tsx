// Owns the workspace reducer and the bridge calls that feed it. Lists are reloaded after
// our own mutations and whenever the backend announces a change.
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import * as bridge from '../bridge';
import type { Project, Session, SessionConfig } from '../bridge/types';
import { useToasts } from './ToastContext';
import { initialWorkspace, workspaceReducer, type MainView, type SidebarView, type WorkspaceState } from './workspace';

export interface WorkspaceApi {
  state: WorkspaceState;
  /** Picks a folder with the native dialog and adds it; errors become toasts. */
  addProject: () => Promise<void>;
  /** Adds the folder at path and shows it; rejects with the BridgeError (e.g. NOT_FOUND). */
  addProjectPath: (path: string) => Promise<void>;
  removeProject: (p: Project) => Promise<void>;
  setExpanded: (projectId: string, expanded: boolean) => void;
  /** isolated: the session works in its own git worktree (git projects only). */
  newSession: (projectId: string, opts?: { isolated?: boolean }) => Promise<void>;
  select: (s: Session | null) => void;
  renameSession: (s: Session, title: string) => Promise<void>;
  archiveSession: (s: Session) => Promise<void>;
  restoreSession: (s: Session) => Promise<void>;
  deleteSession: (s: Session) => Promise<void>;
  /** Stores the session's operating mode and/or permission override ("" leaves one unchanged). */
  configureSession: (s: Session, config: SessionConfig) => Promise<void>;
  showView: (view: MainView) => void;
  showSidebar: (sidebar: SidebarView) => void;
}

const WorkspaceContext = createContext<WorkspaceApi | null>(null);

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(workspaceReducer, initialWorkspace);
  const { reportError } = useToasts();
  const stateRef = useRef(state);
  stateRef.current = state;
  // Drops responses that arrive after a newer request for the same list.
  const seq = useRef(new Map<string, number>());
  const latest = useCallback(<T,>(key: string, load: () => Promise<T>, apply: (v: T) => void) => {
    const n = (seq.current.get(key) ?? 0) + 1;
    seq.current.set(key, n);
    return load().then(
      (v) => {
        if (seq.current.get(key) === n) apply(v);
      },
      (err: unknown) => {
        if (seq.current.get(key) === n) reportError(err);
      },
    );
  }, [reportError]);

  const loadSessions = useCallback(
    (projectId: string) =>
      latest(`s:${projectId}`, () => bridge.listSessions(projectId, false), (sessions) =>
        dispatch({ type: 'sessionsLoaded', projectId, sessions })),
    [latest],
  );

  const loadArchived = useCallback(
    () =>
      latest('archived', async () => {
        const keys = ['', ...stateRef.current.projects.map((p) => p.id)];
        const lists = await Promise.all(keys.map((k) => bridge.listSessions(k, true)));
        return lists.flat();
      }, (sessions) => dispatch({ type: 'archivedLoaded', sessions })),
    [latest],
  );

  const loadProjects = useCallback(
    () =>
      latest('projects', () => bridge.listProjects(), (projects) => {
        dispatch({ type: 'projectsLoaded', projects });
        for (const p of projects) void loadSessions(p.id);
      }),
    [latest, loadSessions],
  );

  useEffect(() => {
    void loadProjects();
    void loadSessions('');
    // `pi-desktop --session ID` opens the window on that session.
    bridge.initialSession().then(
      (s) => {
        if (!s || stateRef.current.selected !== null) return;
        if (s.projectId !== '') dispatch({ type: 'setExpanded', projectId: s.projectId, expanded: true });
        dispatch({ type: 'select', session: s });
      },
      (err: unknown) => reportError(err),
    );
  }, [loadProjects, loadSessions, reportError]);

  useEffect(() => {
    if (state.sidebar === 'archived') void loadArchived();
  }, [state.sidebar, state.projects, loadArchived]);

  useEffect(() => {
    const offProjects = bridge.onProjectsChanged(() => void loadProjects());
    const offSessions = bridge.onSessionsChanged((e) => {
      void loadSessions(e.projectId);
      if (stateRef.current.sidebar === 'archived') void loadArchived();
    });
    return () => {
      offProjects();
      offSessions();
    };
  }, [loadProjects, loadSessions, loadArchived]);

  const guard = useCallback(
    async (fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        reportError(err);
      }
    },
    [reportError],
  );

  const addProjectPath = useCallback(
    async (path: string) => {
      const p = await bridge.addProject(path);
      dispatch({ type: 'setExpanded', projectId: p.id, expanded: true });
      await loadProjects();
      dispatch({ type: 'showSidebar', sidebar: 'active' });
    },
    [loadProjects],
  );

  const api = useMemo<WorkspaceApi>(() => ({
    state,
    addProject: () =>
      guard(async () => {
        const path = await bridge.chooseFolder('Add a project folder');
        if (path !== '') await addProjectPath(path);
      }),
    addProjectPath,
    removeProject: (p) =>
      guard(async () => {
        await bridge.removeProject(p.id);
        dispatch({ type: 'projectRemoved', id: p.id });
        await loadProjects();
      }),
    setExpanded: (projectId, expanded) => dispatch({ type: 'setExpanded', projectId, expanded }),
    newSession: (projectId, opts) =>
      guard(async () => {
        const s = await bridge.createSession({ projectId, title: '', ...(opts?.isolated ? { isolated: true } : {}) });
        if (projectId !== '') dispatch({ type: 'setExpanded', projectId, expanded: true });
        dispatch({ type: 'sessionUpdated', session: s });
        dispatch({ type: 'showSidebar', sidebar: 'active' });
        dispatch({ type: 'select', session: s });
        await loadSessions(projectId);
      }),
    select: (s) => dispatch({ type: 'select', session: s }),
    renameSession: (s, title) =>
      guard(async () => {
        dispatch({ type: 'sessionUpdated', session: await bridge.renameSession(s.id, title) });
      }),
    archiveSession: (s) =>
      guard(async () => {
        dispatch({ type: 'sessionUpdated', session: await bridge.archiveSession(s.id) });
        await loadSessions(s.projectId);
      }),
    restoreSession: (s) =>
      guard(async () => {
        dispatch({ type: 'sessionUpdated', session: await bridge.restoreSession(s.id) });
        await loadSessions(s.projectId);
      }),
    deleteSession: (s) =>
      guard(async () => {
        await bridge.deleteSession(s.id);
        dispatch({ type: 'sessionRemoved', id: s.id });
      }),
    configureSession: (s, config) =>
      guard(async () => {
        dispatch({ type: 'sessionUpdated', session: await bridge.configureSession(s.id, config) });
      }),
    showView: (view) => dispatch({ type: 'showView', view }),
    showSidebar: (sidebar) => dispatch({ type: 'showSidebar', sidebar }),
  }), [state, guard, addProjectPath, loadProjects, loadSessions]);

  return <WorkspaceContext.Provider value={api}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceApi {
  const ctx = useContext(WorkspaceContext);
  if (!ctx) throw new Error('useWorkspace outside WorkspaceProvider');
  return ctx;
}

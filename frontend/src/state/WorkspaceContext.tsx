// Owns the workspace reducer and the bridge calls that feed it. Lists are read through the
// query cache: reloaded after our own mutations and whenever the backend announces a change.
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import * as bridge from '../bridge';
import type { Project, Session, SessionConfig } from '../bridge/types';
import { queryKeys } from './queryKeys';
import { useToasts } from './ToastContext';
import { initialWorkspace, workspaceReducer, type MainView, type SettingsIntent, type SidebarView, type WorkspaceState } from './workspace';

export interface WorkspaceApi {
  state: WorkspaceState;
  /** Picks a folder with the native dialog and adds it; errors become toasts. */
  addProject: () => Promise<void>;
  /**
   * Adds the folder at path and opens a new session in it (composer focused); rejects
   * with the BridgeError (e.g. NOT_FOUND) when the folder cannot be added.
   */
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
  /** intent: what Settings opens for (e.g. the add-provider form of the first run). */
  showView: (view: MainView, intent?: SettingsIntent) => void;
  /** Settings consumed its intent. */
  intentDone: () => void;
  showSidebar: (sidebar: SidebarView) => void;
}

const WorkspaceContext = createContext<WorkspaceApi | null>(null);

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(workspaceReducer, initialWorkspace);
  const { reportError } = useToasts();
  const client = useQueryClient();
  const stateRef = useRef(state);
  stateRef.current = state;

  // The lists come from the query cache (projects:changed and sessions:changed
  // invalidate them, see features/app/cacheRules); the reducer keeps them beside the
  // selection, expansion and views, and applies our own mutations at once.
  const projects = useQuery({ queryKey: queryKeys.projects, queryFn: bridge.listProjects });
  const projectIds = useMemo(() => (projects.data ?? []).map((p) => p.id), [projects.data]);
  const sessionKeys = useMemo(() => ['', ...projectIds], [projectIds]);
  const sessions = useQueries({
    queries: sessionKeys.map((projectId) => ({ queryKey: queryKeys.sessions(projectId), queryFn: () => bridge.listSessions(projectId, false) })),
  });
  const archived = useQuery({
    queryKey: [...queryKeys.archived, projectIds],
    queryFn: async () => (await Promise.all(['', ...projectIds].map((k) => bridge.listSessions(k, true)))).flat(),
    enabled: state.sidebar === 'archived' && projects.data !== undefined,
  });

  useEffect(() => {
    if (projects.data) dispatch({ type: 'projectsLoaded', projects: projects.data });
  }, [projects.data]);
  // Each list lands once per answer: remember which answer each project got.
  const applied = useRef(new Map<string, Session[]>());
  useEffect(() => {
    sessions.forEach((q, i) => {
      const projectId = sessionKeys[i]!;
      if (!q.data || applied.current.get(projectId) === q.data) return;
      applied.current.set(projectId, q.data);
      dispatch({ type: 'sessionsLoaded', projectId, sessions: q.data });
    });
  }, [sessions, sessionKeys]);
  useEffect(() => {
    if (archived.data) dispatch({ type: 'archivedLoaded', sessions: archived.data });
  }, [archived.data]);
  const errors = [projects.error, archived.error, ...sessions.map((q) => q.error)];
  const firstError = errors.find((e) => e) ?? null;
  useEffect(() => {
    if (firstError) reportError(firstError);
  }, [firstError, reportError]);

  const loadProjects = useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.projects, exact: true }),
        client.invalidateQueries({ queryKey: queryKeys.sessionLists }),
      ]),
    [client],
  );
  const loadSessions = useCallback((projectId: string) => client.invalidateQueries({ queryKey: queryKeys.sessions(projectId) }), [client]);

  useEffect(() => {
    // `pi-desktop --session ID` opens the window on that session.
    bridge.initialSession().then(
      (s) => {
        if (!s || stateRef.current.selected !== null) return;
        if (s.projectId !== '') dispatch({ type: 'setExpanded', projectId: s.projectId, expanded: true });
        dispatch({ type: 'select', session: s });
      },
      (err: unknown) => reportError(err),
    );
  }, [reportError]);

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

  const openNewSession = useCallback(
    async (projectId: string, opts?: { isolated?: boolean }) => {
      const s = await bridge.createSession({ projectId, title: '', ...(opts?.isolated ? { isolated: true } : {}) });
      if (projectId !== '') dispatch({ type: 'setExpanded', projectId, expanded: true });
      dispatch({ type: 'sessionUpdated', session: s });
      dispatch({ type: 'showSidebar', sidebar: 'active' });
      dispatch({ type: 'select', session: s, fresh: true });
      await loadSessions(projectId);
    },
    [loadSessions],
  );

  const addProjectPath = useCallback(
    async (path: string) => {
      const p = await bridge.addProject(path);
      dispatch({ type: 'setExpanded', projectId: p.id, expanded: true });
      await loadProjects();
      dispatch({ type: 'showSidebar', sidebar: 'active' });
      // A project is added to work in it: open its first session right away. The
      // project stays added when that fails; the toast says why.
      await guard(() => openNewSession(p.id));
    },
    [loadProjects, guard, openNewSession],
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
    newSession: (projectId, opts) => guard(() => openNewSession(projectId, opts)),
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
        // Nothing will read the session again: drop all it cached.
        client.removeQueries({ queryKey: queryKeys.session(s.id) });
      }),
    configureSession: (s, config) =>
      guard(async () => {
        dispatch({ type: 'sessionUpdated', session: await bridge.configureSession(s.id, config) });
      }),
    showView: (view, intent) => dispatch({ type: 'showView', view, intent }),
    intentDone: () => dispatch({ type: 'intentDone' }),
    showSidebar: (sidebar) => dispatch({ type: 'showSidebar', sidebar }),
  }), [state, guard, addProjectPath, openNewSession, loadProjects, loadSessions, client]);

  return <WorkspaceContext.Provider value={api}>{children}</WorkspaceContext.Provider>;
}

export function useWorkspace(): WorkspaceApi {
  const ctx = useContext(WorkspaceContext);
  if (!ctx) throw new Error('useWorkspace outside WorkspaceProvider');
  return ctx;
}

// Pure state for the sidebar and main pane: projects, sessions per project (key "" =
// temporary sessions), archived sessions, expansion, selection and the current view.
import type { Project, Session } from '../bridge/types';

export type MainView = 'session' | 'settings';
export type SidebarView = 'active' | 'archived';

export interface WorkspaceState {
  projects: Project[];
  projectsLoaded: boolean;
  /** Active (not archived) sessions by project id; "" holds temporary sessions. */
  sessions: Record<string, Session[]>;
  /** Archived sessions across projects, most recently archived first; null until loaded. */
  archived: Session[] | null;
  /** Project ids the user collapsed (projects are expanded by default). */
  collapsed: Record<string, boolean>;
  selected: Session | null;
  view: MainView;
  sidebar: SidebarView;
  /** A session this window just created: its composer takes the focus when it opens. */
  freshSessionId: string | null;
  /** Settings opened for one task (the add-provider form of the first run); null: none. */
  settingsIntent: SettingsIntent | null;
}

/** The add-provider form of the first run, or the install of a .piplug the app was asked to open. */
export type SettingsIntent = 'add-provider' | { installPlugin: string };

export const initialWorkspace: WorkspaceState = {
  projects: [],
  projectsLoaded: false,
  sessions: {},
  archived: null,
  collapsed: {},
  selected: null,
  view: 'session',
  sidebar: 'active',
  freshSessionId: null,
  settingsIntent: null,
};

export type WorkspaceAction =
  | { type: 'projectsLoaded'; projects: Project[] }
  | { type: 'sessionsLoaded'; projectId: string; sessions: Session[] }
  | { type: 'archivedLoaded'; sessions: Session[] }
  | { type: 'setExpanded'; projectId: string; expanded: boolean }
  | { type: 'select'; session: Session | null; fresh?: boolean }
  | { type: 'sessionUpdated'; session: Session }
  | { type: 'sessionRemoved'; id: string }
  | { type: 'projectRemoved'; id: string }
  | { type: 'showView'; view: MainView; intent?: SettingsIntent }
  | { type: 'intentDone' }
  | { type: 'showSidebar'; sidebar: SidebarView };

export function newestFirst(a: Session, b: Session): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt;
}

export function recentlyArchivedFirst(a: Session, b: Session): number {
  return b.archivedAt - a.archivedAt || newestFirst(a, b);
}

function without(list: Session[], id: string): Session[] {
  return list.filter((s) => s.id !== id);
}

function findFresh(state: WorkspaceState, id: string): Session | undefined {
  for (const list of Object.values(state.sessions)) {
    const hit = list.find((s) => s.id === id);
    if (hit) return hit;
  }
  return state.archived?.find((s) => s.id === id);
}

function refreshSelected(state: WorkspaceState): WorkspaceState {
  if (!state.selected) return state;
  const fresh = findFresh(state, state.selected.id);
  return fresh && fresh !== state.selected ? { ...state, selected: fresh } : state;
}

export function workspaceReducer(state: WorkspaceState, action: WorkspaceAction): WorkspaceState {
  switch (action.type) {
    case 'projectsLoaded': {
      const ids = new Set(action.projects.map((p) => p.id));
      const sessions: Record<string, Session[]> = {};
      for (const [key, list] of Object.entries(state.sessions)) {
        if (key === '' || ids.has(key)) sessions[key] = list;
      }
      return { ...state, projects: action.projects, projectsLoaded: true, sessions };
    }
    case 'sessionsLoaded':
      return refreshSelected({
        ...state,
        sessions: { ...state.sessions, [action.projectId]: action.sessions },
      });
    case 'archivedLoaded':
      return refreshSelected({ ...state, archived: [...action.sessions].sort(recentlyArchivedFirst) });
    case 'setExpanded': {
      const collapsed = { ...state.collapsed };
      if (action.expanded) delete collapsed[action.projectId];
      else collapsed[action.projectId] = true;
      return { ...state, collapsed };
    }
    case 'select':
      return { ...state, selected: action.session, view: 'session', freshSessionId: action.fresh && action.session ? action.session.id : null };
    case 'sessionUpdated': {
      const s = action.session;
      const key = s.projectId;
      const active = without(state.sessions[key] ?? [], s.id);
      const sessions = {
        ...state.sessions,
        [key]: s.archivedAt > 0 ? active : [...active, s].sort(newestFirst),
      };
      let archived = state.archived;
      if (archived) {
        archived = without(archived, s.id);
        if (s.archivedAt > 0) archived = [...archived, s].sort(recentlyArchivedFirst);
      }
      const selected = state.selected?.id === s.id ? s : state.selected;
      return { ...state, sessions, archived, selected };
    }
    case 'sessionRemoved': {
      const sessions: Record<string, Session[]> = {};
      for (const [key, list] of Object.entries(state.sessions)) sessions[key] = without(list, action.id);
      return {
        ...state,
        sessions,
        archived: state.archived ? without(state.archived, action.id) : null,
        selected: state.selected?.id === action.id ? null : state.selected,
      };
    }
    case 'projectRemoved': {
      const sessions = { ...state.sessions };
      delete sessions[action.id];
      return {
        ...state,
        projects: state.projects.filter((p) => p.id !== action.id),
        sessions,
        archived: state.archived ? state.archived.filter((s) => s.projectId !== action.id) : null,
        selected: state.selected?.projectId === action.id ? null : state.selected,
      };
    }
    case 'showView':
      return { ...state, view: action.view, settingsIntent: action.intent ?? null };
    case 'intentDone':
      return state.settingsIntent === null ? state : { ...state, settingsIntent: null };
    case 'showSidebar':
      return { ...state, sidebar: action.sidebar };
  }
}

export function isExpanded(state: WorkspaceState, projectId: string): boolean {
  return !state.collapsed[projectId];
}

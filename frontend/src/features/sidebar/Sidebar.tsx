import { Archive, ArrowLeft, FolderInput, FolderPlus, Info, Plus, Settings as SettingsIcon, SquarePen } from 'lucide-react';
import type { Project } from '../../bridge/types';
import type { WorkspaceState } from '../../state/workspace';
import { useState } from 'react';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button, IconButton } from '../../ui/Button';
import { AddProjectByPathDialog } from './AddProjectByPath';
import { ProjectItem } from './ProjectItem';
import { SessionRow } from './SessionRow';
import { SidebarSearch } from '../search/SidebarSearch';
import { useShortcutHint } from '../keyboard/CommandsContext';

export const TEMPORARY_HINT =
  'Temporary sessions belong to no project. Their workspace is a private scratch folder, deleted with the session.';

/**
 * Where the sidebar's New session goes: the open session's project, else the first
 * project, else a temporary session.
 */
export function newSessionTarget(state: WorkspaceState): { project: Project | null } {
  const open = state.selected ? state.projects.find((p) => p.id === state.selected?.projectId) : undefined;
  if (state.selected && state.selected.projectId === '') return { project: null };
  return { project: open ?? state.projects[0] ?? null };
}

export function Sidebar() {
  const ws = useWorkspace();
  const { state } = ws;
  const settingsHint = useShortcutHint('settings', 'Settings');
  return (
    <nav className="sidebar" aria-label="Sidebar">
      <div className="sidebar-header">
        <span className="app-name">PI-Desktop</span>
      </div>
      <SidebarSearch />
      {state.sidebar === 'active' ? <ActiveSessions /> : <ArchivedSessions />}
      <div className="sidebar-footer">
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={state.sidebar === 'archived'}
          icon={<Archive size={15} aria-hidden="true" />}
          onClick={() => ws.showSidebar(state.sidebar === 'archived' ? 'active' : 'archived')}
        >
          Archived
        </Button>
        <Button
          variant="ghost"
          size="sm"
          aria-current={state.view === 'settings' ? 'page' : undefined}
          {...settingsHint}
          icon={<SettingsIcon size={15} aria-hidden="true" />}
          onClick={() => ws.showView('settings')}
        >
          Settings
        </Button>
      </div>
    </nav>
  );
}

function ActiveSessions() {
  const ws = useWorkspace();
  const { state } = ws;
  const temporary = state.sessions[''];
  const [byPath, setByPath] = useState(false);
  const target = newSessionTarget(state);
  return (
    <div className="sidebar-scroll">
      <Button
        variant="primary"
        size="sm"
        className="new-session"
        icon={<SquarePen size={15} aria-hidden="true" />}
        title={target.project ? `New session in ${target.project.name}` : `New temporary session. ${TEMPORARY_HINT}`}
        onClick={() => void ws.newSession(target.project?.id ?? '')}
      >
        New session
      </Button>
      <div className="sidebar-actions">
        <Button variant="secondary" size="sm" className="add-project" icon={<FolderPlus size={15} aria-hidden="true" />} onClick={() => void ws.addProject()}>
          Add project
        </Button>
        <IconButton label="Add project by path…" title="Add a project by typing its folder path" onClick={() => setByPath(true)}>
          <FolderInput size={15} aria-hidden="true" />
        </IconButton>
        {byPath && <AddProjectByPathDialog onClose={() => setByPath(false)} />}
      </div>

      <section className="sidebar-section" aria-labelledby="projects-heading">
        <h2 id="projects-heading" className="section-heading">Projects</h2>
        {!state.projectsLoaded ? (
          <p className="list-note">Loading…</p>
        ) : state.projects.length === 0 ? (
          <p className="list-note">Add a folder to work on it with the agent.</p>
        ) : (
          <ul className="project-list">
            {state.projects.map((p) => (
              <ProjectItem key={p.id} project={p} />
            ))}
          </ul>
        )}
      </section>

      <section className="sidebar-section" aria-labelledby="temporary-heading">
        <div className="section-heading-row">
          <h2 id="temporary-heading" className="section-heading">
            Temporary
          </h2>
          <span className="hint-icon" title={TEMPORARY_HINT} aria-label={TEMPORARY_HINT} role="img">
            <Info size={12} aria-hidden="true" />
          </span>
          <IconButton label="New temporary session" title={`New temporary session. ${TEMPORARY_HINT}`} onClick={() => void ws.newSession('')}>
            <Plus size={14} aria-hidden="true" />
          </IconButton>
        </div>
        <ul className="session-list session-list-flat" aria-label="Temporary sessions">
          {temporary === undefined ? (
            <li className="list-note">Loading…</li>
          ) : temporary.length === 0 ? (
            <li className="list-note">No temporary sessions</li>
          ) : (
            temporary.map((s) => <SessionRow key={s.id} session={s} />)
          )}
        </ul>
      </section>
    </div>
  );
}

function ArchivedSessions() {
  const ws = useWorkspace();
  const { state } = ws;
  const names = new Map(state.projects.map((p) => [p.id, p.name]));
  return (
    <div className="sidebar-scroll">
      <div className="sidebar-actions">
        <Button variant="ghost" size="sm" icon={<ArrowLeft size={15} aria-hidden="true" />} onClick={() => ws.showSidebar('active')}>
          Back to sessions
        </Button>
      </div>
      <section className="sidebar-section" aria-labelledby="archived-heading">
        <h2 id="archived-heading" className="section-heading">Archived</h2>
        <ul className="session-list session-list-flat" aria-label="Archived sessions">
          {state.archived === null ? (
            <li className="list-note">Loading…</li>
          ) : state.archived.length === 0 ? (
            <li className="list-note">Nothing archived</li>
          ) : (
            state.archived.map((s) => (
              <SessionRow key={s.id} session={s} subtitle={s.projectId === '' ? 'Temporary' : names.get(s.projectId) ?? 'Removed project'} />
            ))
          )}
        </ul>
      </section>
    </div>
  );
}

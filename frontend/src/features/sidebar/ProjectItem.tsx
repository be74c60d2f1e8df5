import { ChevronRight, Folder, FolderOpen, GitBranch, MoreHorizontal, Plus, Trash2 } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import * as bridge from '../../bridge';
import type { Project } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { isExpanded } from '../../state/workspace';
import { useWorkspace } from '../../state/WorkspaceContext';
import { IconButton } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { useMenu } from '../../ui/Menu';
import { SessionRow } from './SessionRow';

export function ProjectItem({ project }: { project: Project }) {
  const ws = useWorkspace();
  const confirm = useConfirm();
  const expanded = isExpanded(ws.state, project.id);
  const sessions = ws.state.sessions[project.id];

  const askRemove = async () => {
    const ok = await confirm({
      title: 'Remove project?',
      message: (
        <>
          <p>“{project.name}” will be removed from PI-Desktop.</p>
          <p className="muted">The folder and its files stay on disk: {project.path}</p>
        </>
      ),
      confirmLabel: 'Remove project',
      danger: true,
    });
    if (ok) await ws.removeProject(project);
  };

  // Whether the folder is a git repository: asked the first time the menu opens.
  // Unknown (undefined): no isolated option, and ask again when the menu next opens.
  const gitQuery = useQuery({ queryKey: queryKeys.projectIsGit(project.id), queryFn: () => bridge.projectIsGit(project.id), enabled: false });
  const isGit = gitQuery.data;
  const menu = useMenu(`Actions for ${project.name}`, [
    { label: 'New session', icon: <Plus size={14} aria-hidden="true" />, onSelect: () => void ws.newSession(project.id) },
    ...(isGit
      ? [{
          label: 'New isolated session (git worktree)',
          description: 'Works on its own branch in a separate checkout; merge it back when done.',
          icon: <GitBranch size={14} aria-hidden="true" />,
          onSelect: () => void ws.newSession(project.id, { isolated: true }),
        }]
      : []),
    { label: 'Remove project', icon: <Trash2 size={14} aria-hidden="true" />, danger: true, onSelect: () => void askRemove() },
  ]);

  const { refetch: askGit } = gitQuery;
  useEffect(() => {
    if (menu.open && isGit === undefined) void askGit();
  }, [menu.open, isGit, askGit]);

  const listId = `project-sessions-${project.id}`;
  return (
    <li className="project">
      <div className={menu.open ? 'project-row menu-open' : 'project-row'} onContextMenu={menu.onContextMenu}>
        <button
          type="button"
          className="project-main"
          aria-expanded={expanded}
          aria-controls={listId}
          title={project.path}
          onClick={() => ws.setExpanded(project.id, !expanded)}
        >
          <ChevronRight size={14} className={expanded ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />
          {expanded ? <FolderOpen size={15} aria-hidden="true" /> : <Folder size={15} aria-hidden="true" />}
          <span className="project-name">{project.name}</span>
        </button>
        <div className="row-actions">
          <IconButton label={`New session in ${project.name}`} onClick={() => void ws.newSession(project.id)}>
            <Plus size={14} aria-hidden="true" />
          </IconButton>
          <IconButton label={`Project actions for ${project.name}`} {...menu.triggerProps}>
            <MoreHorizontal size={14} aria-hidden="true" />
          </IconButton>
        </div>
        {menu.menu}
      </div>
      {expanded && (
        <ul id={listId} className="session-list" aria-label={`Sessions in ${project.name}`}>
          {sessions === undefined ? (
            <li className="list-note">Loading…</li>
          ) : sessions.length === 0 ? (
            <li className="list-note">No sessions yet</li>
          ) : (
            sessions.map((s) => <SessionRow key={s.id} session={s} />)
          )}
        </ul>
      )}
    </li>
  );
}

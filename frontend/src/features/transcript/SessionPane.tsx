import { ArchiveRestore, Folder, FlaskConical } from 'lucide-react';
import type { Project, Session } from '../../bridge/types';
import { operatingModeLabel, sessionTitle } from '../../lib/labels';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { Composer } from '../composer/Composer';
import { TEMPORARY_HINT } from '../sidebar/Sidebar';
import { Transcript } from './Transcript';

export function SessionPane({ session, project }: { session: Session; project: Project | undefined }) {
  const ws = useWorkspace();
  const temporary = session.projectId === '';
  const mode = operatingModeLabel(session.operatingMode);
  return (
    <section className="session-pane" aria-label={sessionTitle(session)}>
      <header className="pane-header">
        <div className="pane-title-block">
          <h1 className="pane-title">{sessionTitle(session)}</h1>
          <div className="pane-subtitle">
            {temporary ? (
              <span title={TEMPORARY_HINT}>
                <FlaskConical size={13} aria-hidden="true" /> Temporary session
              </span>
            ) : (
              <span title={project?.path}>
                <Folder size={13} aria-hidden="true" /> {project?.name ?? 'Unknown project'}
                {project && <span className="pane-path">{project.path}</span>}
              </span>
            )}
          </div>
        </div>
        <span className={`badge badge-mode badge-${session.operatingMode || 'agent'}`} title="Operating mode">
          <span className="visually-hidden">Mode: </span>
          {mode}
        </span>
      </header>
      {session.archivedAt > 0 && (
        <div className="archived-banner" role="status">
          <span>This session is archived.</span>
          <Button size="sm" icon={<ArchiveRestore size={14} aria-hidden="true" />} onClick={() => void ws.restoreSession(session)}>
            Restore
          </Button>
        </div>
      )}
      <Transcript />
      <Composer key={session.id} />
    </section>
  );
}

import { ArchiveRestore, Folder, FlaskConical } from 'lucide-react';
import { useCallback } from 'react';
import * as bridge from '../../bridge';
import type { Project, ReviewChange, Session } from '../../bridge/types';
import { sessionTitle } from '../../lib/labels';
import { useApp } from '../../state/AppContext';
import { useTranscript } from '../../state/useTranscript';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { Composer } from '../composer/Composer';
import { ModeSelector, PermissionChip } from '../composer/ModeControls';
import { TEMPORARY_HINT } from '../sidebar/Sidebar';
import { Transcript } from './Transcript';
import { WorktreeHeader, WorktreeSetupNotice } from './Worktree';

export function SessionPane({ session, project }: { session: Session; project: Project | undefined }) {
  const ws = useWorkspace();
  const temporary = session.projectId === '';
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
        {session.isolated && <WorktreeHeader key={`worktree-${session.id}`} session={session} />}
      </header>
      {session.isolated && <WorktreeSetupNotice key={`setup-${session.id}`} sessionId={session.id} />}
      {session.archivedAt > 0 && (
        <div className="archived-banner" role="status">
          <span>This session is archived.</span>
          <Button size="sm" icon={<ArchiveRestore size={14} aria-hidden="true" />} onClick={() => void ws.restoreSession(session)}>
            Restore
          </Button>
        </div>
      )}
      <SessionBody key={session.id} session={session} />
    </section>
  );
}

/** Keyed by session id: its transcript state starts fresh for every session. */
function SessionBody({ session }: { session: Session }) {
  const ws = useWorkspace();
  const { settings } = useApp();
  const confirm = useConfirm();
  const t = useTranscript(session.id);
  const { rollback } = t;
  const suggestFiles = useCallback((query: string, limit: number) => bridge.workspaceFiles(session.id, query, limit), [session.id]);

  const onRollback = useCallback(
    async (change: ReviewChange) => {
      const ok = await confirm({
        title: 'Roll back this change?',
        message: (
          <>
            <p>
              {change.path} goes back to how it was before the agent changed it ({change.additions} added, {change.deletions} removed lines are undone).
            </p>
            <p className="muted">If the file changed since, nothing is touched and you are told.</p>
          </>
        ),
        confirmLabel: 'Roll back',
      });
      if (ok) await rollback(change.snapshotId);
    },
    [confirm, rollback],
  );

  return (
    <>
      <Transcript
        state={t.state}
        running={t.running}
        reviews={t.reviews}
        onResolve={t.resolveApproval}
        onRollback={onRollback}
        onRetryLoad={t.reload}
      />
      <Composer
        onSend={t.send}
        onStop={t.stop}
        running={t.running}
        onOpenSettings={() => ws.showView('settings')}
        suggestFiles={suggestFiles}
        toolbar={
          <>
            <ModeSelector session={session} onChange={(operatingMode) => void ws.configureSession(session, { operatingMode, permissionMode: '' })} />
            <PermissionChip
              session={session}
              defaultMode={settings?.defaultPermissionMode}
              onChange={(permissionMode) => void ws.configureSession(session, { operatingMode: '', permissionMode })}
            />
          </>
        }
      />
    </>
  );
}

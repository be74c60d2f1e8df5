// Settings → Checkpoints: the disk each project's checkpoints take (its shadow
// repositories) and "Clear checkpoints", behind a confirmation: afterwards nothing of
// the project can be restored from before, and its files stay as they are.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import * as bridge from '../../bridge';
import type { CheckpointUsage } from '../../bridge/checkpoints';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { Project } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { ErrorBox } from '../../ui/ErrorBox';

/** 0 B, 940 B, 12.3 KB, 4.0 MB, 1.2 GB (1024-based, as file managers on Linux show). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

export function CheckpointsSection() {
  const client = useQueryClient();
  const confirm = useConfirm();
  const usage = useQuery({ queryKey: queryKeys.checkpointUsage, queryFn: bridge.checkpointUsage, refetchOnMount: 'always' });
  const projects = useQuery({ queryKey: queryKeys.projects, queryFn: bridge.listProjects });
  const [busy, setBusy] = useState('');
  const [outcome, setOutcome] = useState<{ projectId: string; freed?: CheckpointUsage; error?: BridgeError } | null>(null);
  const loadError = usage.error ? toBridgeError(usage.error) : null;
  const byId = new Map((projects.data ?? []).map((p) => [p.id, p]));

  const clear = async (u: CheckpointUsage, p: Project | undefined) => {
    const name = p?.name ?? u.projectId;
    const ok = await confirm({
      title: `Clear the checkpoints of ${name}?`,
      message: (
        <>
          <p>
            {u.checkpoints === 1 ? '1 checkpoint' : `${u.checkpoints} checkpoints`} ({formatBytes(u.bytes)}) of every session of {name} are deleted.
            “Restore files to before this message” and the undo of earlier restores stop working for them.
          </p>
          <p className="muted">The project’s files stay as they are; new checkpoints are taken from the next change on.</p>
        </>
      ),
      confirmLabel: 'Clear checkpoints',
      danger: true,
    });
    if (!ok) return;
    setBusy(u.projectId);
    setOutcome(null);
    try {
      setOutcome({ projectId: u.projectId, freed: await bridge.clearCheckpoints(u.projectId) });
    } catch (err) {
      setOutcome({ projectId: u.projectId, error: toBridgeError(err) });
    } finally {
      setBusy('');
      void client.invalidateQueries({ queryKey: queryKeys.checkpointUsage });
      // Every session's checkpoints and command changes may be gone.
      void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'session' && (q.queryKey[2] === 'checkpoints' || q.queryKey[2] === 'commandChanges') });
    }
  };

  return (
    <fieldset className="settings-group">
      <legend>Checkpoints</legend>
      <p className="field-help">
        Before the agent changes files, and after each command it runs, PI-Desktop keeps a checkpoint of the project’s files (in its own data
        folder, never in your repository), so a message’s changes can be previewed and restored. The last 100 per session are kept.
      </p>
      {loadError ? (
        <ErrorBox what="The checkpoint disk use could not be read." error={loadError} onRetry={() => void usage.refetch()} />
      ) : !usage.data ? (
        <p className="muted">Measuring the checkpoints…</p>
      ) : usage.data.length === 0 ? (
        <p className="muted">No projects yet.</p>
      ) : (
        <ul className="provider-list" aria-label="Checkpoint disk use by project">
          {usage.data.map((u) => {
            const p = byId.get(u.projectId);
            const name = p?.name ?? u.projectId;
            return (
              <li key={u.projectId} className="provider-item" aria-label={name}>
                <div className="provider-summary">
                  <strong>{name}</strong>
                  <div className="provider-meta">
                    {formatBytes(u.bytes)} · {u.checkpoints === 1 ? '1 checkpoint' : `${u.checkpoints} checkpoints`}
                  </div>
                  {outcome?.projectId === u.projectId && outcome.freed && (
                    <span role="status">Cleared: {formatBytes(outcome.freed.bytes)} freed.</span>
                  )}
                  {outcome?.projectId === u.projectId && outcome.error && (
                    <span role="alert">
                      <code className="error-code">{outcome.error.code}</code> {outcome.error.message}
                    </span>
                  )}
                </div>
                <div className="provider-actions">
                <Button
                  size="sm"
                  variant="ghost"
                  icon={<Trash2 size={13} aria-hidden="true" />}
                  disabled={busy !== '' || (u.bytes === 0 && u.checkpoints === 0)}
                  aria-label={`Clear checkpoints of ${name}`}
                  onClick={() => void clear(u, p)}
                >
                  {busy === u.projectId ? 'Clearing…' : 'Clear checkpoints'}
                </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

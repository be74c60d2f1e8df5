// The preview of a restore: every file that would change with its diff, the files that
// would be deleted (created since) and written back (gone since) named plainly, and the
// conflicts — files someone other than the agent changed since — each kept unless the user
// ticks it to be overwritten. Nothing changes until Restore.
import { useQuery } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import * as bridge from '../../bridge';
import type { RestoreFile, RestoreResult } from '../../bridge/checkpoints';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { escapeName } from '../../lib/names';
import { parseUnifiedDiff } from '../../lib/unifiedDiff';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { DiffView } from '../review/DiffView';
import './checkpoints.css';

const ACTION_TEXT: Record<string, string> = {
  modify: 'Changed back',
  create: 'Written back (missing now)',
  delete: 'Deleted (created since)',
};

export interface RestoreDialogProps {
  sessionId: string;
  checkpointId: string;
  /** The dialog's title: "Restore files to before this message". */
  title: string;
  onCancel: () => void;
  onRestored: (result: RestoreResult) => void;
}

export function RestoreDialog({ sessionId, checkpointId, title, onCancel, onRestored }: RestoreDialogProps) {
  const preview = useQuery({
    queryKey: ['session', sessionId, 'restorePreview', checkpointId],
    queryFn: () => bridge.previewRestore(sessionId, checkpointId),
    gcTime: 0,
    staleTime: 0,
  });
  const [overwrite, setOverwrite] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<BridgeError | null>(null);
  const plan = preview.data;
  const files = plan?.files ?? [];
  const leftAlone = files.filter((f) => f.skipped !== '');
  const conflicts = files.filter((f) => f.conflict && f.skipped === '');
  const changing = files.filter((f) => f.skipped === '' && (!f.conflict || overwrite.has(f.path)));
  const loadError = preview.error ? toBridgeError(preview.error) : null;

  const restore = async () => {
    setBusy(true);
    setFailure(null);
    try {
      // Only paths still listed as conflicts: a choice cannot outlive the preview it was made on.
      onRestored(await bridge.restoreCheckpoint(sessionId, checkpointId, conflicts.map((f) => f.path).filter((p) => overwrite.has(p))));
    } catch (err) {
      setFailure(toBridgeError(err));
      setBusy(false);
    }
  };

  let body;
  if (preview.isPending) {
    body = (
      <p className="muted" role="status">
        <Loader2 size={14} aria-hidden="true" className="spin" /> Comparing the files with the checkpoint…
      </p>
    );
  } else if (loadError) {
    body = (
      <p role="alert">
        <code className="error-code">{loadError.code}</code> {loadError.message}
      </p>
    );
  } else if (files.length === 0) {
    body = <p>The files are already as they were then: there is nothing to restore.</p>;
  } else {
    const byAction = (a: string) => files.filter((f) => f.action === a && f.skipped === '' && !f.conflict);
    body = (
      <>
        <p className="restore-summary">
          {changing.length === 1 ? '1 file changes' : `${changing.length} files change`}. A checkpoint of the files as they are now is taken
          first, so the restore can be undone. Files the checkpoints leave out (ignored or over 5 MB) are never touched.
        </p>
        {conflicts.length > 0 && (
          <section className="restore-conflicts" aria-labelledby="restore-conflicts-title">
            <h3 id="restore-conflicts-title" className="restore-section-title">
              Changed by someone other than the agent ({conflicts.length})
            </h3>
            <p className="muted">
              These files changed after the session’s latest checkpoint, for example in your editor. Each is kept unless you tick it to be
              overwritten with the checkpoint.
            </p>
            <div className="restore-choice" role="group" aria-label="Files changed by someone else">
              <Button size="sm" variant="ghost" disabled={overwrite.size === conflicts.length} onClick={() => setOverwrite(new Set(conflicts.map((f) => f.path)))}>
                Overwrite all
              </Button>
              <Button size="sm" variant="ghost" disabled={overwrite.size === 0} onClick={() => setOverwrite(new Set())}>
                Keep all
              </Button>
            </div>
            <FileList
              files={conflicts}
              chosen={overwrite}
              onChoose={(path, on) =>
                setOverwrite((prev) => {
                  const next = new Set(prev);
                  if (on) next.add(path);
                  else next.delete(path);
                  return next;
                })
              }
            />
          </section>
        )}
        {(['delete', 'create', 'modify'] as const).map((a) => {
          const list = byAction(a);
          if (list.length === 0) return null;
          return (
            <section key={a} aria-labelledby={`restore-${a}-title`}>
              <h3 id={`restore-${a}-title`} className="restore-section-title">
                {ACTION_TEXT[a]} ({list.length})
              </h3>
              <FileList files={list} />
            </section>
          );
        })}
        {leftAlone.length > 0 && (
          <section aria-labelledby="restore-skip-title">
            <h3 id="restore-skip-title" className="restore-section-title">
              Left alone ({leftAlone.length})
            </h3>
            <ul className="restore-files">
              {leftAlone.map((f) => (
                <li key={f.path} aria-label={escapeName(f.path)}>
                  <code>{escapeName(f.path)}</code> <span className="muted">{f.skipped}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </>
    );
  }

  return (
    <Dialog
      title={title}
      className="restore-dialog"
      onCancel={onCancel}
      actions={
        <>
          {failure && (
            <p className="restore-failure" role="alert">
              <code className="error-code">{failure.code}</code> {failure.message}
            </p>
          )}
          <Button data-autofocus onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="primary" disabled={busy || !plan || changing.length === 0} onClick={() => void restore()}>
            {busy ? 'Restoring…' : changing.length === 1 ? 'Restore 1 file' : `Restore ${changing.length} files`}
          </Button>
        </>
      }
    >
      {body}
    </Dialog>
  );
}

interface FileListProps {
  files: RestoreFile[];
  /** For conflicts: the paths ticked to be overwritten, and how a tick changes. */
  chosen?: ReadonlySet<string>;
  onChoose?: (path: string, overwrite: boolean) => void;
}

function FileList({ files, chosen, onChoose }: FileListProps) {
  return (
    <ul className="restore-files">
      {files.map((f) => (
        <li key={f.path} aria-label={escapeName(f.path)}>
          <div className="restore-file-head">
            {onChoose && (
              <input
                type="checkbox"
                aria-label={`Overwrite ${escapeName(f.path)}`}
                checked={chosen?.has(f.path) ?? false}
                onChange={(e) => onChoose(f.path, e.currentTarget.checked)}
              />
            )}
            <code className="change-path">{escapeName(f.path)}</code>
            {(f.additions > 0 || f.deletions > 0) && (
              <span className="change-counts" aria-label={`${f.additions} added, ${f.deletions} removed lines`}>
                <span className="diff-add">+{f.additions}</span> <span className="diff-del">−{f.deletions}</span>
              </span>
            )}
          </div>
          <FileDiff path={f.path} diff={f.diff} note={f.note} modeBefore={f.modeNow} modeAfter={f.modeThen} />
        </li>
      ))}
    </ul>
  );
}

/** A file's bounded unified diff, or why there is none; shared with "Changed by commands". */
export function FileDiff({ path, diff, note, modeBefore, modeAfter }: { path: string; diff: string; note: string; modeBefore: string; modeAfter: string }) {
  const parsed = diff ? parseUnifiedDiff(diff) : null;
  const modeChange = modeBefore !== '' && modeAfter !== '' && modeBefore !== modeAfter && !note.startsWith('mode');
  return (
    <>
      {parsed && parsed.hunks.length > 0 && <DiffView hunks={parsed.hunks} label={`Diff of ${escapeName(path)}`} />}
      {parsed?.truncated && <p className="change-note">The diff is too large to show completely ({parsed.omitted} more lines).</p>}
      {note && <p className="change-note">{noteText(note)}</p>}
      {modeChange && <p className="change-note">{modeText(modeBefore, modeAfter)}</p>}
    </>
  );
}

/** The backend's note as a sentence: "new file" → "New file." */
function noteText(note: string): string {
  const s = note[0]!.toUpperCase() + note.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

const MODE_NAME: Record<string, string> = { '100644': 'a file', '100755': 'an executable file', '120000': 'a link' };

function modeText(before: string, after: string): string {
  return `Was ${MODE_NAME[before] ?? before}, becomes ${MODE_NAME[after] ?? after}.`;
}

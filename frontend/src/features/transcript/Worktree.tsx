// Isolated sessions (git worktrees): the branch + Merge button in the session header,
// the merge preview dialog, and the notice about the project's setup command.
import { AlertTriangle, GitBranch, GitMerge, X } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { sessionBranch, type MergePreview, type MergeResult, type Session, type WorktreeSetupEvent } from '../../bridge/types';
import { Button, IconButton } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { escapeName } from '../../lib/names';
import { queryKeys } from '../../state/queryKeys';
import { useSessionEvent } from '../../state/LiveData';

export const WorktreeCode = {
  Conflict: 'WORKTREE_CONFLICT',
  StalePreview: 'WORKTREE_STALE_PREVIEW',
  ProjectDirty: 'WORKTREE_PROJECT_DIRTY',
  Missing: 'WORKTREE_MISSING',
  NotGit: 'WORKTREE_NOT_GIT',
} as const;

/** Lines of setup output shown in the failure notice. */
const OUTPUT_LINES = 8;

export function shortHash(hash: string): string {
  return hash.slice(0, 7);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function detailFiles(err: BridgeError): string[] {
  const f = err.details.files;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** Branch name and Merge… button, for the header of an isolated session. */
export function WorktreeHeader({ session }: { session: Session }) {
  const [open, setOpen] = useState(false);
  const branch = sessionBranch(session.id);
  return (
    <div className="worktree-header">
      <span className="worktree-branch" title={`This session works in its own git worktree on branch ${branch}`}>
        <GitBranch size={13} aria-hidden="true" />
        <code>{branch}</code>
      </span>
      <Button size="sm" icon={<GitMerge size={14} aria-hidden="true" />} onClick={() => setOpen(true)}>
        Merge…
      </Button>
      {open && <MergeDialog sessionId={session.id} onClose={() => setOpen(false)} />}
    </div>
  );
}

export function MergeDialog({ sessionId, onClose }: { sessionId: string; onClose: () => void }) {
  const client = useQueryClient();
  const key = queryKeys.mergePreview(sessionId);
  // Read each time the dialog opens, and dropped when it closes: a token is never reused.
  const q = useQuery({ queryKey: key, queryFn: () => bridge.mergePreview(sessionId), refetchOnMount: 'always', gcTime: 0 });
  const [merging, setMerging] = useState(false);
  const [mergeError, setMergeError] = useState<BridgeError | null>(null);
  const [result, setResult] = useState<MergeResult | null>(null);

  const refresh = useCallback(() => {
    setMergeError(null);
    setResult(null);
    // Back to "loading": the old preview (and its token) must not stay on screen.
    void client.resetQueries({ queryKey: queryKeys.mergePreview(sessionId), exact: true });
  }, [client, sessionId]);

  const preview: MergePreview | null = q.isFetching && !q.isFetchedAfterMount ? null : (q.data ?? null);
  const loadError = preview === null && q.isError && !q.isFetching ? toBridgeError(q.error) : null;
  const doMerge = async () => {
    if (!preview) return;
    setMerging(true);
    setMergeError(null);
    try {
      setResult(await bridge.merge(sessionId, preview.token));
    } catch (err) {
      setMergeError(toBridgeError(err));
    } finally {
      setMerging(false);
    }
  };

  const canMerge = preview !== null && !preview.upToDate && result === null && mergeError === null && !merging;
  return (
    <Dialog
      title={preview ? `Merge ${preview.branch}` : 'Merge session branch'}
      className="dialog-wide"
      onCancel={onClose}
      actions={
        <>
          <Button data-autofocus onClick={onClose}>{result ? 'Close' : 'Cancel'}</Button>
          {preview && result === null && (
            <Button variant="primary" disabled={!canMerge} onClick={() => void doMerge()}>
              {merging ? 'Merging…' : `Merge into ${preview.projectBranch}`}
            </Button>
          )}
        </>
      }
    >
      {preview === null && loadError === null && <p className="muted" role="status">Loading the merge preview…</p>}
      {loadError && (
        <ErrorBlock error={loadError} action={<Button size="sm" onClick={refresh}>Try again</Button>} />
      )}
      {preview && (
        <>
          {result ? (
            <MergeDone result={result} />
          ) : (
            mergeError && <MergeFailure error={mergeError} onRefresh={refresh} />
          )}
          {!result && <PreviewBody preview={preview} />}
        </>
      )}
    </Dialog>
  );
}

function PreviewBody({ preview }: { preview: MergePreview }) {
  if (preview.upToDate) {
    return (
      <p role="status">
        Nothing to merge: <code>{preview.projectBranch}</code> already has every commit of <code>{preview.branch}</code>.
      </p>
    );
  }
  return (
    <div className="merge-preview">
      <p>
        <code>{preview.branch}</code> → <code>{preview.projectBranch}</code>
        {preview.fastForward
          ? ' (fast-forward)'
          : `: ${preview.projectBranch} moved on, so it is first merged into the session branch inside the worktree.`}
      </p>
      {preview.syncInProgress && <p className="merge-warning">A merge is in progress in the worktree; finish it there first.</p>}
      {preview.conflicts.length > 0 && (
        <div className="merge-warning">
          <p>Expected conflicts (they would stay in the worktree):</p>
          <FileList files={preview.conflicts} label="Expected conflicts" />
        </div>
      )}
      {preview.conflictsUnknown && <p className="muted">Conflicts could not be checked in advance.</p>}

      <h3 className="merge-heading">{plural(preview.commits.length + preview.moreCommits, 'commit')}</h3>
      <ul className="merge-commits" aria-label="Commits">
        {preview.commits.map((c) => (
          <li key={c.hash}>
            <code className="merge-hash" title={c.hash}>{shortHash(c.hash)}</code> <span>{c.subject}</span>
          </li>
        ))}
        {preview.moreCommits > 0 && <li className="muted">…and {plural(preview.moreCommits, 'more commit')}</li>}
      </ul>

      <h3 className="merge-heading">{plural(preview.files.length + preview.moreFiles, 'changed file')}</h3>
      <ul className="merge-files" aria-label="Changed files">
        {preview.files.map((f) => (
          <li key={f.path}>
            <code>{escapeName(f.path)}</code>{' '}
            {f.binary ? (
              <span className="muted">binary</span>
            ) : (
              <span className="merge-stat">
                <span className="diff-add">+{f.added}</span> <span className="diff-del">−{f.deleted}</span>
              </span>
            )}
          </li>
        ))}
        {preview.moreFiles > 0 && <li className="muted">…and {plural(preview.moreFiles, 'more file')}</li>}
      </ul>

      {preview.diff !== '' && (
        <pre className="merge-diff" aria-label="Diff" tabIndex={0}>
          {preview.diff}
        </pre>
      )}
      {preview.diffTruncated && <p className="muted">The diff is truncated.</p>}

      {(preview.uncommitted.length > 0 || preview.moreUncommitted > 0) && (
        <div className="merge-note">
          <p>
            Uncommitted changes in the worktree: only commits are merged, these files stay behind.
          </p>
          <FileList files={preview.uncommitted} more={preview.moreUncommitted} label="Uncommitted files" />
        </div>
      )}
    </div>
  );
}

function FileList({ files, label, more = 0 }: { files: string[]; label: string; more?: number }) {
  return (
    <ul className="merge-files" aria-label={label}>
      {files.map((f) => (
        <li key={f}>
          <code>{f}</code>
        </li>
      ))}
      {more > 0 && <li className="muted">…and {plural(more, 'more file')}</li>}
    </ul>
  );
}

function MergeDone({ result }: { result: MergeResult }) {
  return (
    <div role="status" className="merge-done">
      {result.upToDate ? (
        <p>Already up to date: nothing was merged.</p>
      ) : (
        <p>
          Merged {plural(result.commits, 'commit')} into <code>{result.projectBranch}</code>
          {result.from && result.to && (
            <>
              {' '}(<code>{shortHash(result.from)}</code> → <code>{shortHash(result.to)}</code>)
            </>
          )}
          .
        </p>
      )}
      {result.synced && (
        <p className="muted">
          {result.projectBranch} was first merged into the session branch
          {result.syncCommit && <> (<code>{shortHash(result.syncCommit)}</code>)</>}.
        </p>
      )}
    </div>
  );
}

function MergeFailure({ error, onRefresh }: { error: BridgeError; onRefresh: () => void }) {
  const files = detailFiles(error);
  if (error.code === WorktreeCode.Conflict) {
    return (
      <div role="alert" className="merge-error">
        <p>
          <strong>The merge conflicts; the conflicts stay in the worktree.</strong> Your project checkout was not changed.
          Resolve and commit them in the worktree, then preview again.
        </p>
        {files.length > 0 && <FileList files={files} label="Conflicting files" />}
        <p className="error-code">{error.code}</p>
      </div>
    );
  }
  if (error.code === WorktreeCode.StalePreview) {
    return (
      <ErrorBlock
        error={error}
        lead="The repository changed since this preview."
        action={<Button size="sm" onClick={onRefresh}>Refresh</Button>}
      />
    );
  }
  return <ErrorBlock error={error} files={files} />;
}

function ErrorBlock({ error, lead, files = [], action }: { error: BridgeError; lead?: string; files?: string[]; action?: ReactNode }) {
  return (
    <div role="alert" className="merge-error">
      {lead && <p><strong>{lead}</strong></p>}
      <p>{error.message}</p>
      {files.length > 0 && <FileList files={files} label="Files" />}
      <p className="error-code">{error.code}</p>
      {action}
    </div>
  );
}

/**
 * The project's setup command for this (isolated) session: a quiet note while it runs,
 * a plain notice with command, exit code and the first output lines when it fails.
 */
export function WorktreeSetupNotice({ sessionId }: { sessionId: string }) {
  const [event, setEvent] = useState<WorktreeSetupEvent | null>(null);
  const [dismissed, setDismissed] = useState(false);
  useSessionEvent('worktree', sessionId, (e) => {
    setEvent(e);
    setDismissed(false);
  });
  if (!event || dismissed) return null;
  if (event.state === 'running') {
    return (
      <div className="setup-note" role="status">
        Running the setup command in the worktree{event.command && <>: <code>{event.command}</code></>}…
      </div>
    );
  }
  if (event.state !== 'failed') return null;
  const lines = event.output.split('\n');
  const head = lines.slice(0, OUTPUT_LINES).join('\n').trimEnd();
  return (
    <div className="setup-failed" role="alert">
      <AlertTriangle size={16} aria-hidden="true" />
      <div className="setup-failed-text">
        <p>
          <strong>The worktree setup command failed</strong>
          {event.exitCode !== null && event.exitCode !== 0 && <> (exit code {event.exitCode})</>}.
        </p>
        {event.command && (
          <p>
            Command: <code>{event.command}</code>
          </p>
        )}
        {event.message && <p>{event.message}</p>}
        {head !== '' && (
          <pre className="setup-output" aria-label="Setup output">
            {head}
            {lines.length > OUTPUT_LINES && '\n…'}
          </pre>
        )}
      </div>
      <IconButton label="Dismiss" onClick={() => setDismissed(true)}>
        <X size={14} aria-hidden="true" />
      </IconButton>
    </div>
  );
}

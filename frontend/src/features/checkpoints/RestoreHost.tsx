// Restores in a session: the preview dialog, opened from a prompt ("Restore files to
// before this message") or from a command in the Changes pane, and the note a restore
// leaves ("Restored N files · Undo"), whose Undo restores the checkpoint the restore
// took first. SessionPane holds the host; PromptRow and the Changes pane open it.
import { RotateCcw, Undo2, X } from 'lucide-react';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import type { RestoreResult } from '../../bridge/checkpoints';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import type { TranscriptState } from '../../state/transcript';
import { Button, IconButton } from '../../ui/Button';
import { RestoreDialog } from './RestoreDialog';
import { restoreTargetFor, type RestoreTarget } from './restoreTarget';
import { useAfterRestore, useCheckpoints } from './useCheckpoints';

interface Opened {
  checkpointId: string;
  title: string;
}

type Note =
  | { kind: 'restored'; result: RestoreResult; undoing: boolean; error: BridgeError | null }
  | { kind: 'undone'; result: RestoreResult };

interface RestoreHostApi {
  open: (checkpointId: string, title: string) => void;
  note: Note | null;
  undo: () => void;
  dismiss: () => void;
}

const HostContext = createContext<RestoreHostApi | null>(null);

export function RestoreHost({ sessionId, children }: { sessionId: string; children: ReactNode }) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const afterRestore = useAfterRestore(sessionId);

  const undo = useCallback(() => {
    if (note?.kind !== 'restored' || note.undoing) return;
    const { result } = note;
    setNote({ ...note, undoing: true, error: null });
    bridge
      .restoreCheckpoint(sessionId, result.before.id, [])
      .then((undone) => setNote({ kind: 'undone', result: undone }))
      .catch((err: unknown) => setNote({ kind: 'restored', result, undoing: false, error: toBridgeError(err) }))
      .finally(afterRestore);
  }, [note, sessionId, afterRestore]);

  const api = useMemo<RestoreHostApi>(
    () => ({ open: (checkpointId, title) => setOpened({ checkpointId, title }), note, undo, dismiss: () => setNote(null) }),
    [note, undo],
  );
  return (
    <HostContext.Provider value={api}>
      {children}
      {opened && (
        <RestoreDialog
          sessionId={sessionId}
          checkpointId={opened.checkpointId}
          title={opened.title}
          onCancel={() => setOpened(null)}
          onRestored={(result) => {
            setOpened(null);
            setNote({ kind: 'restored', result, undoing: false, error: null });
            afterRestore();
          }}
        />
      )}
    </HostContext.Provider>
  );
}

export function useRestoreHost(): RestoreHostApi | null {
  return useContext(HostContext);
}

function files(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}

/** The note a restore leaves, with its Undo; it takes the focus so a keyboard user hears it. */
export function RestoreNote() {
  const host = useRestoreHost();
  const ref = useRef<HTMLDivElement>(null);
  const note = host?.note ?? null;
  const kind = note?.kind;
  useEffect(() => {
    if (kind) ref.current?.focus();
  }, [kind]);
  if (!host || !note) return null;
  const kept = note.result.skipped.length;
  return (
    <div ref={ref} tabIndex={-1} className="restore-note" role="status">
      {note.kind === 'restored' ? (
        <>
          <RotateCcw size={14} aria-hidden="true" />
          <span>
            Restored {files(note.result.restored.length)}
            {kept > 0 && <> · {files(kept)} kept as they were</>}
          </span>
          <Button size="sm" variant="ghost" icon={<Undo2 size={13} aria-hidden="true" />} disabled={note.undoing} onClick={host.undo}>
            {note.undoing ? 'Undoing…' : 'Undo'}
          </Button>
          {note.error && (
            <span role="alert">
              <code className="error-code">{note.error.code}</code> {note.error.message}
            </span>
          )}
        </>
      ) : (
        <>
          <Undo2 size={14} aria-hidden="true" />
          <span>
            Undone: {files(note.result.restored.length)} back as before the restore
            {kept > 0 && <> · {files(kept)} changed since were kept</>}
          </span>
        </>
      )}
      <IconButton label="Dismiss" onClick={host.dismiss}>
        <X size={14} aria-hidden="true" />
      </IconButton>
    </div>
  );
}

// --- the prompt's action -------------------------------------------------------------

type TargetFn = (turnId: string) => RestoreTarget | null;

const TargetContext = createContext<TargetFn | null>(null);

/** Gives each prompt of the transcript its checkpoint (see restoreTargetFor). */
export function RestoreTargets({ sessionId, state, children }: { sessionId: string; state: TranscriptState; children: ReactNode }) {
  const checkpoints = useCheckpoints(sessionId);
  const turnOrder = useMemo(() => {
    const out: string[] = [];
    for (const it of state.items) if (it.kind === 'prompt' && it.turnId !== '' && !out.includes(it.turnId)) out.push(it.turnId);
    return out;
  }, [state.items]);
  const delegates = useMemo(() => Object.values(state.delegates).map((d) => ({ turnId: d.turnId, parentTurnId: d.parentTurnId })), [state.delegates]);
  const targetFor = useCallback<TargetFn>((turnId) => restoreTargetFor(turnId, turnOrder, delegates, checkpoints), [turnOrder, delegates, checkpoints]);
  return <TargetContext.Provider value={targetFor}>{children}</TargetContext.Provider>;
}

export const RESTORE_TITLE = 'Restore files to before this message';

/** Under a prompt: restores the files as they were before it, when anything changed since. */
export function RestoreAction({ turnId }: { turnId: string }) {
  const host = useRestoreHost();
  const targetFor = useContext(TargetContext);
  const target = targetFor?.(turnId) ?? null;
  if (!host || !target) return null;
  if (target.kind === 'not-captured') {
    return (
      <p className="restore-action muted" title={target.checkpoint.reason}>
        Files before this message were not captured; they cannot be restored.
      </p>
    );
  }
  return (
    <div className="restore-action">
      <Button size="sm" variant="ghost" icon={<RotateCcw size={13} aria-hidden="true" />} onClick={() => host.open(target.checkpoint.id, RESTORE_TITLE)}>
        {RESTORE_TITLE}
      </Button>
    </div>
  );
}

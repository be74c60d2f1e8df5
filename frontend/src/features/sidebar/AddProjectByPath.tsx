// Adds a project from a typed folder path: for when the native folder picker is not
// available (the app opened in a browser) or typing is quicker than clicking through it.
import { useId, useState, type FormEvent } from 'react';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { useWorkspace } from '../../state/WorkspaceContext';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';

/** A full path on Linux/macOS (/…) or Windows (C:\…, \\server\share). */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\\\') || /^[A-Za-z]:[\\/]/.test(p);
}

export const RELATIVE_PATH_HINT = 'Type the full path of the folder, e.g. /home/you/code/my-app or C:\\code\\my-app.';

export function AddProjectByPathDialog({ onClose }: { onClose: () => void }) {
  const ws = useWorkspace();
  const inputId = useId();
  const helpId = useId();
  const errorId = useId();
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Pick<BridgeError, 'code' | 'message'> | null>(null);
  const trimmed = path.trim();

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (trimmed === '' || busy) return;
    if (!isAbsolutePath(trimmed)) {
      setError({ code: 'INVALID_ARGUMENT', message: RELATIVE_PATH_HINT });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await ws.addProjectPath(trimmed);
      onClose();
    } catch (err) {
      setError(toBridgeError(err));
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Add project by path"
      onCancel={onClose}
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={trimmed === '' || busy} onClick={() => void submit()}>
            {busy ? 'Adding…' : 'Add project'}
          </Button>
        </>
      }
    >
      <form className="field add-by-path" onSubmit={(e) => void submit(e)}>
        <label className="field-label" htmlFor={inputId}>
          Folder path
        </label>
        <input
          id={inputId}
          data-autofocus
          className="input input-path"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder="/home/you/code/my-app"
          value={path}
          aria-invalid={error !== null || undefined}
          aria-describedby={error ? `${helpId} ${errorId}` : helpId}
          onChange={(e) => {
            setPath(e.target.value);
            setError(null);
          }}
        />
        <p id={helpId} className="field-help">
          The folder must already exist. Its files stay where they are.
        </p>
        {error && (
          <p id={errorId} className="field-error" role="alert">
            <code className="error-code">{error.code}</code> {error.message}
          </p>
        )}
      </form>
    </Dialog>
  );
}

// A stdio server's bounded stderr log (ServerLog), re-read when the server changes.
import { useQuery } from '@tanstack/react-query';
import * as bridge from '../../bridge';
import { toBridgeError } from '../../bridge/errors';
import type { MCPServer } from '../../bridge/types';
import { queryKeys } from '../../state/queryKeys';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';

export function LogDialog({ server: s, onClose }: { server: MCPServer; onClose: () => void }) {
  const q = useQuery({ queryKey: queryKeys.mcpLog(s.projectId, s.id), queryFn: () => bridge.mcpServerLog(s.projectId, s.id) });
  const error = q.error ? toBridgeError(q.error) : null;
  return (
    <Dialog
      title={`Log of ${s.id}`}
      className="dialog-wide"
      onCancel={onClose}
      actions={
        <>
          <Button onClick={() => void q.refetch()} disabled={q.isFetching}>
            Reload
          </Button>
          <Button variant="primary" data-autofocus onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {error ? (
        <div className="inline-error" role="alert">
          <p>The log could not be read: {error.message}</p>
          <p className="error-code">{error.code}</p>
        </div>
      ) : q.data === undefined ? (
        <p className="muted">Loading the log…</p>
      ) : q.data === '' ? (
        <p className="muted">The server has written nothing to its error output.</p>
      ) : (
        <pre className="tool-output mcp-log selectable" tabIndex={0} aria-label={`Log of ${s.id}`}>
          {q.data}
        </pre>
      )}
    </Dialog>
  );
}

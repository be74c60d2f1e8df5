import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { formatShortcut, SHORTCUTS } from './shortcuts';

/** Every global shortcut, from the one table (shortcuts.ts); opened with `?`. */
export function ShortcutsOverlay({ mac, onClose }: { mac: boolean; onClose: () => void }) {
  return (
    <Dialog
      title="Keyboard shortcuts"
      onCancel={onClose}
      actions={
        <Button variant="primary" data-autofocus onClick={onClose}>
          Close
        </Button>
      }
    >
      <dl className="shortcuts-list">
        {SHORTCUTS.map((s) => (
          <div key={s.id} style={{ display: 'contents' }}>
            <dt>{s.label}</dt>
            <dd>
              <kbd>{formatShortcut(s, mac)}</kbd>
            </dd>
          </div>
        ))}
        <div style={{ display: 'contents' }}>
          <dt>Answer a focused card: allow once, allow for the session, deny</dt>
          <dd>
            <kbd>Enter</kbd> · <kbd>Shift+Enter</kbd> · <kbd>Esc</kbd>
          </dd>
        </div>
      </dl>
    </Dialog>
  );
}

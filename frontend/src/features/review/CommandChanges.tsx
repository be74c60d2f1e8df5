// A message's "Changed by commands" group in the Changes pane: the files each of its
// Bash calls changed (the difference between the checkpoints around the call), each
// with its diff, so the user can review what sed or a generator did. They have no
// Rollback of their own: "Restore files to before this command" previews a restore of
// the checkpoint before the call.
import { ChevronDown, ChevronRight, RotateCcw, TerminalSquare } from 'lucide-react';
import { useId, useState } from 'react';
import type { CommandChange, CommandFile } from '../../bridge/checkpoints';
import { escapeName } from '../../lib/names';
import { Button } from '../../ui/Button';
import { FileDiff } from '../checkpoints/RestoreDialog';

const STATUS_TEXT: Record<string, string> = { added: 'Added', modified: 'Modified', deleted: 'Deleted' };

export function CommandChanges({ commands, onRestoreBefore }: { commands: CommandChange[]; onRestoreBefore?: (checkpointId: string) => void }) {
  const titleId = useId();
  return (
    <section className="command-changes" aria-labelledby={titleId}>
      <h4 id={titleId} className="command-changes-title">
        <TerminalSquare size={13} aria-hidden="true" /> Changed by commands
      </h4>
      {commands.map((c, i) => (
        <div key={c.checkpointId} className="command-change">
          <div className="command-change-head">
            <span className="muted">Command {i + 1}</span>
            {c.captured ? (
              <span>{c.files.length === 1 ? '1 file' : `${c.files.length} files`}{c.truncated && ' (the first ones)'}</span>
            ) : (
              <span className="muted">{c.reason || 'not captured'}: what it changed is not known</span>
            )}
            {c.captured && c.since !== '' && onRestoreBefore && (
              <Button size="sm" variant="ghost" icon={<RotateCcw size={12} aria-hidden="true" />} onClick={() => onRestoreBefore(c.since)}>
                Restore files to before this command
              </Button>
            )}
          </div>
          {c.files.length > 0 && (
            <ul className="change-list" aria-label={`Files changed by command ${i + 1}`}>
              {c.files.map((f) => (
                <CommandFileCard key={f.path} file={f} />
              ))}
            </ul>
          )}
        </div>
      ))}
    </section>
  );
}

function CommandFileCard({ file }: { file: CommandFile }) {
  const [open, setOpen] = useState(true);
  const diffId = useId();
  return (
    <li className="change-card" aria-label={escapeName(file.path)}>
      <div className="change-head">
        <button type="button" className="change-toggle" aria-expanded={open} aria-controls={diffId} onClick={() => setOpen((o) => !o)}>
          {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
          <span className="change-path">{escapeName(file.path)}</span>
        </button>
        <span className={`change-status status-${file.status}`}>{STATUS_TEXT[file.status] ?? file.status}</span>
        <span className="change-counts" aria-label={`${file.additions} added, ${file.deletions} removed lines`}>
          <span className="diff-add">+{file.additions}</span> <span className="diff-del">−{file.deletions}</span>
        </span>
      </div>
      <div id={diffId} hidden={!open}>
        {open && <FileDiff path={file.path} diff={file.diff} note={file.note} modeBefore={file.modeBefore} modeAfter={file.modeAfter} />}
      </div>
    </li>
  );
}

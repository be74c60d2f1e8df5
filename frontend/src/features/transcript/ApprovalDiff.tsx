// The diff of a pending Write/Edit on its approval card: what the call would change,
// computed by the host before asking. Long diffs start height-limited (still scrollable
// by keyboard) with a toggle to show them in full.
import { useId, useMemo, useState } from 'react';
import { hunkLineCount } from '../review/groups';
import { DiffView } from '../review/DiffView';
import '../review/review.css';
import { parseUnifiedDiff } from '../../lib/unifiedDiff';

/** Diffs longer than this many rows start collapsed. */
export const COLLAPSE_ROWS = 24;

export function ApprovalDiff({ diff, note, path }: { diff: string; note: string; path: string }) {
  const parsed = useMemo(() => parseUnifiedDiff(diff), [diff]);
  const [expanded, setExpanded] = useState(false);
  const viewId = useId();
  const rows = hunkLineCount(parsed.hunks);
  const long = rows > COLLAPSE_ROWS;
  const name = path ? path.split(/[\\/]/).pop() : '';
  if (parsed.hunks.length === 0 && !note) return null;
  return (
    <div className="approval-diff">
      {note && <p className="approval-diff-note">{note}</p>}
      {parsed.hunks.length > 0 && (
        <div className={long && !expanded ? 'approval-diff-body is-collapsed' : 'approval-diff-body'}>
          <DiffView hunks={parsed.hunks} label={name ? `Proposed changes to ${name}` : 'Proposed changes'} id={viewId} />
        </div>
      )}
      {parsed.truncated && (
        <p className="approval-diff-note approval-diff-truncated">
          [diff truncated: {parsed.omitted.toLocaleString('en-US')} more lines]
        </p>
      )}
      {long && (
        <button type="button" className="btn btn-ghost btn-sm approval-diff-toggle" aria-expanded={expanded} aria-controls={viewId} onClick={() => setExpanded((x) => !x)}>
          {expanded ? 'Collapse diff' : `Expand diff (${rows.toLocaleString('en-US')} lines)`}
        </button>
      )}
    </div>
  );
}

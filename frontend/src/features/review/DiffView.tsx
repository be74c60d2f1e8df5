// A unified diff from recorded hunks, with old/new line numbers. The record's hunks are
// shown as they are; nothing is recomputed from the files.
import type { ReviewHunk } from '../../bridge/types';
import { numberHunk } from './groups';

const SIGN = { add: '+', del: '−', ctx: ' ' } as const;

export function DiffView({ hunks, label, id }: { hunks: ReviewHunk[]; label: string; id?: string }) {
  return (
    <div className="diff-view" id={id} role="region" aria-label={label} tabIndex={0}>
      <table className="diff-table">
        <colgroup>
          <col className="diff-col-no" />
          <col className="diff-col-no" />
          <col className="diff-col-sign" />
          <col />
        </colgroup>
        {hunks.map((h, i) => (
          <tbody key={i}>
            <tr className="diff-hunk-header">
              <td colSpan={4}>
                @@ −{h.oldStart},{h.oldLines} +{h.newStart},{h.newLines} @@
              </td>
            </tr>
            {numberHunk(h).map((l, j) => (
              <tr key={j} className={`diff-line diff-line-${l.kind}`}>
                <td className="diff-no" aria-label={l.oldNo ? `old line ${l.oldNo}` : undefined}>{l.oldNo || ''}</td>
                <td className="diff-no" aria-label={l.newNo ? `new line ${l.newNo}` : undefined}>{l.newNo || ''}</td>
                <td className="diff-sign" aria-label={l.kind === 'add' ? 'added' : l.kind === 'del' ? 'removed' : undefined}>
                  {SIGN[l.kind]}
                </td>
                <td className="diff-text">{l.text}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

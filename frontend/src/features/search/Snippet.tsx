import type { SearchSegment } from '../../bridge/history';

/**
 * A search hit's snippet: the backend marks the matched pieces (SearchSegment.match);
 * they are shown as <mark>. Every piece is text, never HTML.
 */
export function Snippet({ segments }: { segments: SearchSegment[] }) {
  return (
    <span className="search-snippet">
      {segments.map((s, i) => (s.match ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
    </span>
  );
}

/** The snippet as one line of plain text (for accessible names). */
export function snippetText(segments: SearchSegment[]): string {
  return segments.map((s) => s.text).join('');
}

import { Search, X } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { IconButton } from '../../ui/Button';
import { HitContent } from '../palette/CommandPalette';
import { useJump } from './JumpContext';
import { MIN_TERM, searchable, useHistorySearch } from './useHistorySearch';
import '../palette/palette.css';

/** Hits listed under the field; the palette shows them too. */
export const SIDEBAR_HITS = 20;

/**
 * The sidebar's message search: past messages and tool calls of every session matching
 * the words typed, each opening its session at that message. Esc clears the field; the
 * Down arrow moves into the results.
 */
export function SidebarSearch() {
  const [query, setQuery] = useState('');
  const search = useHistorySearch(query);
  const jump = useJump();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const listId = useId();
  const hits = search.status === 'done' || search.status === 'loading' ? search.hits.slice(0, SIDEBAR_HITS) : [];
  const typed = query.trim() !== '';

  const buttons = () => Array.from(list.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
  const onFieldKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && query !== '') {
      e.preventDefault();
      setQuery('');
    } else if (e.key === 'ArrowDown') {
      const first = buttons()[0];
      if (first) {
        e.preventDefault();
        first.focus();
      }
    }
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const all = buttons();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' && at >= 0 && at < all.length - 1) {
      e.preventDefault();
      all[at + 1]!.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      (at > 0 ? all[at - 1]! : input.current)?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setQuery('');
      input.current?.focus();
    }
  };

  let status = '';
  if (typed && !searchable(query)) status = `Type at least ${MIN_TERM} letters of a word.`;
  else if (search.status === 'loading' && hits.length === 0) status = 'Searching…';
  else if (search.status === 'done') status = hits.length === 0 ? 'No message matches.' : hits.length === 1 ? '1 message' : `${hits.length} messages`;
  else if (search.status === 'failed') status = `Search failed: ${search.error.message}`;

  return (
    <div className="sidebar-search" role="search">
      <div className="sidebar-search-field">
        <Search size={14} aria-hidden="true" />
        <input
          ref={input}
          type="search"
          className="input"
          aria-label="Search messages"
          aria-controls={hits.length > 0 ? listId : undefined}
          placeholder="Search messages"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onFieldKey}
          spellCheck={false}
          autoComplete="off"
        />
        {typed && (
          <IconButton label="Clear search" onClick={() => { setQuery(''); input.current?.focus(); }}>
            <X size={13} aria-hidden="true" />
          </IconButton>
        )}
      </div>
      <p className={status ? 'list-note' : 'visually-hidden'} role="status" aria-live="polite">
        {status}
      </p>
      {hits.length > 0 && (
        <ul ref={list} id={listId} className="sidebar-hits" aria-label="Matching messages" onKeyDown={onListKey}>
          {hits.map((hit, i) => (
            <li key={`${hit.kind}:${hit.messageId}:${i}`}>
              <button type="button" className="sidebar-hit" onClick={() => void jump?.jumpTo(hit)}>
                <HitContent hit={hit} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

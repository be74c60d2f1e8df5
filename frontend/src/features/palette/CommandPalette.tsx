import { Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { SearchHit } from '../../bridge/history';
import { formatDateTime } from '../../lib/time';
import { sessionTitle } from '../../lib/labels';
import { useJump } from '../search/JumpContext';
import { Snippet, snippetText } from '../search/Snippet';
import { searchable, useHistorySearch } from '../search/useHistorySearch';
import { GROUPS, usePaletteItems, type PaletteItem } from './usePaletteItems';
import './palette.css';

/** Message hits listed under the other groups. */
export const MESSAGE_HITS = 8;

type Row = { kind: 'item'; item: PaletteItem } | { kind: 'hit'; hit: SearchHit };

/**
 * The command palette: one text field over commands, sessions, projects, Settings
 * sections and (from three typed characters) past messages. A modal dialog holding a
 * combobox: arrows move, Enter runs, Esc closes and gives the focus back; Tab stays in
 * the field, the only focusable thing inside.
 */
export function CommandPalette({ onClose }: { onClose: () => void }) {
  const base = useId();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const items = usePaletteItems(query);
  const search = useHistorySearch(query);
  const jump = useJump();
  const hits = useMemo(() => (search.status === 'done' || search.status === 'loading' ? search.hits.slice(0, MESSAGE_HITS) : []), [search]);
  const rows = useMemo<Row[]>(() => [...items.map((item) => ({ kind: 'item' as const, item })), ...hits.map((hit) => ({ kind: 'hit' as const, hit }))], [items, hits]);
  const current = Math.min(active, Math.max(0, rows.length - 1));
  const optionId = (i: number) => `${base}-option-${i}`;

  // Focus the field on open; give the focus back to where it was on close.
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    input.current?.focus();
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, []);
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector(`#${CSS.escape(optionId(current))}`)?.scrollIntoView?.({ block: 'nearest' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  const choose = (row: Row | undefined) => {
    if (!row) return;
    onClose();
    // After the palette gave the focus back, so a command that moves the focus wins.
    setTimeout(() => (row.kind === 'item' ? row.item.run() : void jump?.jumpTo(row.hit)), 0);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const n = rows.length;
    switch (e.key) {
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        onClose();
        return;
      case 'ArrowDown':
        e.preventDefault();
        if (n > 0) setActive((current + 1) % n);
        return;
      case 'ArrowUp':
        e.preventDefault();
        if (n > 0) setActive((current - 1 + n) % n);
        return;
      case 'Enter':
        if (e.nativeEvent.isComposing) return;
        e.preventDefault();
        choose(rows[current]);
        return;
      case 'Tab':
        // The field is the one stop inside: the focus stays in the palette.
        e.preventDefault();
        return;
      case 'k':
      case 'K':
        // The shortcut that opened the palette closes it.
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          onClose();
        }
    }
  };

  const count = rows.length;
  const announce =
    search.status === 'loading'
      ? `${count} ${count === 1 ? 'result' : 'results'}, searching messages…`
      : `${count} ${count === 1 ? 'result' : 'results'}`;

  let index = 0;
  // A label names the parts in the order they are shown, nothing between
  // them, so it never differs from what a speech-input user reads on screen
  // (axe: label-content-name-mismatch); the shortcut is also announced as one.
  const option = (row: Row, content: ReactNode, label: string, keys?: string) => {
    const i = index++;
    return (
      <div
        key={row.kind === 'item' ? row.item.id : `hit:${row.hit.kind}:${row.hit.messageId}:${i}`}
        id={optionId(i)}
        role="option"
        aria-selected={i === current}
        aria-label={label}
        aria-keyshortcuts={keys}
        className={i === current ? 'palette-option is-active' : 'palette-option'}
        onMouseMove={() => i !== current && setActive(i)}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => choose(row)}
      >
        {content}
      </div>
    );
  };

  return createPortal(
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div role="dialog" aria-modal="true" aria-label="Command palette" className="palette" onKeyDown={onKeyDown}>
        <div className="palette-field">
          <Search size={16} aria-hidden="true" />
          <input
            ref={input}
            role="combobox"
            aria-expanded={count > 0}
            aria-controls={`${base}-list`}
            aria-autocomplete="list"
            aria-activedescendant={count > 0 ? optionId(current) : undefined}
            aria-label="Search commands, sessions, settings and messages"
            placeholder="Type a command, a session, a setting, or words of a past message…"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            spellCheck={false}
            autoComplete="off"
          />
        </div>
        <div ref={list} id={`${base}-list`} role="listbox" aria-label="Results" className="palette-list">
          {GROUPS.map((g) => {
            const inGroup = rows.filter((r): r is Extract<Row, { kind: 'item' }> => r.kind === 'item' && r.item.group === g);
            if (inGroup.length === 0) return null;
            return (
              <div key={g} role="group" aria-label={g} className="palette-group">
                <div aria-hidden="true" className="palette-heading">
                  {g}
                </div>
                {inGroup.map((r) =>
                  option(
                    r,
                    <>
                      {/* The spaces keep the parts apart in the text read from the
                          option (its label must contain it); flex layout drops them. */}
                      <span className="palette-label">{r.item.label}</span>{' '}
                      {r.item.detail && <span className="palette-detail">{r.item.detail}</span>}{' '}
                      {r.item.shortcut && <kbd className="palette-kbd">{r.item.shortcut}</kbd>}
                    </>,
                    [r.item.label, r.item.detail, r.item.shortcut].filter(Boolean).join(', '),
                    r.item.shortcut,
                  ),
                )}
              </div>
            );
          })}
          {hits.length > 0 && (
            <div role="group" aria-label="Messages" className="palette-group">
              <div aria-hidden="true" className="palette-heading">
                Messages
              </div>
              {rows
                .filter((r): r is Extract<Row, { kind: 'hit' }> => r.kind === 'hit')
                .map((r) =>
                  option(
                    r,
                    <HitContent hit={r.hit} />,
                    `${snippetText(r.hit.snippet)}, ${r.hit.kind === 'tool_call' ? 'Tool call, ' : ''}${sessionTitle({ title: r.hit.sessionTitle })}, ${formatDateTime(r.hit.createdAt)}`,
                  ),
                )}
            </div>
          )}
          {count === 0 && <p className="palette-empty">Nothing matches “{query.trim()}”.</p>}
        </div>
        <p className="palette-foot">
          {search.status === 'failed' ? (
            <span role="alert">Messages could not be searched: {search.error.message}</span>
          ) : searchable(query) ? (
            search.status === 'loading' ? 'Searching messages…' : hits.length === 0 ? 'No past message matches.' : null
          ) : (
            'Type 3 or more letters to search past messages too.'
          )}
        </p>
        <p className="visually-hidden" aria-live="polite" role="status">
          {announce}
        </p>
      </div>
    </div>,
    document.body,
  );
}

/** A message hit: the snippet with its matches marked, then its session and time. */
export function HitContent({ hit }: { hit: SearchHit }) {
  return (
    <>
      <Snippet segments={hit.snippet} />{' '}
      <span className="palette-detail">
        {hit.kind === 'tool_call' ? 'Tool call · ' : ''}
        {sessionTitle({ title: hit.sessionTitle })} · <time dateTime={new Date(hit.createdAt).toISOString()}>{formatDateTime(hit.createdAt)}</time>
      </span>
    </>
  );
}

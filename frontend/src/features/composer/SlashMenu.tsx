// The composer's "/" menu: typing "/" at the start lists the built-in commands, the
// custom ones (prompt templates from the project and the user) and the skills, filtered
// as you type; up/down choose, Enter or Tab pick, Escape closes.
import { skipToken, useQuery } from '@tanstack/react-query';
import { Slash } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import * as bridge from '../../bridge';
import { toBridgeError, type BridgeError } from '../../bridge/errors';
import { queryKeys } from '../../state/queryKeys';
import { filterSlash, slashEntries, slashQuery, wantsSkills, type SlashEntry, type SlashSkill, type SlashSkillNotes } from './slash';

export interface SlashMenuApi {
  open: boolean;
  entries: SlashEntry[];
  /** Why the custom commands could not be listed (the built-ins still are). */
  error: BridgeError | null;
  /** Skills left out of the model's list and unusable skill files, while skills are in view. */
  skillNotes: SlashSkillNotes | null;
  active: number;
  setActive: (i: number) => void;
  /** Handles a key of the textarea; true when it was the menu's. */
  onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Picks an entry: completes "/name " or, with run, runs it. */
  pick: (entry: SlashEntry, run: boolean) => void;
  listId: string;
}

export interface SlashMenuOptions {
  /** The session whose custom commands are listed; without it the menu is off. */
  sessionId: string | undefined;
  /** The skills offered as /skill:<name>. */
  skills: readonly SlashSkill[];
  /** What is said about the skills the menu does not offer (shown under the skills). */
  skillNotes?: SlashSkillNotes;
  /** Replaces the composer's text and puts the caret there. */
  replace: (next: string, caret: number) => void;
  /** Runs a picked entry that takes no arguments (the composer's send path). */
  run: (entry: SlashEntry) => void;
  listId: string;
}

export function useSlashMenu(text: string, caret: number, { sessionId, skills, skillNotes, replace, run, listId }: SlashMenuOptions): SlashMenuApi {
  const query = sessionId !== undefined ? slashQuery(text, caret) : null;
  // Escape closes the menu for this text only; typing on opens it again.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const wanted = query !== null && dismissed !== text;
  const custom = useQuery({
    queryKey: queryKeys.slashCommands(sessionId ?? ''),
    queryFn: wanted && sessionId !== undefined ? () => bridge.listSlashCommands(sessionId) : skipToken,
  });
  const all = useMemo(
    () => slashEntries((custom.data?.commands ?? []).filter((c) => c.state === 'effective'), skills),
    [custom.data, skills],
  );
  const entries = useMemo(() => (wanted ? filterSlash(all, query) : []), [wanted, all, query]);
  // The notes show while skills are in view, even when no skill is usable.
  const notesWanted = wanted && hasNotes(skillNotes) && (wantsSkills(query) || entries.some((e) => e.kind === 'skill'));
  const notes = notesWanted ? skillNotes! : null;
  const open = wanted && (entries.length > 0 || notes !== null);
  const [chosen, setChosen] = useState<{ for: string; index: number }>({ for: '', index: 0 });
  const active = chosen.for === query ? Math.min(chosen.index, Math.max(entries.length - 1, 0)) : 0;
  const setActive = useCallback((index: number) => setChosen({ for: query ?? '', index }), [query]);

  useEffect(() => {
    if (query === null) setDismissed(null);
  }, [query]);

  const pick = useCallback(
    (entry: SlashEntry, runIt: boolean) => {
      if (runIt) {
        run(entry);
        return;
      }
      const next = `/${entry.name} `;
      replace(next, next.length);
    },
    [replace, run],
  );

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
      if (!open || e.nativeEvent.isComposing) return false;
      // Only notes are shown: the keys are the textarea's, Escape aside.
      if (entries.length === 0 && e.key !== 'Escape') return false;
      switch (e.key) {
        case 'Escape':
          e.preventDefault();
          setDismissed(text);
          return true;
        case 'ArrowDown':
          e.preventDefault();
          setActive((active + 1) % entries.length);
          return true;
        case 'ArrowUp':
          e.preventDefault();
          setActive((active - 1 + entries.length) % entries.length);
          return true;
        case 'Enter':
        case 'Tab': {
          if (e.shiftKey) return false;
          e.preventDefault();
          const entry = entries[active]!;
          pick(entry, e.key === 'Enter' && entry.runsOnPick);
          return true;
        }
      }
      return false;
    },
    [open, text, entries, active, setActive, pick],
  );

  return {
    open,
    entries: open ? entries : [],
    error: wanted && custom.error ? toBridgeError(custom.error) : null,
    skillNotes: open ? notes : null,
    active,
    setActive,
    onKeyDown,
    pick,
    listId,
  };
}

function hasNotes(n: SlashSkillNotes | undefined): n is SlashSkillNotes {
  return n !== undefined && (n.leftOut > 0 || n.problems.length > 0);
}

/** How many unusable skill files the menu names; the rest are counted. */
const SHOWN_PROBLEMS = 5;

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Under the skills: those the model's list left out, and the files that did not load and why. */
function SkillNotes({ notes }: { notes: SlashSkillNotes }) {
  const shown = notes.problems.slice(0, SHOWN_PROBLEMS);
  const more = notes.problems.length - shown.length;
  return (
    <div className="slash-skill-notes" aria-label="About skills">
      {notes.leftOut > 0 && (
        <p className="mention-status">
          {plural(notes.leftOut, 'skill is', 'skills are')} left out of the model's list to keep its prompt short; invoke them with /skill:&lt;name&gt;.
        </p>
      )}
      {shown.length > 0 && (
        <>
          <p className="mention-status">{plural(notes.problems.length, 'skill file was', 'skill files were')} not loaded:</p>
          <ul className="slash-skill-problems" aria-label="Skill files not loaded">
            {shown.map((p) => (
              <li key={p.path} className="mention-status">
                <code title={p.path}>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
          {more > 0 && <p className="mention-status">… and {more} more; pi-desktop skills list shows them all.</p>}
        </>
      )}
    </div>
  );
}

const KIND_LABEL = { builtin: 'Built-in', custom: 'Custom command', skill: 'Skill' } as const;

/** The menu above the input; options are picked with the mouse without taking focus. */
export function SlashMenuList({ api }: { api: SlashMenuApi }) {
  const activeRef = useRef<HTMLLIElement>(null);
  useEffect(() => {
    activeRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [api.active]);
  if (!api.open) return null;
  return (
    <div className="mention-popup slash-popup">
      {api.entries.length > 0 && (
        <ul className="mention-list" role="listbox" id={api.listId} aria-label="Commands">
          {api.entries.map((entry, i) => (
            <li
              key={entry.name}
              id={`${api.listId}-${i}`}
              ref={i === api.active ? activeRef : undefined}
              role="option"
              aria-selected={i === api.active}
              aria-description={`${KIND_LABEL[entry.kind]}${entry.description ? `: ${entry.description}` : ''}`}
              className={i === api.active ? 'mention-option is-active' : 'mention-option'}
              onMouseDown={(e) => {
                e.preventDefault(); // keep the caret in the textarea
                api.pick(entry, entry.runsOnPick);
              }}
              onMouseEnter={() => api.setActive(i)}
            >
              <Slash size={13} aria-hidden="true" />
              <span className="mention-name">
                /{entry.name}
                {entry.hint && <span className="slash-hint"> {entry.hint}</span>}
              </span>
              {entry.description && <span className="mention-dir">{entry.description}</span>}
            </li>
          ))}
        </ul>
      )}
      {api.skillNotes && <SkillNotes notes={api.skillNotes} />}
      {api.error && (
        <p className="mention-status" role="status">
          Custom commands could not be listed: {api.error.message} <code className="error-code">{api.error.code}</code>
        </p>
      )}
    </div>
  );
}

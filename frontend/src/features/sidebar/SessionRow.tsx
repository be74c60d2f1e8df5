import { Activity, Archive, ArchiveRestore, Download, FileDiff, GitBranch, MoreHorizontal, Pencil, Plus, Trash2 } from 'lucide-react';
import * as bridge from '../../bridge';
import type { ExportFormat } from '../../bridge/history';
import { sessionBranch } from '../../bridge/types';
import { useEffect, useRef, useState } from 'react';
import type { Session } from '../../bridge/types';
import { useNow } from '../../lib/useNow';
import { cleanTitle, sessionTitle, WAITING_FOR_APPROVAL } from '../../lib/labels';
import { formatDateTime, formatRelativeTime } from '../../lib/time';
import { useSessionActivity } from '../../state/SessionActivityContext';
import { useToasts } from '../../state/ToastContext';
import { useWorkspace } from '../../state/WorkspaceContext';
import { IconButton } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { useMenu, type MenuItem } from '../../ui/Menu';
import { useCommands, useMenuKeys } from '../keyboard/CommandsContext';

export interface SessionRowProps {
  session: Session;
  /** Secondary line, e.g. the project name in the archived view. */
  subtitle?: string;
}

export function SessionRow({ session, subtitle }: SessionRowProps) {
  const ws = useWorkspace();
  const confirm = useConfirm();
  const { notify, reportError } = useToasts();
  const now = useNow();
  const activity = useSessionActivity();
  const approvals = activity.pending[session.id]?.length ?? 0;
  const decisions = activity.decisions[session.id] ?? [];
  const pending = approvals + decisions.length;
  const running = Boolean(activity.running[session.id]);
  const [editing, setEditing] = useState(false);
  const mainRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    // Give focus back to the row when inline editing ends.
    if (wasEditing.current && !editing) mainRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const title = sessionTitle(session);
  const archived = session.archivedAt > 0;
  const selected = ws.state.selected?.id === session.id && ws.state.view === 'session';

  const askDelete = async () => {
    const ok = await confirm({
      title: 'Delete session?',
      message: (
        <>
          <p>
            “{title}” and its conversation will be deleted, together with the session’s scratch files.
          </p>
          <p className="muted">Project files on disk are untouched. This cannot be undone.</p>
        </>
      ),
      confirmLabel: 'Delete session',
      danger: true,
    });
    if (ok) await ws.deleteSession(session);
  };

  const exportAs = async (format: ExportFormat) => {
    try {
      const { path } = await bridge.exportSession(session.id, format);
      // An empty path means the save dialog was cancelled: nothing to say.
      if (path !== '') notify(`Exported to ${path}`);
    } catch (err) {
      reportError(err, () => void exportAs(format));
    }
  };

  const commands = useCommands();
  const keys = useMenuKeys();
  // The open session's own commands carry the keys that do the same from anywhere; the
  // keys act on the open session, so another row's menu shows them without keys.
  const paneCommands: MenuItem[] = selected
    ? [
        ...(commands.available.has('toggleChanges')
          ? [{ label: 'Show or hide Changes', icon: <FileDiff size={14} aria-hidden="true" />, keys: keys('toggleChanges'), onSelect: () => void commands.run('toggleChanges') }]
          : []),
        ...(commands.available.has('toggleActivity')
          ? [{ label: 'Show or hide Activity', icon: <Activity size={14} aria-hidden="true" />, keys: keys('toggleActivity'), onSelect: () => void commands.run('toggleActivity') }]
          : []),
      ]
    : [];
  const items: MenuItem[] = [
    {
      label: session.projectId ? 'New session in this project' : 'New temporary session',
      icon: <Plus size={14} aria-hidden="true" />,
      keys: selected ? keys('newSession') : undefined,
      onSelect: () => void ws.newSession(session.projectId),
    },
    ...paneCommands,
    { label: 'Rename', icon: <Pencil size={14} aria-hidden="true" />, onSelect: () => setEditing(true) },
    archived
      ? { label: 'Restore', icon: <ArchiveRestore size={14} aria-hidden="true" />, onSelect: () => void ws.restoreSession(session) }
      : { label: 'Archive', icon: <Archive size={14} aria-hidden="true" />, onSelect: () => void ws.archiveSession(session) },
    { label: 'Export as Markdown…', icon: <Download size={14} aria-hidden="true" />, onSelect: () => void exportAs('md') },
    { label: 'Export as JSON…', icon: <Download size={14} aria-hidden="true" />, onSelect: () => void exportAs('json') },
    { label: 'Delete', icon: <Trash2 size={14} aria-hidden="true" />, danger: true, onSelect: () => void askDelete() },
  ];
  const menu = useMenu(`Actions for ${title}`, items);
  const time = archived ? session.archivedAt : session.updatedAt;

  return (
    <li
      className={['session-row', selected && 'is-selected', menu.open && 'menu-open'].filter(Boolean).join(' ')}
      onContextMenu={editing ? undefined : menu.onContextMenu}
    >
      {editing ? (
        <RenameInput
          initial={session.title}
          onDone={(next) => {
            setEditing(false);
            if (next !== null && next !== session.title) void ws.renameSession(session, next);
          }}
        />
      ) : (
        <button
          ref={mainRef}
          type="button"
          className="session-main"
          aria-current={selected ? 'page' : undefined}
          onClick={() => ws.select(session)}
          title={title}
        >
          <span className="session-title">{title}</span>
          {session.isolated && (
            <span className="session-isolated" role="img" aria-label="Isolated session" title={`Isolated: works on branch ${sessionBranch(session.id)}`}>
              <GitBranch size={12} aria-hidden="true" />
            </span>
          )}
          {subtitle && <span className="session-subtitle">{subtitle}</span>}
          {approvals > 0 && <span className="session-subtitle session-waiting">{WAITING_FOR_APPROVAL}</span>}
          {running && <span className="session-running" role="img" aria-label="Running" title="A turn is running" />}
          {pending > 0 && (
            <span
              className="badge badge-pending"
              aria-label={waitingLabel(approvals, decisions)}
              title={`${waitingLabel(approvals, decisions)}: open the session to answer`}
            >
              {pending}
            </span>
          )}
          <time className="session-time" dateTime={new Date(time).toISOString()} title={formatDateTime(time)}>
            {formatRelativeTime(time, now)}
          </time>
        </button>
      )}
      {!editing && (
        <div className="row-actions">
          {archived && (
            <IconButton label={`Restore ${title}`} onClick={() => void ws.restoreSession(session)}>
              <ArchiveRestore size={14} aria-hidden="true" />
            </IconButton>
          )}
          <IconButton label={`Session actions for ${title}`} {...menu.triggerProps}>
            <MoreHorizontal size={14} aria-hidden="true" />
          </IconButton>
        </div>
      )}
      {menu.menu}
    </li>
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "1 pending approval", "2 questions", "1 plan or goal to approve", joined. */
export function waitingLabel(approvals: number, decisions: readonly string[]): string {
  const questions = decisions.filter((k) => k.startsWith('question:')).length;
  const proposals = decisions.length - questions;
  return [
    approvals > 0 ? plural(approvals, 'pending approval', 'pending approvals') : '',
    questions > 0 ? plural(questions, 'question waiting', 'questions waiting') : '',
    proposals > 0 ? plural(proposals, 'plan or goal to approve', 'plans or goals to approve') : '',
  ]
    .filter(Boolean)
    .join(', ');
}

function RenameInput({ initial, onDone }: { initial: string; onDone: (title: string | null) => void }) {
  const [value, setValue] = useState(initial);
  const done = useRef(false);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const finish = (title: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(title);
  };
  return (
    <input
      ref={ref}
      className="rename-input"
      aria-label="Session title"
      value={value}
      maxLength={200}
      onChange={(e) => setValue(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          finish(cleanTitle(value));
        } else if (e.key === 'Escape') {
          e.preventDefault();
          e.stopPropagation();
          finish(null);
        }
      }}
      onBlur={() => finish(cleanTitle(value))}
    />
  );
}

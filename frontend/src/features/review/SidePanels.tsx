// The session header's side panels: Review (the session's changes) and Activity (its
// audit rows). SessionPane holds the state with useSessionPanels and places the two
// pieces: PanelButtons in the header, PanelSlot beside the transcript.
import { Activity, FileDiff, Files } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Button } from '../../ui/Button';
import { ActivityPanel } from '../activity/ActivityPanel';
import { FilesPanel } from '../files/FilesPanel';
import { SidePane } from '../../ui/SidePane';
import { ReviewPanel } from './ReviewPanel';
import { useReviewChanges, type ReviewApi } from './useReviewChanges';
import type { CommandChange } from '../../bridge/checkpoints';
import { useRestoreHost } from '../checkpoints/RestoreHost';
import { useCommandChanges } from '../checkpoints/useCheckpoints';
import type { PromptIndex } from './wording';
import './review.css';
import { useShortcutHint } from '../keyboard/CommandsContext';

export type SidePanel = 'review' | 'activity' | 'files';

export interface SessionPanels {
  sessionId: string;
  open: SidePanel | null;
  toggle: (panel: SidePanel) => void;
  close: () => void;
  review: ReviewApi;
  /** What the session's Bash calls changed. */
  commands: CommandChange[];
  ids: Record<SidePanel, string>;
  buttons: RefObject<Record<SidePanel, HTMLButtonElement | null>>;
}

export function useSessionPanels(sessionId: string): SessionPanels {
  const [open, setOpen] = useState<SidePanel | null>(null);
  const review = useReviewChanges(sessionId);
  const commands = useCommandChanges(sessionId);
  const base = useId();
  const ids = { review: `${base}-review`, activity: `${base}-activity`, files: `${base}-files` };
  const buttons = useRef<Record<SidePanel, HTMLButtonElement | null>>({ review: null, activity: null, files: null });
  const toggle = useCallback((p: SidePanel) => setOpen((cur) => (cur === p ? null : p)), []);
  const close = useCallback(() => {
    // Give the focus back to the button that opened the panel.
    if (open) buttons.current[open]?.focus();
    setOpen(null);
  }, [open]);
  return { sessionId, open, toggle, close, review, commands, ids, buttons };
}

export function PanelButtons({ panels }: { panels: SessionPanels }) {
  // Rolled-back changes are history, not changes: the count is what is still applied.
  const active = panels.review.changes.filter((c) => c.state !== 'rolledBack').length;
  const count = active + panels.commands.reduce((n, c) => n + c.files.length, 0);
  const changesHint = useShortcutHint('toggleChanges', 'Show or hide Changes');
  const activityHint = useShortcutHint('toggleActivity', 'Show or hide Activity');
  return (
    <div className="panel-buttons">
      <Button
        ref={(el) => void (panels.buttons.current.review = el)}
        size="sm"
        variant="ghost"
        icon={<FileDiff size={14} aria-hidden="true" />}
        aria-pressed={panels.open === 'review'}
        aria-controls={panels.open === 'review' ? panels.ids.review : undefined}
        {...changesHint}
        onClick={() => panels.toggle('review')}
      >
        {/* Read out as "Changes (N)", shown as a pill; one hidden text node, so no
            browser puts spaces inside the brackets. */}
        Changes{' '}
        <span className="count-pill" aria-hidden="true">
          {count}
        </span>
        <span className="visually-hidden">({count})</span>
      </Button>
      <Button
        ref={(el) => void (panels.buttons.current.activity = el)}
        size="sm"
        variant="ghost"
        icon={<Activity size={14} aria-hidden="true" />}
        aria-pressed={panels.open === 'activity'}
        aria-controls={panels.open === 'activity' ? panels.ids.activity : undefined}
        {...activityHint}
        onClick={() => panels.toggle('activity')}
      >
        Activity
      </Button>
      <Button
        ref={(el) => void (panels.buttons.current.files = el)}
        size="sm"
        variant="ghost"
        icon={<Files size={14} aria-hidden="true" />}
        aria-pressed={panels.open === 'files'}
        aria-controls={panels.open === 'files' ? panels.ids.files : undefined}
        onClick={() => panels.toggle('files')}
      >
        Files
      </Button>
    </div>
  );
}

export function PanelSlot({ panels, prompts, onMention }: { panels: SessionPanels; prompts?: PromptIndex; onMention?: (path: string) => void }) {
  const ref = useRef<HTMLElement>(null);
  const restore = useRestoreHost();
  // An opened panel takes the focus, so the keyboard lands in it.
  useEffect(() => {
    if (panels.open) ref.current?.focus();
  }, [panels.open]);
  if (panels.open === 'review') {
    return (
      <SidePane ref={ref} id={panels.ids.review} title="Changes" onClose={panels.close}>
        <ReviewPanel
          review={panels.review}
          commands={panels.commands}
          prompts={prompts}
          onRestoreBefore={restore ? (id) => restore.open(id, 'Restore files to before this command') : undefined}
        />
      </SidePane>
    );
  }
  if (panels.open === 'files') {
    return (
      <SidePane ref={ref} id={panels.ids.files} title="Files" onClose={panels.close}>
        <FilesPanel key={panels.sessionId} sessionId={panels.sessionId} revision={panels.review.changes} onMention={onMention} />
      </SidePane>
    );
  }
  if (panels.open === 'activity') {
    return (
      <SidePane ref={ref} id={panels.ids.activity} title="Activity" onClose={panels.close}>
        <ActivityPanel key={panels.sessionId} sessionId={panels.sessionId} />
      </SidePane>
    );
  }
  return null;
}

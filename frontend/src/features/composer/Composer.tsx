import { ArrowUp, Paperclip, Settings2, Square } from 'lucide-react';
import { WAITING_FOR_APPROVAL } from '../../lib/labels';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent, type MutableRefObject, type ReactNode } from 'react';
import * as bridge from '../../bridge';
import { BridgeError, toBridgeError } from '../../bridge/errors';
import { MODEL_SETUP_HINT } from '../../lib/labels';
import type { Attachment } from '../../bridge/attachments';
import { AttachmentChips, useAttachments } from './Attachments';
import { FileSuggestionList, useFileSuggestions } from './FileSuggestions';
import { insertMentionAt } from './mentions';
import { BUILTIN_COMMANDS, parseSlash, type SlashEntry, type SlashSkill, type SlashSkillNotes } from './slash';
import { SlashMenuList, useSlashMenu } from './SlashMenu';
import { useShortcutHint } from '../keyboard/CommandsContext';

/** The "/" commands of a session's composer. */
export interface SlashActions {
  /** The session whose custom commands are listed and expanded. */
  sessionId: string;
  /**
   * Runs a built-in by its menu name ("new", "plan", "mode auto", …); rejects with the
   * reason, shown under the input.
   */
  runBuiltin: (name: string) => Promise<void>;
  /**
   * The skills offered as /skill:<name> (SessionPane lists the project's); a
   * /skill:… text is sent as typed, for the backend to turn into the Skill call.
   */
  skills?: readonly SlashSkill[];
  /** Skills left out of the model's list and skill files that did not load, said in the menu. */
  skillNotes?: SlashSkillNotes;
}

const NO_SKILLS: readonly SlashSkill[] = [];

/** Built-ins that take a prompt after them: "/plan build the parser" switches, then sends. */
const MODE_SWITCHES = new Set(['plan', 'goal', 'agent']);

export interface ComposerProps {
  /**
   * Starts a turn; resolves once it runs, rejects with the reason (the text and the
   * attachments are kept). attachments are the files attached in the composer, if any.
   */
  onSend: (text: string, attachments?: Attachment[]) => Promise<void>;
  onStop: () => Promise<void>;
  /** A turn is running: Stop replaces Send. */
  running: boolean;
  /** The running turn waits for the user's answer on a permission card. */
  waiting?: boolean;
  /** Controls shown in the bar (mode selector, permission chip). */
  toolbar?: ReactNode;
  placeholder?: string;
  /** Opens Settings (offered with the MODEL_NOT_CONFIGURED notice). */
  onOpenSettings?: () => void;
  /** The todo + background-task container: above the decision surfaces and the input. */
  dock?: ReactNode;
  /** The decision surfaces (Plan/Goal approval, asktool questions), directly above the input. */
  decisions?: ReactNode;
  /** The session whose workspace files "@" references list; without it "@" is plain text. */
  filesOf?: string;
  /** The "/" menu and commands; without it "/" is plain text. */
  slash?: SlashActions;
  /**
   * Set by the composer while it is mounted: inserts "@path" at the caret and focuses
   * the input (the Files pane's Mention).
   */
  mentionRef?: MutableRefObject<((path: string) => void) | null>;
  /** The session files are attached to (paste, drop, the attach button); without it none can be. */
  attachTo?: string;
  /** Take the focus when shown (a session the user just created). */
  autoFocus?: boolean;
}

export function Composer({ onSend, onStop, running, waiting = false, toolbar, placeholder = 'Ask the agent to do something…', onOpenSettings, dock, decisions, filesOf, slash, mentionRef, attachTo, autoFocus = false }: ComposerProps) {
  const attached = useAttachments(attachTo);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);
  const pendingCaret = useRef<number | null>(null);
  const listId = useId();
  const replace = useCallback((next: string, at: number) => {
    setText(next);
    setCaret(at);
    pendingCaret.current = at;
  }, []);
  const files = useFileSuggestions(text, caret, filesOf, replace, listId);
  const slashListId = useId();
  // The menu runs a picked entry through send, so both ways share one path.
  const sendRef = useRef<(value?: string) => Promise<void>>(async () => {});
  const runPicked = useCallback((entry: SlashEntry) => void sendRef.current(`/${entry.name}`), []);
  const menu = useSlashMenu(text, caret, { sessionId: slash?.sessionId, skills: slash?.skills ?? NO_SKILLS, skillNotes: slash?.skillNotes, replace, run: runPicked, listId: slashListId });
  // Put the caret after an inserted reference once the new text is in the textarea.
  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !input.current) return;
    pendingCaret.current = null;
    input.current.setSelectionRange(at, at);
  }, [text]);
  // The Files pane's Mention inserts at the caret the user left.
  const latest = useRef({ text, caret });
  useLayoutEffect(() => {
    latest.current = { text, caret };
  });
  useEffect(() => {
    if (!mentionRef) return;
    mentionRef.current = (path) => {
      const el = input.current;
      const at = el && document.activeElement === el ? el.selectionStart : latest.current.caret;
      const next = insertMentionAt(latest.current.text, at, path);
      replace(next.text, next.caret);
      el?.focus();
    };
    return () => {
      mentionRef.current = null;
    };
  }, [mentionRef, replace]);
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  const stopHint = useShortcutHint('stop', 'Stop the agent');
  const [error, setError] = useState<BridgeError | null>(null);
  const errorId = useId();
  const hasContent = text.trim() !== '' || attached.list.length > 0;
  const canSend = !running && !sending && !attached.busy && hasContent;

  useEffect(() => {
    if (!running) setStopping(false);
  }, [running]);

  /** Sends value (the text by default): a "/" command runs or is expanded first. */
  const send = async (value: string = text) => {
    const trimmed = value.trim();
    const files = attached.list;
    if (running || sending || attached.busy || (trimmed === '' && files.length === 0)) return;
    setSending(true);
    try {
      await dispatch(trimmed, files);
      setText('');
      attached.clear();
      setError(null);
    } catch (err) {
      setError(toBridgeError(err));
    } finally {
      setSending(false);
    }
  };
  sendRef.current = send;

  const dispatch = async (trimmed: string, files: Attachment[]) => {
    // Attachments go only with a prompt; onSend is called as before without any.
    const sendText = (t: string) => (files.length > 0 ? onSend(t, files) : onSend(t));
    const cmd = slash ? parseSlash(trimmed) : null;
    if (!slash || !cmd) return sendText(trimmed);
    const builtinName = cmd.name === 'mode' ? `mode ${cmd.args}` : cmd.name;
    if (cmd.name === 'mode' && !BUILTIN_COMMANDS.some((b) => b.name === builtinName)) {
      throw new BridgeError('INVALID_ARGUMENT', 'use /mode ask, /mode accept-edits or /mode auto');
    }
    if (BUILTIN_COMMANDS.some((b) => b.name === builtinName)) {
      if (cmd.args !== '' && cmd.name !== 'mode' && !MODE_SWITCHES.has(cmd.name)) {
        throw new BridgeError('INVALID_ARGUMENT', `/${cmd.name} takes no text after it; send it alone`);
      }
      await slash.runBuiltin(builtinName);
      if (MODE_SWITCHES.has(cmd.name) && cmd.args !== '') await sendText(cmd.args);
      return;
    }
    // The skills seam: the backend turns "/skill:<name> text" into the Skill call.
    if (cmd.name.startsWith('skill:')) return sendText(trimmed);
    const expanded = await bridge.expandSlashCommand(slash.sessionId, cmd.name, cmd.args);
    await sendText(expanded.prompt);
  };

  const stop = async () => {
    setStopping(true);
    try {
      await onStop();
    } catch (err) {
      setError(toBridgeError(err));
      setStopping(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (files.onKeyDown(e)) return;
    if (menu.onKeyDown(e)) return;
    // Enter sends, Shift+Enter inserts a newline; IME composition is left alone.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };

  const modelMissing = error?.code === 'MODEL_NOT_CONFIGURED';

  // A pasted file or image (no path) is attached; pasted text stays text.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    if (!attachTo) return;
    const files = Array.from(e.clipboardData?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    void attached.addFiles(files);
  };
  const onDragOver = (e: DragEvent<HTMLFormElement>) => {
    if (attachTo && Array.from(e.dataTransfer?.types ?? []).includes('Files')) e.preventDefault();
  };
  // In the app's window a drop arrives as paths (useAttachments); a browser page gets Files.
  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    if (!attachTo) return;
    const files = Array.from(e.dataTransfer?.files ?? []);
    if (files.length === 0) return;
    e.preventDefault();
    if (!bridge.nativeFileDrop()) void attached.addFiles(files);
  };
  const attachError = attached.error;

  return (
    <form className="composer" onSubmit={onSubmit} aria-label="Composer" onDragOver={onDragOver} onDrop={onDrop}>
      {dock}
      {modelMissing && (
        <div className="composer-blocker" role="alert" id={errorId}>
          <Settings2 size={16} aria-hidden="true" />
          <div>
            <strong>No model is configured</strong>
            <p>{MODEL_SETUP_HINT}</p>
            {onOpenSettings && (
              <p>
                <button type="button" className="btn btn-secondary btn-sm" onClick={onOpenSettings}>
                  Open model settings
                </button>
              </p>
            )}
            <p className="muted">
              {error.message} <code className="error-code">{error.code}</code>
            </p>
          </div>
        </div>
      )}
      {decisions}
      <div className="composer-box">
        <FileSuggestionList api={files} />
        <SlashMenuList api={menu} />
        <AttachmentChips list={attached.list} onRemove={attached.remove} />
        <textarea
          ref={input}
          className="composer-input"
          aria-label="Message"
          aria-describedby={error ? errorId : undefined}
          aria-autocomplete={filesOf !== undefined || slash !== undefined ? 'list' : undefined}
          aria-controls={menu.open && menu.entries.length > 0 ? slashListId : files.open && files.results && files.results.files.length > 0 ? listId : undefined}
          aria-activedescendant={
            menu.open && menu.entries.length > 0 ? `${slashListId}-${menu.active}` : files.open && (files.results?.files.length ?? 0) > 0 ? `${listId}-${files.active}` : undefined
          }
          placeholder={placeholder}
          rows={3}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div className="composer-bar">
          <div className="composer-tools">
            {attachTo !== undefined && (
              <button type="button" className="btn btn-ghost btn-sm composer-attach" aria-label="Attach files" title="Attach files" onClick={() => void attached.choose()} disabled={attached.busy}>
                <Paperclip size={14} aria-hidden="true" />
              </button>
            )}
            {toolbar}
          </div>
          <span className="composer-hint">
            {running ? (
              waiting ? (
                <strong className="composer-waiting">{WAITING_FOR_APPROVAL}</strong>
              ) : (
                'The agent is working…'
              )
            ) : (
              <>
                <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
                {filesOf !== undefined && (
                  <>
                    {' '}
                    · <kbd>@</kbd> to reference a file
                  </>
                )}
                {slash !== undefined && (
                  <>
                    {' '}
                    · <kbd>/</kbd> for commands
                  </>
                )}
              </>
            )}
          </span>
          {running ? (
            <button type="button" className="btn btn-danger btn-sm composer-send" onClick={() => void stop()} disabled={stopping} {...stopHint}>
              <Square size={13} aria-hidden="true" />
              <span>{stopping ? 'Stopping…' : 'Stop'}</span>
            </button>
          ) : (
            <button type="submit" className="btn btn-primary btn-sm composer-send" disabled={!canSend} aria-busy={sending || undefined}>
              <ArrowUp size={15} aria-hidden="true" />
              <span>Send</span>
            </button>
          )}
        </div>
      </div>
      {attachError && (
        <p className="composer-error" role="alert">
          <code className="error-code">{attachError.code}</code> {attachError.message}
        </p>
      )}
      {error && !modelMissing && (
        <p id={errorId} className="composer-error" role="alert">
          <code className="error-code">{error.code}</code> {error.message}
        </p>
      )}
    </form>
  );
}

import { ArchiveRestore, Folder, FlaskConical } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react';
import * as bridge from '../../bridge';
import type { MCPSelection, Project, ReviewChange, Session } from '../../bridge/types';
import type { Attachment } from '../../bridge/attachments';
import { queryKeys } from '../../state/queryKeys';
import { sessionTitle } from '../../lib/labels';
import { useApp } from '../../state/AppContext';
import { useTranscript } from '../../state/useTranscript';
import { pendingApprovalCount } from '../../state/transcript';
import { useWorkspace } from '../../state/WorkspaceContext';
import { useToasts } from '../../state/ToastContext';
import { Button } from '../../ui/Button';
import { useConfirm } from '../../ui/Dialog';
import { Composer, type SlashActions } from '../composer/Composer';
import { ModeSelector, PermissionChip } from '../composer/ModeControls';
import { PanelButtons, PanelSlot, useSessionPanels } from '../review/SidePanels';
import { PreviewPane } from '../preview/PreviewPane';
import type { ReviewApi } from '../review/useReviewChanges';
import { DecisionSurfaces } from '../decisions/DecisionSurfaces';
import { ModelPicker } from '../composer/ModelPicker';
import { MCPPicker } from '../composer/MCPPicker';
import { MCPCatalogProvider } from '../mcp/MCPCatalog';
import { TEMPORARY_HINT } from '../sidebar/Sidebar';
import { TasksContainer } from '../tasks/TasksContainer';
import { VizProvider } from '../visualize/VizContext';
import { ModelImagesProvider } from './ModelImages';
import { DelegateApprovals } from './DelegateApprovals';
import { SessionCostMeter } from './SessionCostMeter';
import { Transcript } from './Transcript';
import { promptIndex, sameIndex } from './promptIndex';
import { retryPrompt } from './retryPrompt';
import { TurnRetryContext, type TurnRetry } from './TranscriptRows';
import { WorktreeHeader, WorktreeSetupNotice } from './Worktree';
import { rollbackEffect, type PromptIndex } from '../review/wording';
import { RestoreHost, RestoreNote, RestoreTargets } from '../checkpoints/RestoreHost';
import { useCommand } from '../keyboard/CommandsContext';
import { useJump } from '../search/JumpContext';

export function SessionPane({ session, project }: { session: Session; project: Project | undefined }) {
  const ws = useWorkspace();
  const temporary = session.projectId === '';
  const panels = useSessionPanels(session.id);
  const { toggle } = panels;
  useCommand('toggleChanges', () => toggle('review'));
  useCommand('toggleActivity', () => toggle('activity'));
  // The Files pane's Mention reaches the composer through this.
  const mention = useRef<((path: string) => void) | null>(null);
  const onMention = useCallback((path: string) => mention.current?.(path), []);
  const [prompts, setPrompts] = useState<PromptIndex>({});
  return (
    <section className="session-pane" aria-label={sessionTitle(session)}>
      <header className="pane-header">
        <div className="pane-title-block">
          <h1 className="pane-title">{sessionTitle(session)}</h1>
          <div className="pane-subtitle">
            {temporary ? (
              <span title={TEMPORARY_HINT}>
                <FlaskConical size={13} aria-hidden="true" /> Temporary session
              </span>
            ) : (
              <span title={project?.path}>
                <Folder size={13} aria-hidden="true" /> {project?.name ?? 'Unknown project'}
                {project && <span className="pane-path">{project.path}</span>}
              </span>
            )}
          </div>
        </div>
        {session.isolated && <WorktreeHeader key={`worktree-${session.id}`} session={session} />}
        <SessionCostMeter key={`cost-${session.id}`} sessionId={session.id} />
        <PanelButtons panels={panels} />
      </header>
      {session.isolated && <WorktreeSetupNotice key={`setup-${session.id}`} sessionId={session.id} />}
      {session.archivedAt > 0 && (
        <div className="archived-banner" role="status">
          <span>This session is archived.</span>
          <Button size="sm" icon={<ArchiveRestore size={14} aria-hidden="true" />} onClick={() => void ws.restoreSession(session)}>
            Restore
          </Button>
        </div>
      )}
      <RestoreHost key={`restore-${session.id}`} sessionId={session.id}>
        <div className="session-split">
          <div className="session-column">
            <RestoreNote />
            <SessionBody key={session.id} session={session} review={panels.review} mentionRef={mention} onPrompts={setPrompts} />
          </div>
          <PanelSlot panels={panels} prompts={prompts} onMention={onMention} />
          <PreviewPane key={`preview-${session.id}`} sessionId={session.id} />
        </div>
      </RestoreHost>
    </section>
  );
}

/** Keyed by session id: its transcript state starts fresh for every session. */
function SessionBody({
  session,
  review,
  mentionRef,
  onPrompts,
}: {
  session: Session;
  review: ReviewApi;
  mentionRef: MutableRefObject<((path: string) => void) | null>;
  onPrompts: (index: PromptIndex) => void;
}) {
  const ws = useWorkspace();
  const { settings } = useApp();
  const confirm = useConfirm();
  const { reportError } = useToasts();
  const t = useTranscript(session.id);
  // The Changes pane names messages by their prompts; it hears of a new index only when
  // one changed (not on every streamed token).
  const lastPrompts = useRef<PromptIndex>({});
  useEffect(() => {
    const next = promptIndex(t.state.items);
    if (sameIndex(next, lastPrompts.current)) return;
    lastPrompts.current = next;
    onPrompts(next);
  }, [t.state.items, onPrompts]);
  // The MCP servers chosen for the next prompt only.
  const [mcp, setMcp] = useState<MCPSelection[]>([]);
  const { send } = t;
  useSessionCommands(t.running ? t.stop : undefined);
  const jump = useJump();
  const { notify } = useToasts();
  const jumpDone = jump?.done;
  const onJumped = useCallback(
    (seq: number, found: boolean) => {
      jumpDone?.(seq);
      if (!found) notify('That message is no longer in this session.');
    },
    [jumpDone, notify],
  );
  const onSend = useCallback(
    async (text: string, attachments?: Attachment[]) => {
      await send(text, mcp, attachments);
      setMcp([]);
    },
    [send, mcp],
  );
  // Retry on a failed turn sends its prompt again with the same attachments; the host
  // verifies them again, so a file changed or gone since fails with its own code.
  const items = t.state.items;
  const retry = useMemo<TurnRetry>(
    () => ({
      canRetry: !t.running,
      retry: (turnId) => {
        const again = retryPrompt(items, turnId);
        if (again) void onSend(again.text, again.attachments).catch(reportError);
      },
    }),
    [t.running, items, onSend, reportError],
  );
  // /model and /mcp open their pickers by bumping these.
  const [openModel, setOpenModel] = useState(0);
  const [openMCP, setOpenMCP] = useState(0);
  const client = useQueryClient();
  // The /skill:<name> entries: the project's skills as a session of it sees them.
  const skillsQuery = useQuery({
    queryKey: queryKeys.skills(session.projectId),
    queryFn: () => bridge.listSkills(session.projectId),
    staleTime: 30_000,
  });
  const skills = useMemo(
    () => (skillsQuery.data?.skills ?? []).map((s) => ({ name: s.name, description: s.description })),
    [skillsQuery.data],
  );
  const skillNotes = useMemo(
    () => (skillsQuery.data ? { leftOut: skillsQuery.data.leftOut, problems: skillsQuery.data.problems } : undefined),
    [skillsQuery.data],
  );
  const slash: SlashActions = {
    sessionId: session.id,
    skills,
    skillNotes,
    runBuiltin: async (name) => {
      switch (name) {
        case 'new':
          return ws.newSession(session.projectId, session.isolated ? { isolated: true } : undefined);
        case 'plan':
        case 'goal':
        case 'agent':
          return ws.configureSession(session, { operatingMode: name, permissionMode: '' });
        case 'mode ask':
          return ws.configureSession(session, { operatingMode: '', permissionMode: 'ask' });
        case 'mode accept-edits':
          return ws.configureSession(session, { operatingMode: '', permissionMode: 'accept-edits' });
        case 'mode auto':
          return ws.configureSession(session, { operatingMode: '', permissionMode: 'auto' });
        case 'compact':
          return bridge.requestCompaction(session.id);
        case 'model':
          setOpenModel((n) => n + 1);
          return;
        case 'mcp': {
          // No server to choose from: Settings is where one is added.
          const servers = client.getQueryData<unknown[]>(queryKeys.mcpServers(session.projectId)) ?? [];
          if (servers.length === 0 && mcp.length === 0) ws.showView('settings');
          else setOpenMCP((n) => n + 1);
          return;
        }
      }
    },
  };
  // The Review pane's records: one source for the pane and the inline rows.
  const { rollback } = review;

  const onRollback = useCallback(
    async (change: ReviewChange) => {
      const ok = await confirm({
        title: 'Roll back this change?',
        message: (
          <>
            <p>{rollbackEffect(change)}</p>
            <p className="muted">If the file changed since, nothing is touched and you are told.</p>
          </>
        ),
        confirmLabel: 'Roll back',
      });
      if (ok) await rollback(change.snapshotId);
    },
    [confirm, rollback],
  );

  return (
    <>
      <MCPCatalogProvider projectId={session.projectId}>
        <VizProvider sessionId={session.id} enabled={settings?.inlineVisualizations === true} activeTurnId={t.state.activeTurnId}>
          <ModelImagesProvider sessionId={session.id}>
            <RestoreTargets sessionId={session.id} state={t.state}>
              <TurnRetryContext.Provider value={retry}>
              <Transcript
                state={t.state}
                running={t.running}
                reviews={review.byId}
                onResolve={t.resolveApproval}
                onRollback={onRollback}
                onRetryLoad={t.reload}
                onLoadOlder={t.loadOlder}
                onLoadDelegate={t.loadDelegate}
                jumpTo={jump?.target?.sessionId === session.id ? jump.target : null}
                onJumped={onJumped}
              />
              </TurnRetryContext.Provider>
            </RestoreTargets>
          </ModelImagesProvider>
        </VizProvider>
      </MCPCatalogProvider>
      <Composer
        attachTo={session.id}
        onSend={onSend}
        onStop={t.stop}
        running={t.running}
        waiting={pendingApprovalCount(t.state) > 0}
        onOpenSettings={() => ws.showView('settings')}
        dock={<TasksContainer sessionId={session.id} />}
        decisions={
          <>
            <DelegateApprovals state={t.state} onResolve={t.resolveApproval} />
            <DecisionSurfaces sessionId={session.id} />
          </>
        }
        filesOf={session.id}
        slash={slash}
        mentionRef={mentionRef}
        autoFocus={ws.state.freshSessionId === session.id}
        toolbar={
          <>
            <ModeSelector session={session} onChange={(operatingMode) => void ws.configureSession(session, { operatingMode, permissionMode: '' })} />
            <PermissionChip
              session={session}
              defaultMode={settings?.defaultPermissionMode}
              onChange={(permissionMode) => void ws.configureSession(session, { operatingMode: '', permissionMode })}
            />
            <ModelPicker sessionId={session.id} onOpenSettings={() => ws.showView('settings')} openSignal={openModel} />
            <MCPPicker projectId={session.projectId} selection={mcp} onChange={setMcp} onOpenSettings={() => ws.showView('settings')} openSignal={openMCP} />
          </>
        }
      />
    </>
  );
}

/** The open session's global commands: Stop while a turn runs, and focusing the message box. */
function useSessionCommands(stop: (() => Promise<void>) | undefined) {
  useCommand('stop', stop && (() => void stop()));
  useCommand('focusComposer', () => document.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus());
}

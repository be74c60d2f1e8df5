import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { activityPage } from './activity';
import { subagent, subagentList } from './subagents';
import { slashCommandExpansion, slashCommandList } from './commands';
import { commandCheck, commandRule } from './rules';
import { exportResult, searchHit } from './history';
import { plugin, pluginStaged } from './plugins';
import { artifact, fileStamp, fileView, folderListing } from './files';
import { PREVIEW_EVENTS, previewEvent, previewState } from './preview';
import { attachment } from './attachments';
import { checkpointList, checkpointUsage, commandChanges, restorePlan, restoreResult } from './checkpoints';
import { EVENT, type EventName } from './eventNames.gen';
import * as norm from './normalize';
import fixture from './testdata/wire.gen.json';
import { AGENT_EVENTS, DECISION_EVENTS, EVENT_MCP_CHANGED, EVENT_PROJECTS_CHANGED, EVENT_PROVIDERS_CHANGED, EVENT_SESSIONS_CHANGED, EVENT_SETTINGS_CHANGED, EVENT_TODOS, EVENT_WORKTREE_SETUP, PERMISSION_EVENTS, TASK_EVENTS } from './types';
import * as w from './wire';

// testdata/wire.gen.json is rendered by Go (backend/api TestWireFixtureGolden) from the
// real structs, every field set to a value other than its default. Each sample parsed
// here must keep every field Go sent, with its value, unless listed below as one the
// UI does not read: a field dropped by a schema (as project() once dropped
// setupCommand) fails this test.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Go fields the UI deliberately does not read, by "<sample>.<path>". */
const UNREAD = new Set([
  'ActivityPage.rows.argsHash',
  'ReviewChange.version',
  'TranscriptPage.messages.content.signature',
  'TranscriptPage.messages.content.reasoningId',
  'agent:context.checkpointId',
  'DelegationPage.messages.content.signature',
  'DelegationPage.messages.content.reasoningId',
  // Four levels down the fixture has no value (null); CommandRule's own sample checks args.
  'CommandCheck.commands.rules.args',
  // Three levels down the fixture has no value (null); the parsers keep them as lists.
  'Plugin.summary.tools.planSafeActions',
  'Plugin.summary.mcpServers.args',
  'PluginStaged.summary.tools.planSafeActions',
  'PluginStaged.summary.mcpServers.args',
]);

/** Parses one sample the way the bridge does, and points at the part that holds its fields. */
const parsers: Record<keyof typeof fixture, (x: unknown) => unknown> = {
  ActivityPage: activityPage,
  AppInfo: norm.appInfo,
  ApprovalRequest: norm.approvalRequest,
  Attachment: attachment,
  BackgroundTask: norm.backgroundTask,
  MergePreview: norm.mergePreview,
  MergeResult: norm.mergeResult,
  Project: norm.project,
  Proposal: norm.proposal,
  ProviderList: norm.providerList,
  ProviderProfile: norm.providerProfile,
  ProviderTestResult: norm.providerTestResult,
  ProviderModelList: norm.providerModelList,
  QuestionRequest: norm.questionRequest,
  ReviewChange: norm.reviewChange,
  Session: norm.session,
  Settings: norm.settings,
  TaskOutput: norm.taskOutput,
  Todo: norm.todo,
  TranscriptPage: norm.transcriptPage,
  Delegation: norm.delegation,
  DelegationPage: norm.delegationPage,
  WorkspaceFiles: norm.workspaceFiles,
  MCPServer: norm.mcpServer,
  MCPTool: norm.mcpTool,
  MCPHeader: norm.mcpHeader,
  MCPTestResult: norm.mcpTestResult,
  Subagent: subagent,
  SubagentList: subagentList,
  SlashCommandList: slashCommandList,
  SlashCommandExpansion: slashCommandExpansion,
  CommandRule: commandRule,
  CommandCheck: commandCheck,
  SearchHit: searchHit,
  ExportResult: exportResult,
  Plugin: plugin,
  PluginStaged: pluginStaged,
  Checkpoint: (x) => checkpointList([x])[0],
  RestorePlan: restorePlan,
  RestoreResult: restoreResult,
  CommandChange: (x) => commandChanges([x])[0],
  CheckpointUsage: checkpointUsage,
  Artifact: artifact,
  FolderListing: folderListing,
  FileView: fileView,
  FileStamp: fileStamp,
  [EVENT.mcpChanged]: norm.mcpServersChanged,
  [EVENT.settingsChanged]: norm.settings,
  [EVENT.sessionsChanged]: norm.sessionsChangedEvent,
  [EVENT.agentTurn]: (x) => norm.agentEvent(EVENT.agentTurn, x),
  [EVENT.agentMessage]: (x) => norm.agentEvent(EVENT.agentMessage, x),
  [EVENT.agentText]: (x) => norm.agentEvent(EVENT.agentText, x),
  [EVENT.agentThinking]: (x) => norm.agentEvent(EVENT.agentThinking, x),
  [EVENT.agentToolCall]: (x) => norm.agentEvent(EVENT.agentToolCall, x),
  [EVENT.agentToolResult]: (x) => norm.agentEvent(EVENT.agentToolResult, x),
  [EVENT.agentContext]: (x) => norm.agentEvent(EVENT.agentContext, x),
  [EVENT.agentDelegation]: (x) => norm.agentEvent(EVENT.agentDelegation, x),
  [EVENT.agentTodos]: norm.todosEvent,
  [EVENT.agentQuestion]: (x) => (norm.decisionEvent(EVENT.agentQuestion, x) as { question: unknown } | null)?.question,
  [EVENT.agentProposal]: (x) => (norm.decisionEvent(EVENT.agentProposal, x) as { proposal: unknown } | null)?.proposal,
  [EVENT.permissionRequest]: (x) => (norm.permissionEvent(EVENT.permissionRequest, x) as { request: unknown } | null)?.request,
  [EVENT.permissionResolved]: (x) => norm.permissionEvent(EVENT.permissionResolved, x),
  [EVENT.taskStarted]: (x) => (norm.taskEvent(EVENT.taskStarted, x) as { task: unknown } | null)?.task,
  [EVENT.taskExited]: (x) => (norm.taskEvent(EVENT.taskExited, x) as { task: unknown } | null)?.task,
  [EVENT.taskOutput]: (x) => norm.taskEvent(EVENT.taskOutput, x),
  [EVENT.worktreeSetup]: norm.worktreeSetupEvent,
  PreviewState: previewState,
  [EVENT.previewOpened]: (x) => (previewEvent(EVENT.previewOpened, x) as { state: unknown } | null)?.state,
  [EVENT.previewReload]: (x) => (previewEvent(EVENT.previewReload, x) as { state: unknown } | null)?.state,
  [EVENT.previewClosed]: (x) => previewEvent(EVENT.previewClosed, x),
};

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Paths of Go fields missing from (or changed in) what the bridge parsed. */
function lost(sent: Json, got: unknown, path: string, at: string, out: string[]): string[] {
  if (UNREAD.has(at)) return out;
  if (Array.isArray(sent)) {
    if (!Array.isArray(got) || got.length !== sent.length) out.push(path);
    else sent.forEach((s, i) => lost(s, got[i], `${path}[${i}]`, at, out));
  } else if (sent !== null && typeof sent === 'object') {
    if (!isObject(got)) return [...out, path];
    // A tool's own result fields land in `fields` (ToolResult).
    const fields = isObject(got.fields) ? got.fields : {};
    for (const [k, s] of Object.entries(sent)) {
      const g = k in got ? got[k] : fields[k];
      if (!(k in got) && !(k in fields)) {
        if (!UNREAD.has(`${at}.${k}`)) out.push(`${path}.${k}`);
      } else lost(s, g, `${path}.${k}`, `${at}.${k}`, out);
    }
  } else if (typeof sent === 'string' && typeof got === 'number') {
    // A Go time.Time arrives as RFC 3339 and is kept as Unix ms.
    if (Date.parse(sent) !== got) out.push(path);
  } else if (sent !== got) out.push(path);
  return out;
}

describe('the wire fixture rendered by Go', () => {
  it.each(Object.keys(fixture) as Array<keyof typeof fixture>)('%s keeps every field Go sends', (name) => {
    const parse = parsers[name];
    expect(parse, `no parser for ${name}: add it here and a schema in wire.ts`).toBeDefined();
    expect(lost(fixture[name] as Json, parse(fixture[name]), name, name, [])).toEqual([]);
  });

  it('has a sample of every shape parsed here', () => {
    expect(Object.keys(parsers).sort()).toEqual(Object.keys(fixture).sort());
  });

  it('lists as unread only fields Go sends', () => {
    const sends = (path: string) => {
      const [sample, ...keys] = path.split('.');
      let at: unknown = fixture[sample as keyof typeof fixture];
      for (const k of keys) at = isObject(at) ? at[k] : Array.isArray(at) && isObject(at[0]) ? at[0][k] : undefined;
      return at !== undefined;
    };
    expect([...UNREAD].filter((p) => !sends(p))).toEqual([]);
  });

  it('catches a dropped field', () => {
    const dropping = v.pipe(
      w.Project,
      v.transform((p) => {
        const rest: Record<string, unknown> = { ...p };
        delete rest.setupCommand;
        return rest;
      }),
    );
    expect(lost(fixture.Project as Json, v.parse(dropping, fixture.Project), 'Project', 'Project', [])).toEqual(['Project.setupCommand']);
  });
});

describe('event names', () => {
  // Events Go emits that the UI does not subscribe to by name (the dev
  // envelope is unwrapped by events.ts before any subscriber sees it).
  const unsubscribed: EventName[] = [EVENT.agentMode, EVENT.devEvent];

  it('subscribes to or deliberately skips every event Go emits', () => {
    const subscribed = [
      ...AGENT_EVENTS, ...PERMISSION_EVENTS, ...TASK_EVENTS, ...DECISION_EVENTS, EVENT_TODOS, EVENT_WORKTREE_SETUP,
      EVENT_PROJECTS_CHANGED, EVENT_SESSIONS_CHANGED, EVENT_SETTINGS_CHANGED, EVENT_PROVIDERS_CHANGED, EVENT_MCP_CHANGED,
      ...PREVIEW_EVENTS, EVENT.appOpen,
    ];
    expect([...subscribed, ...unsubscribed].sort()).toEqual(Object.values(EVENT).sort());
  });

  it('parses each family event with its own schema', () => {
    expect(Object.keys(w.agentEvents).sort()).toEqual([...AGENT_EVENTS].sort());
    expect(Object.keys(w.permissionEvents).sort()).toEqual([...PERMISSION_EVENTS].sort());
    expect(Object.keys(w.taskEvents).sort()).toEqual([...TASK_EVENTS].sort());
    expect(Object.keys(w.decisionEvents).sort()).toEqual([...DECISION_EVENTS].sort());
  });
});

describe('robustness', () => {
  it.each(Object.keys(parsers) as Array<keyof typeof fixture>)('%s never throws on null, junk or a nil slice', (name) => {
    for (const junk of [null, undefined, 42, 'text', [], { rows: null, messages: null, todos: null, hunks: 7 }]) {
      expect(() => parsers[name](junk)).not.toThrow();
    }
  });
});

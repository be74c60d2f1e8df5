// Parsers from the Go JSON (as Wails delivers it) to the shapes in types.ts, one per
// schema in wire.ts. They never throw: a missing or malformed field takes its default.
// No wailsjs import here, so the fake bridge in tests reuses them and emits exactly what
// the real bridge would.
import * as v from 'valibot';
import * as w from './wire';
import type {
  AgentEvent,
  AppInfo,
  ApprovalRequest,
  AskAnswer,
  BackgroundTask,
  DecisionEvent,
  Delegation,
  DelegationPage,
  MCPHeader,
  MCPServer,
  MCPServersChanged,
  MCPTestResult,
  MCPTool,
  MergePreview,
  MergeResult,
  PermissionEvent,
  Project,
  Proposal,
  ProviderList,
  ProviderProfile,
  ProviderTestResult,
  ProviderModelList,
  QuestionRequest,
  ReviewChange,
  ReviewHunk,
  Session,
  SessionsChangedEvent,
  Settings,
  TaskEvent,
  TaskOutput,
  Todo,
  TodosEvent,
  ToolResult,
  Transcript,
  TranscriptPage,
  WorkspaceFiles,
  WorktreeSetupEvent,
  SessionCost,
  DaySpend,
} from './types';

export { parseRaw, toMillis } from './wire';

/** A parser that never fails: every field of every schema has a default. */
function parser<S extends v.GenericSchema>(schema: S): (x: unknown) => v.InferOutput<S> {
  return (x) => v.parse(schema, x);
}

export const project: (x: unknown) => Project = parser(w.Project);
export const session: (x: unknown) => Session = parser(w.Session);
export const settings: (x: unknown) => Settings = parser(w.Settings);
export const appInfo: (x: unknown) => AppInfo = parser(w.AppInfo);
export const sessionsChangedEvent: (x: unknown) => SessionsChangedEvent = parser(w.SessionsChangedEvent);
export const providerProfile: (x: unknown) => ProviderProfile = parser(w.ProviderProfile);
export const providerList: (x: unknown) => ProviderList = parser(w.ProviderList);
export const providerTestResult: (x: unknown) => ProviderTestResult = parser(w.ProviderTestResult);
export const providerModelList: (x: unknown) => ProviderModelList = parser(w.ProviderModelList);
export const hunk: (x: unknown) => ReviewHunk = parser(w.ReviewHunk);
export const reviewChange: (x: unknown) => ReviewChange = parser(w.ReviewChange);
export const toolResult: (x: unknown) => ToolResult = parser(w.ToolResult);
export const transcript: (x: unknown) => Transcript = parser(w.Transcript);
export const transcriptPage: (x: unknown) => TranscriptPage = parser(w.TranscriptPage);
export const delegation: (x: unknown) => Delegation = parser(w.Delegation);
export const delegationPage: (x: unknown) => DelegationPage = parser(w.DelegationPage);
export const approvalRequest: (x: unknown) => ApprovalRequest = parser(w.ApprovalRequest);
export const backgroundTask: (x: unknown) => BackgroundTask = parser(w.BackgroundTask);
export const taskOutput: (x: unknown) => TaskOutput = parser(w.TaskOutput);
export const todo: (x: unknown) => Todo = parser(w.Todo);
export const mergePreview: (x: unknown) => MergePreview = parser(w.MergePreview);
export const mergeResult: (x: unknown) => MergeResult = parser(w.MergeResult);
export const askAnswer: (x: unknown) => AskAnswer = parser(w.AskAnswer);
export const questionRequest: (x: unknown) => QuestionRequest = parser(w.QuestionRequest);
export const proposal: (x: unknown) => Proposal = parser(w.Proposal);
export const workspaceFiles: (x: unknown) => WorkspaceFiles = parser(w.WorkspaceFiles);
export const mcpHeader: (x: unknown) => MCPHeader = parser(w.MCPHeader);
export const mcpTool: (x: unknown) => MCPTool = parser(w.MCPTool);
export const mcpServer: (x: unknown) => MCPServer = parser(w.MCPServer);
export const mcpTestResult: (x: unknown) => MCPTestResult = parser(w.MCPTestResult);
export const mcpServersChanged: (x: unknown) => MCPServersChanged = parser(w.MCPServersChanged);

/** agent:todos; null without a session id. */
export function todosEvent(payload: unknown): TodosEvent | null {
  const e = v.parse(w.TodosEvent, payload);
  return e.sessionId === '' ? null : e;
}

/** worktree:setup; null without a session id. */
export function worktreeSetupEvent(payload: unknown): WorktreeSetupEvent | null {
  const e = v.parse(w.WorktreeSetupEvent, payload);
  return e.sessionId === '' ? null : e;
}

/** Parses a payload by the family's schema for its event name; null for a name the family lacks. */
function eventParser<F extends Record<string, v.GenericSchema>>(family: F) {
  return (name: string, payload: unknown): w.EventOf<F> | null =>
    Object.hasOwn(family, name) ? (v.parse(family[name], payload) as w.EventOf<F>) : null;
}

/** Normalizes one agent:* or tool:output payload; null for an unknown event name. */
export const agentEvent: (name: string, payload: unknown) => AgentEvent | null = eventParser(w.agentEvents);
export const permissionEvent: (name: string, payload: unknown) => PermissionEvent | null = eventParser(w.permissionEvents);
export const taskEvent: (name: string, payload: unknown) => TaskEvent | null = eventParser(w.taskEvents);

const decision = eventParser(w.decisionEvents);

/** Normalizes agent:question or agent:proposal; null for another name or a payload without an id. */
export function decisionEvent(name: string, payload: unknown): DecisionEvent | null {
  const e = decision(name, payload);
  if (e === null) return null;
  const id = e.type === 'question' ? e.question.questionId : e.proposal.proposalId;
  return id === '' ? null : e;
}

export const sessionCost: (x: unknown) => SessionCost = parser(w.SessionCost);
export const spendPerDay: (x: unknown) => DaySpend[] = parser(w.SpendPerDay);

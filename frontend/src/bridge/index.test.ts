// The bridge's own test mocks the generated Wails modules (everything else mocks the bridge).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as runtime from '../../wailsjs/runtime/runtime';
import * as bridge from '.';
import { BridgeError } from './errors';

// One set of mocks stands for every generated service module (the bridge calls each
// method on its own service; the names do not collide).
const App = vi.hoisted(() => ({
  Info: vi.fn(),
  ListProjects: vi.fn(),
  ListSessions: vi.fn(),
  UpdateSettings: vi.fn(),
  ChooseFolder: vi.fn(),
  SendPrompt: vi.fn(),
  TranscriptPage: vi.fn(),
  PendingApprovals: vi.fn(),
  RollbackChange: vi.fn(),
  ProjectIsGit: vi.fn(),
  MergePreview: vi.fn(),
  Merge: vi.fn(),
  Todos: vi.fn(),
  PendingQuestions: vi.fn(),
  AnswerQuestion: vi.fn(),
  Proposals: vi.fn(),
  ResolveProposal: vi.fn(),
  ListProviders: vi.fn(),
  ListProviderModels: vi.fn(),
  SaveProvider: vi.fn(),
  TestProvider: vi.fn(),
  GetSessionProvider: vi.fn(),
  SetSessionProvider: vi.fn(),
  WorkspaceFiles: vi.fn(),
  SendPromptWith: vi.fn(),
  ListServers: vi.fn(),
  SaveServer: vi.fn(),
  TestServer: vi.fn(),
  ListSubagents: vi.fn(),
  SaveSubagent: vi.fn(),
  DeleteSubagent: vi.fn(),
}));
vi.mock('../../wailsjs/go/desktop/Shell', () => App);
vi.mock('../../wailsjs/go/desktop/Projects', () => App);
vi.mock('../../wailsjs/go/desktop/Sessions', () => App);
vi.mock('../../wailsjs/go/desktop/Agent', () => App);
vi.mock('../../wailsjs/go/desktop/Review', () => App);
vi.mock('../../wailsjs/go/desktop/Tasks', () => App);
vi.mock('../../wailsjs/go/desktop/Files', () => App);
vi.mock('../../wailsjs/go/desktop/Settings', () => App);
vi.mock('../../wailsjs/go/desktop/Providers', () => App);
vi.mock('../../wailsjs/go/desktop/MCP', () => App);
vi.mock('../../wailsjs/go/desktop/Subagents', () => App);
vi.mock('../../wailsjs/runtime/runtime', () => ({ EventsOn: vi.fn(), BrowserOpenURL: vi.fn() }));

beforeEach(() => {
  vi.mocked(App.Info).mockReset();
  vi.mocked(App.ListSessions).mockReset();
  vi.mocked(runtime.EventsOn).mockReset();
  vi.mocked(App.SendPrompt).mockReset();
});

describe('bridge calls', () => {
  it('sendPromptWith passes the MCP selection as PromptOptions', async () => {
    vi.mocked(App.SendPromptWith).mockResolvedValue(undefined);
    await bridge.sendPromptWith('s1', 'hi', { mcp: [{ serverId: 'everything', tools: ['echo'] }, { serverId: 'fs', tools: [] }] });
    expect(App.SendPromptWith).toHaveBeenCalledWith('s1', 'hi', { mcp: [{ serverId: 'everything', tools: ['echo'] }, { serverId: 'fs', tools: [] }] });
  });

  it('MCP calls parse what Go sends and reject MCP_SERVER_UNAVAILABLE as a BridgeError', async () => {
    vi.mocked(App.ListServers).mockResolvedValueOnce(null).mockResolvedValueOnce([{ id: 'x', state: 'bogus', args: null, tools: null }]);
    expect(await bridge.listMCPServers('')).toEqual([]);
    const [x] = await bridge.listMCPServers('p1');
    expect(x).toMatchObject({ id: 'x', state: 'failed', args: [], tools: [], env: [], headers: [] });
    expect(App.ListServers).toHaveBeenLastCalledWith('p1');

    vi.mocked(App.TestServer).mockRejectedValue({ code: 'MCP_SERVER_UNAVAILABLE', message: 'MCP servers are not available in this build yet' });
    const input = { id: 'x', transport: 'stdio' as const, command: 'npx', args: [], env: [], cwd: '', url: '', headers: [], enabled: true, connectTimeoutMs: 0, callTimeoutMs: 0 };
    const err = await bridge.testMCPServer(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect(err).toMatchObject({ code: 'MCP_SERVER_UNAVAILABLE' });
  });

  it('subagent calls pass the project and the form, parse what Go sends and reject SUBAGENT_INVALID as a BridgeError', async () => {
    vi.mocked(App.ListSubagents).mockResolvedValueOnce({
      subagents: [{ name: 'x', source: 'nowhere', state: 'bogus', tools: null, warnings: null }, null],
      userDir: '/d/subagents', limit: 16, workingTools: null,
    });
    const list = await bridge.listSubagents('p1');
    expect(App.ListSubagents).toHaveBeenCalledWith('p1');
    // An unknown state reads as unusable, never as in effect.
    expect(list.subagents[0]).toMatchObject({ name: 'x', source: 'project', state: 'error', tools: [], warnings: [], inherit: false });
    expect(list).toMatchObject({ userDir: '/d/subagents', projectRoot: '', limit: 16, workingTools: [] });

    const input = {
      replaces: 'old', name: 'new', description: 'd', tools: ['inherit', 'Bash'], model: 'p1', permission: 'auto' as const, maxTurns: 0, prompt: 'p',
    };
    vi.mocked(App.SaveSubagent).mockResolvedValueOnce({ name: 'new', source: 'user', state: 'effective', editable: true });
    await expect(bridge.saveSubagent(input)).resolves.toMatchObject({ name: 'new', source: 'user', state: 'effective', editable: true });
    expect(App.SaveSubagent).toHaveBeenCalledWith(input);
    vi.mocked(App.SaveSubagent).mockRejectedValueOnce({ code: 'SUBAGENT_INVALID', message: 'no prompt', details: { field: 'prompt' } });
    const err = await bridge.saveSubagent(input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect(err).toMatchObject({ code: 'SUBAGENT_INVALID', message: 'no prompt' });

    vi.mocked(App.DeleteSubagent).mockResolvedValueOnce(undefined);
    await bridge.deleteSubagent('new');
    expect(App.DeleteSubagent).toHaveBeenCalledWith('new');
  });

  it('rejects with a BridgeError carrying the Go payload', async () => {
    vi.mocked(App.Info).mockRejectedValue({ code: 'SCHEMA_TOO_NEW', message: 'the database was written by a newer version', details: { schema: 9 } });
    const err = await bridge.info().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BridgeError);
    expect(err).toMatchObject({ code: 'SCHEMA_TOO_NEW', details: { schema: 9 } });
  });

  it('workspaceFiles passes the session, query and limit, and tolerates a null list', async () => {
    vi.mocked(App.WorkspaceFiles).mockResolvedValueOnce({ files: ['src/login.ts'], truncated: true } as never);
    await expect(bridge.workspaceFiles('s1', 'log', 20)).resolves.toEqual({ files: ['src/login.ts'], truncated: true, indexing: false });
    expect(App.WorkspaceFiles).toHaveBeenCalledWith('s1', 'log', 20);
    vi.mocked(App.WorkspaceFiles).mockResolvedValueOnce({ files: null, truncated: false } as never);
    await expect(bridge.workspaceFiles('s1', '')).resolves.toEqual({ files: [], truncated: false, indexing: false });
    expect(App.WorkspaceFiles).toHaveBeenLastCalledWith('s1', '', 0);
    vi.mocked(App.WorkspaceFiles).mockRejectedValueOnce({ code: 'WORKTREE_MISSING', message: 'the worktree is missing' });
    await expect(bridge.workspaceFiles('s1', 'x')).rejects.toMatchObject({ code: 'WORKTREE_MISSING' });
  });

  it('rejects a plain string as INTERNAL', async () => {
    vi.mocked(App.ListSessions).mockRejectedValue('boom');
    await expect(bridge.listSessions('', false)).rejects.toMatchObject({ code: 'INTERNAL', message: 'boom' });
  });

  it('returns plain objects and tolerates a null list', async () => {
    vi.mocked(App.ListSessions).mockResolvedValue(null as never);
    await expect(bridge.listSessions('p1', true)).resolves.toEqual([]);
    expect(App.ListSessions).toHaveBeenCalledWith('p1', true);
  });

  it('subscribes to the sessions:changed event and normalizes its payload', () => {
    const off = vi.fn();
    let handler: ((...data: unknown[]) => void) | undefined;
    vi.mocked(runtime.EventsOn).mockImplementation((_name, cb) => {
      handler = cb;
      return off;
    });
    const cb = vi.fn();
    const unsubscribe = bridge.onSessionsChanged(cb);
    expect(runtime.EventsOn).toHaveBeenCalledWith('sessions:changed', expect.any(Function));
    handler?.({ sessionId: 's1' });
    expect(cb).toHaveBeenCalledWith({ sessionId: 's1', projectId: '' });
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });
});

describe('agent bridge', () => {
  it('rejects SendPrompt with the Go code (MODEL_NOT_CONFIGURED)', async () => {
    vi.mocked(App.SendPrompt).mockRejectedValue({ code: 'MODEL_NOT_CONFIGURED', message: 'no model', details: {} });
    await expect(bridge.sendPrompt('s1', 'hi')).rejects.toMatchObject({ code: 'MODEL_NOT_CONFIGURED' });
    expect(App.SendPrompt).toHaveBeenCalledWith('s1', 'hi');
  });

  it('parses raw JSON args and results of a stored transcript, whatever form they arrive in', async () => {
    const bytes = Array.from(new TextEncoder().encode('{"path":"a.ts"}'));
    vi.mocked(App.TranscriptPage).mockResolvedValue({
      sessionId: 's1',
      more: false,
      turns: null,
      messages: [
        { seq: 2, id: 'm2', turnId: 't', role: 'assistant', kind: 'model', content: null, stopReason: 'end_turn',
          toolCalls: [{ id: 'c1', tool: 'Read', args: bytes, state: 'done', result: '{"ok":true,"path":"a.ts","tag":"abc"}' }] },
        { seq: 1, id: 'p1', turnId: 't', role: 'user', kind: 'prompt', content: [{ type: 'text', text: 'go' }], stopReason: 'end_turn' },
      ],
    } as never);
    const t = await bridge.transcriptPage('s1', { limit: 300 });
    expect(t.turns).toEqual([]);
    expect(t.messages.map((m) => m.id)).toEqual(['p1', 'm2']);
    const c = t.messages[1]!.toolCalls[0]!;
    expect(c.args).toEqual({ path: 'a.ts' });
    expect(c.result).toMatchObject({ ok: true, path: 'a.ts', fields: { tag: 'abc' }, review: [] });
  });

  it('asks for a transcript page with its cursor and limit and says whether older turns exist', async () => {
    vi.mocked(App.TranscriptPage).mockResolvedValue({ sessionId: 's1', turns: [], messages: [], more: true } as never);
    const p = await bridge.transcriptPage('s1', { before: 't9', limit: 300 });
    expect(App.TranscriptPage).toHaveBeenCalledWith('s1', 't9', '', 300);
    expect(p).toEqual({ sessionId: 's1', turns: [], messages: [], more: true });
    await bridge.transcriptPage('s1', { since: 't2', limit: 300 });
    expect(App.TranscriptPage).toHaveBeenLastCalledWith('s1', '', 't2', 300);
  });

  it('subscribes to every agent event and normalizes payloads; one unsubscribe removes all', () => {
    const handlers = new Map<string, (...data: unknown[]) => void>();
    const off = vi.fn();
    vi.mocked(runtime.EventsOn).mockImplementation((name, cb) => {
      handlers.set(name, cb);
      return off;
    });
    const cb = vi.fn();
    const unsubscribe = bridge.onAgentEvent(cb);
    expect([...handlers.keys()]).toEqual(['agent:turn', 'agent:message', 'agent:text', 'agent:thinking', 'agent:tool_call', 'agent:tool_result', 'agent:context', 'agent:delegation', 'tool:output']);
    handlers.get('agent:tool_result')?.({
      sessionId: 's1', turnId: 't1', messageId: 'm1', toolCallId: 'c1', toolUseId: 'u1', tool: 'Bash', state: 'failed',
      result: { ok: false, code: 'TOOL_FAILED', exitCode: 2, stdout: 'x', stderr: 'y', isError: true }, modelText: 'm', isError: true,
    });
    expect(cb).toHaveBeenCalledWith(expect.objectContaining({
      type: 'tool_result', sessionId: 's1', state: 'failed',
      result: expect.objectContaining({ ok: false, code: 'TOOL_FAILED', exitCode: 2, stdout: 'x', stderr: 'y', fields: { isError: true } }),
    }));
    handlers.get('tool:output')?.({ sessionId: 's1', toolCallId: 'c1', stream: 'stderr', seq: 3, text: 'warn' });
    expect(cb).toHaveBeenLastCalledWith({ type: 'tool_output', sessionId: 's1', toolCallId: 'c1', stream: 'stderr', seq: 3, text: 'warn', paused: false });
    // An MCP call's progress keeps its own stream; a stream the UI does not know is stdout.
    handlers.get('tool:output')?.({ sessionId: 's1', toolCallId: 'c1', stream: 'progress', seq: 0, text: 'progress 1/2\n' });
    expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'tool_output', stream: 'progress', text: 'progress 1/2\n' }));
    handlers.get('tool:output')?.({ sessionId: 's1', toolCallId: 'c1', stream: 'video', seq: 1, text: 'x' });
    expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'tool_output', stream: 'stdout' }));
    // The origin of an MCP call (Go omits an empty title); other tools have none.
    const toolCall = { sessionId: 's1', turnId: 't1', messageId: 'm1', toolCallId: 'c2', toolUseId: 'u2', phase: 'running' };
    handlers.get('agent:tool_call')?.({ ...toolCall, tool: 'mcp_everything_echo', mcp: { server: 'everything', tool: 'echo' } });
    expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'tool_call', mcp: { server: 'everything', tool: 'echo', title: '' } }));
    handlers.get('agent:tool_call')?.({ ...toolCall, tool: 'Read' });
    expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'tool_call', tool: 'Read', mcp: null }));
    unsubscribe();
    expect(off).toHaveBeenCalledTimes(9);
  });

  it('normalizes permission events and maps an unknown outcome to cancelled', () => {
    const handlers = new Map<string, (...data: unknown[]) => void>();
    vi.mocked(runtime.EventsOn).mockImplementation((name, cb) => {
      handlers.set(name, cb);
      return () => {};
    });
    const cb = vi.fn();
    bridge.onPermissionEvent(cb);
    handlers.get('permission:request')?.({ id: 'r1', sessionId: 's1', tool: 'Write', risk: 'medium', external: true });
    expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'permission_request', sessionId: 's1', request: expect.objectContaining({ id: 'r1', external: true, delegate: '' }) }));
    handlers.get('permission:resolved')?.({ id: 'r1', sessionId: 's1', outcome: 'weird' });
    expect(cb).toHaveBeenLastCalledWith({ type: 'permission_resolved', sessionId: 's1', id: 'r1', outcome: 'cancelled', rule: '' });
  });
});

describe('worktree calls', () => {
  it('normalizes a merge preview with missing lists and optional fields', async () => {
    vi.mocked(App.MergePreview).mockResolvedValue({
      token: 't', projectBranch: 'main', branch: 'pi-desktop/s1', upToDate: false, fastForward: true,
      commits: [{ hash: 'abc', subject: 'Add x', time: '2026-06-15T10:00:00Z' }], files: null, diff: 'd',
    } as never);
    const pv = await bridge.mergePreview('s1');
    expect(App.MergePreview).toHaveBeenCalledWith('s1');
    expect(pv).toMatchObject({ token: 't', branch: 'pi-desktop/s1', files: [], conflicts: [], uncommitted: [], moreCommits: 0, diffTruncated: false });
    expect(pv.commits).toEqual([{ hash: 'abc', author: '', time: Date.parse('2026-06-15T10:00:00Z'), subject: 'Add x' }]);
  });

  it('passes the token to Merge and rejects a conflict as a BridgeError with its files', async () => {
    vi.mocked(App.Merge).mockRejectedValueOnce({ code: 'WORKTREE_CONFLICT', message: 'conflicts', details: { files: ['a.txt'] } });
    await expect(bridge.merge('s1', 'tok')).rejects.toMatchObject({ code: 'WORKTREE_CONFLICT', details: { files: ['a.txt'] } });
    expect(App.Merge).toHaveBeenCalledWith('s1', 'tok');
    vi.mocked(App.ProjectIsGit).mockResolvedValueOnce(true);
    await expect(bridge.projectIsGit('p1')).resolves.toBe(true);
  });

  it('subscribes to worktree:setup and drops payloads without a session', () => {
    let handler: ((...data: unknown[]) => void) | undefined;
    vi.mocked(runtime.EventsOn).mockImplementation((_name, cb) => {
      handler = cb;
      return () => {};
    });
    const cb = vi.fn();
    bridge.onWorktreeSetup(cb);
    expect(runtime.EventsOn).toHaveBeenCalledWith('worktree:setup', expect.any(Function));
    handler?.({ state: 'failed' });
    expect(cb).not.toHaveBeenCalled();
    handler?.({ sessionId: 's1', state: 'failed', command: 'npm ci', exitCode: 1 });
    expect(cb).toHaveBeenCalledWith({ sessionId: 's1', state: 'failed', command: 'npm ci', exitCode: 1, output: '', message: '' });
  });
});

describe('todos', () => {
  it('todos() normalizes the checklist and tolerates null', async () => {
    vi.mocked(App.Todos).mockResolvedValueOnce([{ content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' }, { content: 'Ship', status: 'odd' }] as never);
    await expect(bridge.todos('s1')).resolves.toEqual([
      { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
      { content: 'Ship', status: 'pending', activeForm: '' },
    ]);
    expect(App.Todos).toHaveBeenCalledWith('s1');
    vi.mocked(App.Todos).mockResolvedValueOnce(null as never);
    await expect(bridge.todos('s1')).resolves.toEqual([]);
    vi.mocked(App.Todos).mockRejectedValueOnce({ code: 'INTERNAL', message: 'db closed' });
    await expect(bridge.todos('s1')).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('onTodos subscribes to agent:todos and drops payloads without a session', () => {
    let handler: ((...data: unknown[]) => void) | undefined;
    const off = vi.fn();
    vi.mocked(runtime.EventsOn).mockImplementation((_name, cb) => {
      handler = cb;
      return off;
    });
    const cb = vi.fn();
    const unsubscribe = bridge.onTodos(cb);
    expect(runtime.EventsOn).toHaveBeenCalledWith('agent:todos', expect.any(Function));
    handler?.({ todos: [] });
    expect(cb).not.toHaveBeenCalled();
    handler?.({ sessionId: 's1', turnId: 't1', todos: [{ content: 'a', status: 'completed' }] });
    expect(cb).toHaveBeenCalledWith({ sessionId: 's1', turnId: 't1', todos: [{ content: 'a', status: 'completed', activeForm: '' }] });
    unsubscribe();
    expect(off).toHaveBeenCalled();
  });
});

describe('decision calls', () => {
  it('lists pending questions (null as none) and passes answers in question order', async () => {
    vi.mocked(App.PendingQuestions).mockResolvedValueOnce(null as never);
    await expect(bridge.pendingQuestions('s1')).resolves.toEqual([]);
    vi.mocked(App.AnswerQuestion).mockResolvedValueOnce(undefined);
    await bridge.answerQuestion('s1', 'q1', [{ selected: ['SQLite'], text: '' }, { selected: [], text: 'later' }]);
    expect(App.AnswerQuestion).toHaveBeenCalledWith('s1', 'q1', [{ selected: ['SQLite'], text: '' }, { selected: [], text: 'later' }]);
    vi.mocked(App.AnswerQuestion).mockRejectedValueOnce({ code: 'NOT_FOUND', message: 'no longer waiting' });
    await expect(bridge.answerQuestion('s1', 'q1', [])).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('resolves a proposal with the decision as given and rejects stale decisions with their code', async () => {
    const decision = { sessionId: 's1', turnId: 't1', proposalId: 'p1', version: 1, approve: true, permissionMode: 'accept-edits' as const };
    vi.mocked(App.ResolveProposal).mockResolvedValueOnce({ proposalId: 'p1', sessionId: 's1', kind: 'plan', state: 'approved', permissionMode: 'accept-edits' } as never);
    await expect(bridge.resolveProposal(decision)).resolves.toMatchObject({ proposalId: 'p1', state: 'approved', permissionMode: 'accept-edits' });
    expect(App.ResolveProposal).toHaveBeenCalledWith(decision);
    vi.mocked(App.ResolveProposal).mockRejectedValueOnce({ code: 'PLAN_APPROVAL_STALE', message: 'out of date', details: { proposalId: 'p1' } });
    await expect(bridge.resolveProposal(decision)).rejects.toMatchObject({ code: 'PLAN_APPROVAL_STALE', details: { proposalId: 'p1' } });
    vi.mocked(App.Proposals).mockResolvedValueOnce([{ proposalId: 'p1', state: 'pending' }] as never);
    await expect(bridge.proposals('s1')).resolves.toMatchObject([{ proposalId: 'p1', state: 'pending', kind: 'plan' }]);
  });

  it('subscribes to agent:question and agent:proposal', () => {
    const handlers = new Map<string, (...data: unknown[]) => void>();
    vi.mocked(runtime.EventsOn).mockImplementation((name, cb) => {
      handlers.set(name, cb);
      return () => {};
    });
    const cb = vi.fn();
    bridge.onDecisionEvent(cb);
    expect([...handlers.keys()]).toEqual(['agent:question', 'agent:proposal']);
    handlers.get('agent:question')?.({ sessionId: 's1', questionId: 'q1', state: 'skipped', questions: [{ question: 'Q?' }] });
    expect(cb).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'question', sessionId: 's1', question: expect.objectContaining({ state: 'skipped' }) }));
  });
});

describe('providers', () => {
  const raw = {
    id: 'p1', name: 'Claude', api: 'anthropic', baseUrl: '', model: 'claude-x', contextWindow: 0, maxOutputTokens: 0,
    thinking: true, imagesByDefault: true, isDefault: true, hasKey: true, keyStorage: 'keychain', createdAt: 1, updatedAt: 2,
    openaiApi: '', effectiveContextWindow: 200_000, effectiveMaxOutput: 8_192, limitsKnown: false,
  };

  it('listProviders normalizes the list and a missing environment', async () => {
    vi.mocked(App.ListProviders).mockResolvedValueOnce({ providers: [raw], keyStorage: 'keychain' } as never);
    await expect(bridge.listProviders()).resolves.toEqual({ providers: [raw], keyStorage: 'keychain', environment: null });
    vi.mocked(App.ListProviders).mockResolvedValueOnce({ providers: null, keyStorage: '/k', environment: { api: 'openai', model: 'm', baseUrl: '', hasKey: false } } as never);
    await expect(bridge.listProviders()).resolves.toEqual({ providers: [], keyStorage: '/k', environment: { api: 'openai', model: 'm', baseUrl: '', hasKey: false } });
  });

  it('saveProvider sends only the input fields and the key separately', async () => {
    vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw, temperature: 0.2 } as never);
    const input = { id: '', name: 'Claude', api: 'anthropic' as const, baseUrl: '', model: 'claude-x', contextWindow: 0, maxOutputTokens: 0, thinking: true, isDefault: false };
    await expect(bridge.saveProvider(input, 'sk-1')).resolves.toEqual({ ...raw, temperature: 0.2 });
    const [sent, key] = vi.mocked(App.SaveProvider).mock.calls[0]!;
    expect(key).toBe('sk-1');
    expect(JSON.stringify(sent)).not.toContain('sk-1');
    expect(sent).toMatchObject({ ...input, hasKey: false, keyStorage: '' });
    expect(sent).not.toHaveProperty('temperature');
    expect(sent).not.toHaveProperty('supportsImages');
    vi.mocked(App.SaveProvider).mockRejectedValueOnce({ code: 'CONFLICT', message: 'a provider named "Claude" is already saved', details: { field: 'name' } });
    await expect(bridge.saveProvider(input, '')).rejects.toMatchObject({ code: 'CONFLICT', field: 'name' });
  });

  it('saveProvider sends an explicit image choice and leaves the default out', async () => {
    const input = { id: 'p1', name: 'Local', api: 'openai-compatible' as const, baseUrl: 'http://localhost:11434/v1', model: 'llava', contextWindow: 0, maxOutputTokens: 0, thinking: false, isDefault: false };
    for (const supportsImages of [true, false]) {
      vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw, supportsImages } as never);
      await expect(bridge.saveProvider({ ...input, supportsImages }, '')).resolves.toMatchObject({ supportsImages, imagesByDefault: true });
      expect(vi.mocked(App.SaveProvider).mock.calls.at(-1)![0]).toMatchObject({ supportsImages });
    }
    vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw } as never);
    const back = await bridge.saveProvider(input, '');
    expect(back).not.toHaveProperty('supportsImages');
    expect(vi.mocked(App.SaveProvider).mock.calls.at(-1)![0]).not.toHaveProperty('supportsImages');
  });

  it('saveProvider sends an explicit prompt cache key choice and leaves the default out', async () => {
    const input = { id: 'p1', name: 'Local', api: 'openai-compatible' as const, baseUrl: 'http://localhost:8000/v1', model: 'qwen', contextWindow: 0, maxOutputTokens: 0, thinking: false, isDefault: false };
    for (const promptCacheKey of [true, false]) {
      vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw, promptCacheKey } as never);
      await expect(bridge.saveProvider({ ...input, promptCacheKey }, '')).resolves.toMatchObject({ promptCacheKey });
      expect(vi.mocked(App.SaveProvider).mock.calls.at(-1)![0]).toMatchObject({ promptCacheKey });
    }
    vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw } as never);
    expect(await bridge.saveProvider(input, '')).not.toHaveProperty('promptCacheKey');
    expect(vi.mocked(App.SaveProvider).mock.calls.at(-1)![0]).not.toHaveProperty('promptCacheKey');
  });

  it('saveProvider sends the OpenAI API choice, "" when the input leaves it', async () => {
    const input = { id: 'p1', name: 'GPT', api: 'openai' as const, baseUrl: '', model: 'gpt-5', contextWindow: 0, maxOutputTokens: 0, thinking: false, isDefault: false };
    vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw, api: 'openai', openaiApi: 'chat' } as never);
    await expect(bridge.saveProvider({ ...input, openaiApi: 'chat' }, '')).resolves.toMatchObject({ openaiApi: 'chat' });
    expect(vi.mocked(App.SaveProvider).mock.calls.at(-1)![0]).toMatchObject({ openaiApi: 'chat' });
    vi.mocked(App.SaveProvider).mockResolvedValueOnce({ ...raw, api: 'openai' } as never);
    await bridge.saveProvider(input, '');
    expect(vi.mocked(App.SaveProvider).mock.calls.at(-1)![0]).toMatchObject({ openaiApi: '' });
  });

  it('testProvider returns the outcome as a result', async () => {
    vi.mocked(App.TestProvider).mockResolvedValueOnce({ ok: false, code: 'PROVIDER_UNAUTHORIZED', message: 'rejected', durationMs: 12 } as never);
    await expect(bridge.testProvider({ ...raw, api: 'anthropic' }, '')).resolves.toEqual({ ok: false, code: 'PROVIDER_UNAUTHORIZED', message: 'rejected', durationMs: 12, models: [], modelsCode: '', modelsMessage: '' });
  });

  it('listProviderModels returns the list, or why there is none, as a result', async () => {
    vi.mocked(App.ListProviderModels).mockResolvedValueOnce({ ok: true, message: 'The server lists 1 models.', models: [{ id: 'claude-x', displayName: 'Claude X' }] } as never);
    await expect(bridge.listProviderModels({ ...raw, api: 'anthropic' }, '')).resolves.toEqual({ ok: true, code: '', message: 'The server lists 1 models.', models: [{ id: 'claude-x', displayName: 'Claude X' }] });
    vi.mocked(App.ListProviderModels).mockResolvedValueOnce({ ok: false, code: 'MODEL_LIST_UNAVAILABLE', message: 'no list', models: null } as never);
    await expect(bridge.listProviderModels({ ...raw, api: 'openai-compatible' }, '')).resolves.toMatchObject({ ok: false, code: 'MODEL_LIST_UNAVAILABLE', models: [] });
  });

  it('a session’s provider choice', async () => {
    vi.mocked(App.GetSessionProvider).mockResolvedValueOnce('p1');
    await expect(bridge.getSessionProvider('s1')).resolves.toBe('p1');
    vi.mocked(App.SetSessionProvider).mockResolvedValueOnce(undefined as never);
    await bridge.setSessionProvider('s1', '');
    expect(App.SetSessionProvider).toHaveBeenCalledWith('s1', '');
  });

  it('onProvidersChanged subscribes to providers:changed', () => {
    const cb = vi.fn();
    let handler: ((p?: unknown) => void) | undefined;
    vi.mocked(runtime.EventsOn).mockImplementation((_name, h) => {
      handler = h as (p?: unknown) => void;
      return () => {};
    });
    bridge.onProvidersChanged(cb);
    expect(runtime.EventsOn).toHaveBeenCalledWith('providers:changed', expect.any(Function));
    handler?.();
    expect(cb).toHaveBeenCalledTimes(1);
  });
});

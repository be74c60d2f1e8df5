import { describe, expect, it } from 'vitest';
import {
  approvalRequest, backgroundTask, decisionEvent, parseRaw, project, proposal, providerList, providerProfile, questionRequest, session, settings, taskEvent,
  toMillis, todo, todosEvent, toolResult, transcript,
} from './normalize';

describe('parseRaw', () => {
  it('accepts a JSON value, a JSON string or a byte array', () => {
    expect(parseRaw({ a: 1 })).toEqual({ a: 1 });
    expect(parseRaw('{"a":1}')).toEqual({ a: 1 });
    expect(parseRaw(Array.from(new TextEncoder().encode('[1,2]')))).toEqual([1, 2]);
  });
  it('returns undecodable input as it came', () => {
    expect(parseRaw('{broken')).toBe('{broken');
    expect(parseRaw('plain')).toBe('plain');
    expect(parseRaw(null)).toBeNull();
  });
});

describe('background tasks', () => {
  it('turns Go times into Unix ms and the zero time into 0', () => {
    expect(toMillis('2025-06-15T10:00:00Z')).toBe(Date.UTC(2025, 5, 15, 10));
    expect(toMillis('0001-01-01T00:00:00Z')).toBe(0);
    const t = backgroundTask({ id: 'k1', sessionId: 's1', command: 'npm run dev', state: 'running', startedAt: '2025-06-15T10:00:00Z' });
    expect(t).toMatchObject({ id: 'k1', exitCode: null, endedAt: 0, removed: false });
  });
  it('normalizes task events', () => {
    expect(taskEvent('task:exited', { id: 'k1', sessionId: 's1', state: 'exited', exitCode: 0 })).toMatchObject({ type: 'task_exited', sessionId: 's1', task: { exitCode: 0 } });
    expect(taskEvent('task:output', { sessionId: 's1', taskId: 'k1', stdoutBytes: 10 })).toEqual({ type: 'task_output', sessionId: 's1', taskId: 'k1', stdoutBytes: 10, stderrBytes: 0 });
    expect(taskEvent('task:nope', {})).toBeNull();
  });
});

describe('todos', () => {
  it('defaults a missing activeForm and an unknown status', () => {
    expect(todo({ content: 'Build', status: 'completed' })).toEqual({ content: 'Build', status: 'completed', activeForm: '' });
    expect(todo({ content: 'Build', status: 'done?' }).status).toBe('pending');
    expect(todo(null)).toEqual({ content: '', status: 'pending', activeForm: '' });
  });
  it('normalizes agent:todos and drops a payload without a session', () => {
    expect(todosEvent({ sessionId: 's1', todos: null })).toEqual({ sessionId: 's1', turnId: '', todos: [] });
    expect(todosEvent({ todos: [] })).toBeNull();
  });
});

describe('decisions', () => {
  it('normalizes a pending question with string and object options', () => {
    const e = decisionEvent('agent:question', {
      sessionId: 's1', turnId: 't1', toolCallId: 'c1', questionId: 'q1', state: 'pending', createdAt: 5,
      questions: [
        { question: 'Which database?', options: [{ label: 'SQLite', description: 'one file' }, 'Postgres'] },
        { question: 'Anything else?' },
        { question: 'Targets?', options: [{ label: 'linux' }, { label: '' }], multiSelect: true },
      ],
    });
    expect(e).toEqual({
      type: 'question',
      sessionId: 's1',
      question: {
        sessionId: 's1', turnId: 't1', toolCallId: 'c1', questionId: 'q1', state: 'pending', answers: [], createdAt: 5,
        questions: [
          { question: 'Which database?', options: [{ label: 'SQLite', description: 'one file' }, { label: 'Postgres', description: '' }], multiSelect: false },
          { question: 'Anything else?', options: [], multiSelect: false },
          { question: 'Targets?', options: [{ label: 'linux', description: '' }], multiSelect: true },
        ],
      },
    });
  });

  it('reads answers and treats an unknown question state as settled', () => {
    const q = questionRequest({ questionId: 'q1', state: 'weird', answers: [{ selected: ['a', 3], text: 'x' }, {}] });
    expect(q.state).toBe('skipped');
    expect(q.answers).toEqual([{ selected: ['a'], text: 'x' }, { selected: [], text: '' }]);
  });

  it('normalizes a proposal and keeps only known permission modes', () => {
    const p = proposal({
      proposalId: 'p1', sessionId: 's1', turnId: 't1', toolCallId: 'c1', kind: 'goal', version: 2, title: 'Ship', question: 'OK?',
      markdown: '# Goal\n', path: '.pi/goal/ship-1.md', sha256: 'ab', size: 7, state: 'approved', permissionMode: 'auto', createdAt: 1, resolvedAt: 2,
    });
    expect(p).toEqual({
      proposalId: 'p1', sessionId: 's1', turnId: 't1', toolCallId: 'c1', kind: 'goal', version: 2, title: 'Ship', question: 'OK?',
      markdown: '# Goal\n', path: '.pi/goal/ship-1.md', sha256: 'ab', size: 7, state: 'approved', permissionMode: 'auto', feedback: '',
      createdAt: 1, resolvedAt: 2,
    });
    expect(proposal({ proposalId: 'p2', kind: 'x', state: 'nope', permissionMode: 'inherit' })).toMatchObject({ kind: 'plan', state: 'interrupted', permissionMode: '' });
  });

  it('drops unknown decision events and payloads without an id', () => {
    expect(decisionEvent('agent:proposal', { proposalId: 'p1', sessionId: 's1', state: 'pending' })).toMatchObject({ type: 'proposal', sessionId: 's1', proposal: { state: 'pending' } });
    expect(decisionEvent('agent:proposal', { sessionId: 's1' })).toBeNull();
    expect(decisionEvent('agent:question', null)).toBeNull();
    expect(decisionEvent('agent:todos', { sessionId: 's1' })).toBeNull();
  });
});

describe('approval requests', () => {
  it('keeps a Write/Edit diff and its note', () => {
    const r = approvalRequest({ id: 'r1', tool: 'Edit', diff: '@@ -1,1 +1,1 @@\n-a\n+b\n', diffNote: 'new file' });
    expect(r).toMatchObject({ id: 'r1', tool: 'Edit', diff: '@@ -1,1 +1,1 @@\n-a\n+b\n', diffNote: 'new file' });
  });
  it('defaults a missing or malformed diff to empty', () => {
    expect(approvalRequest({ id: 'r2', tool: 'Bash' })).toMatchObject({ diff: '', diffNote: '' });
    expect(approvalRequest({ id: 'r3', diff: 42, diffNote: null })).toMatchObject({ diff: '', diffNote: '' });
  });
});

describe('bound method results', () => {
  it('keeps a project\'s setup command and defaults what is missing', () => {
    expect(project({ id: 'p1', name: 'api', path: '/x/api', createdAt: 1, updatedAt: 2, setupCommand: 'npm ci' })).toEqual({
      id: 'p1', name: 'api', path: '/x/api', createdAt: 1, updatedAt: 2, setupCommand: 'npm ci',
    });
    expect(project(null)).toEqual({ id: '', name: '', path: '', createdAt: 0, updatedAt: 0, setupCommand: '' });
    expect(session({ id: 's1', isolated: 'yes' })).toMatchObject({ id: 's1', projectId: '', isolated: false, archivedAt: 0 });
  });

  it('reads nil Go slices as empty lists and unknown settings values as their defaults', () => {
    expect(settings({ defaultPermissionMode: 'auto', theme: 'neon', envPassthrough: null, envDrop: ['A', 1] })).toEqual({
      defaultPermissionMode: 'auto', defaultCommandShell: '', inlineVisualizations: false, permissionTimeoutSeconds: 0, theme: 'system',
      envPassthrough: [], envDrop: ['A', '1'],
    });
    expect(transcript({ sessionId: 's1', turns: null, messages: [{ seq: 2, content: null }, { seq: 1, toolCalls: null }] })).toMatchObject({
      turns: [], messages: [{ seq: 1, content: [], toolCalls: [] }, { seq: 2, content: [], toolCalls: [] }],
    });
  });

  it('leaves an absent temperature absent and a missing environment null', () => {
    expect('temperature' in providerProfile({ id: 'a', api: 'openai' })).toBe(false);
    expect(providerProfile({ id: 'a', api: 'gopher', temperature: 0.2 })).toMatchObject({ api: 'anthropic', temperature: 0.2 });
    expect(providerList({ providers: null })).toEqual({ providers: [], keyStorage: '', environment: null });
  });

  it('keeps a tool\'s own result fields apart from the common keys', () => {
    const r = toolResult('{"ok":true,"exitCode":1,"stdout":"hi","tag":"a1","totalLines":3}');
    expect(r).toMatchObject({ ok: true, exitCode: 1, stdout: 'hi', review: [], details: {}, fields: { tag: 'a1', totalLines: 3 } });
    expect('stderr' in r).toBe(false);
  });

  it('reads a result\'s image references and an image choice that is absent, true or junk', () => {
    const img = { sha256: 'a'.repeat(64), mediaType: 'image/png', width: 640, height: 480, bytes: 1234 };
    expect(toolResult({ ok: true, images: [img, null] })).toMatchObject({ images: [img, { sha256: '', width: 0, height: 0 }], fields: {} });
    expect(toolResult({ ok: true, images: null }).images).toEqual([]);
    expect(toolResult({ ok: true }).images).toEqual([]);
    expect('supportsImages' in providerProfile({ id: 'a', imagesByDefault: true })).toBe(false);
    expect(providerProfile({ id: 'a', supportsImages: false })).toMatchObject({ supportsImages: false, imagesByDefault: false });
    expect('supportsImages' in providerProfile({ id: 'a', supportsImages: 'yes' })).toBe(false);
  });
});

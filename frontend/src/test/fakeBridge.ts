// An in-memory stand-in for src/bridge. Component tests mock the bridge module with it:
//
//   vi.mock('../../bridge', () => import('../../test/fakeBridge').then((m) => m.bridgeModule));
//   beforeEach(() => resetFakeBridge({ projects: [...], sessions: [...] }));
//
// Every export is a vi.fn with a working implementation, so tests can both assert calls
// and see the UI react; override single calls with mockResolvedValueOnce / mockRejectedValueOnce.
import { vi, type Mock } from 'vitest';
import type * as Bridge from '../bridge';
import { BridgeError } from '../bridge/errors';
import * as norm from '../bridge/normalize';
import {
  AGENT_EVENTS,
  PERMISSION_EVENTS,
  TASK_EVENTS,
  type AppInfo,
  type ModelSettings,
  type Project,
  type ReviewChange,
  type Session,
  type SessionsChangedEvent,
  type Settings,
} from '../bridge/types';

type BridgeModule = typeof Bridge;
type Fn = (...args: never[]) => unknown;
export type FakeBridge = { [K in keyof BridgeModule]: BridgeModule[K] extends Fn ? Mock<BridgeModule[K]> : never };

export interface Seed {
  projects?: Project[];
  sessions?: Session[];
  settings?: Partial<Settings>;
  info?: Partial<AppInfo>;
  /** The stored model settings (hasKey etc. included). */
  model?: Partial<ModelSettings>;
  /** Raw Transcript JSON (as Go sends it) by session id. */
  transcripts?: Record<string, unknown>;
  /** Raw pending permission.Request JSON. */
  approvals?: Array<Record<string, unknown>>;
  reviews?: ReviewChange[];
  /** Ids of projects whose folder is a git repository. */
  gitProjects?: string[];
  /** Raw worktree.Preview JSON by session id (isolated sessions without one get mergePreviewRaw()). */
  previews?: Record<string, Record<string, unknown>>;
  /** Workspace files by session id, for @-references. */
  files?: Record<string, string[]>;
}

/** The fixed clock of every test (see test/setup.ts): midday, so relative
 * times never straddle a midnight. */
export const NOW = new Date(2026, 5, 15, 12, 0, 0).getTime();

export function project(id: string, name: string, extra: Partial<Project> = {}): Project {
  return { id, name, path: `/home/dev/${name}`, createdAt: NOW - 86_400_000, updatedAt: NOW - 86_400_000, ...extra };
}

export function session(id: string, projectId: string, title: string, updatedAt: number, extra: Partial<Session> = {}): Session {
  return {
    id,
    projectId,
    title,
    operatingMode: 'agent',
    permissionMode: 'inherit',
    isolated: false,
    createdAt: updatedAt,
    updatedAt,
    archivedAt: 0,
    ...extra,
  };
}

export const defaultInfo: AppInfo = {
  version: '0.1.0-test',
  platform: 'linux/amd64',
  dataDir: '/home/dev/.local/share/pi-desktop',
  commandShells: [
    { id: 'bash', label: 'Bash' },
    { id: 'zsh', label: 'Zsh' },
  ],
};

export const defaultModel: ModelSettings = {
  api: 'anthropic',
  baseUrl: '',
  model: '',
  contextWindow: 0,
  maxOutputTokens: 0,
  thinking: false,
  hasKey: false,
  keyStorage: '/home/dev/.config/pi-desktop/model-key',
  fromEnvironment: false,
};

export const defaultSettings: Settings = {
  defaultPermissionMode: 'ask',
  defaultCommandShell: 'bash',
  inlineVisualizations: false,
  permissionTimeoutSeconds: 0,
  theme: 'system',
};

const names = [
  'info', 'chooseFolder', 'addProject', 'removeProject', 'listProjects', 'listSessions', 'getSession',
  'createSession', 'renameSession', 'archiveSession', 'restoreSession', 'deleteSession', 'configureSession',
  'getSettings', 'updateSettings', 'onProjectsChanged', 'onSessionsChanged', 'onSettingsChanged', 'openExternalURL',
  'sendPrompt', 'stopSession', 'transcript', 'pendingApprovals', 'resolveApproval', 'reviewChanges', 'rollbackChange',
  'tasks', 'taskOutput', 'stopTask', 'removeTask', 'onAgentEvent', 'onPermissionEvent', 'onTaskEvent',
  'projectIsGit', 'mergePreview', 'merge', 'onWorktreeSetup', 'getModelSettings', 'setModelSettings',
  'workspaceFiles',
] as const satisfies ReadonlyArray<keyof BridgeModule>;

/** The mocked module: stable vi.fn objects whose implementations resetFakeBridge installs. */
export const bridgeModule = Object.fromEntries(names.map((n) => [n, vi.fn()])) as unknown as FakeBridge;

type Listener = (payload: unknown) => void;

export interface FakeBackend {
  projects: Project[];
  sessions: Session[];
  settings: Settings;
  info: AppInfo;
  model: ModelSettings;
  /** The saved API key (the UI must never see it). */
  apiKey: string;
  transcripts: Record<string, unknown>;
  approvals: Array<Record<string, unknown>>;
  reviews: ReviewChange[];
  gitProjects: string[];
  previews: Record<string, Record<string, unknown>>;
  files: Record<string, string[]>;
  /**
   * Emits a backend event to the subscribed UI, by its Wails name ("agent:text",
   * "permission:resolved", …) with the raw Go payload; the bridge's normalizers apply.
   */
  emit: (event: string, payload?: unknown) => void;
}

/** A raw review.Change as Go sends it. */
export function reviewChange(snapshotId: string, path: string, extra: Partial<ReviewChange> = {}): ReviewChange {
  return {
    snapshotId, messageId: 'm1', path, operation: 'write', status: 'modified', state: 'active', additions: 3, deletions: 1,
    hunks: [], binary: false, truncated: false, reversible: true, sessionId: 's1', toolCallId: 'c1', groupId: '', createdAt: NOW,
    ...extra,
  };
}

/** A raw worktree.Preview as Go sends it: two commits, fast-forward, token "tok-1". */
export function mergePreviewRaw(sessionId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    token: 'tok-1',
    projectBranch: 'main',
    projectHead: '1111111111111111111111111111111111111111',
    branch: `pi-desktop/${sessionId}`,
    worktreeHead: '2222222222222222222222222222222222222222',
    upToDate: false,
    fastForward: true,
    commits: [
      { hash: 'abcdef1234567890abcdef1234567890abcdef12', author: 'Pi', time: '2026-06-15T11:00:00Z', subject: 'Add login form' },
      { hash: '0123456789abcdef0123456789abcdef01234567', author: 'Pi', time: '2026-06-15T11:30:00Z', subject: 'Fix typo in README' },
    ],
    files: [
      { path: 'src/login.ts', added: 40, deleted: 2 },
      { path: 'README.md', added: 1, deleted: 1 },
    ],
    diff: 'diff --git a/README.md b/README.md\n-teh\n+the\n',
    ...extra,
  };
}

export function resetFakeBridge(seed: Seed = {}): FakeBackend {
  const db = {
    projects: [...(seed.projects ?? [])],
    sessions: [...(seed.sessions ?? [])],
    settings: { ...defaultSettings, ...seed.settings },
    info: { ...defaultInfo, ...seed.info },
    model: { ...defaultModel, ...seed.model },
    apiKey: seed.model?.hasKey ? 'sk-saved-secret' : '',
    transcripts: { ...seed.transcripts },
    approvals: [...(seed.approvals ?? [])],
    reviews: [...(seed.reviews ?? [])],
    gitProjects: [...(seed.gitProjects ?? [])],
    previews: { ...seed.previews },
    files: { ...seed.files },
  };
  let clock = NOW;
  let nextId = 1;
  const tick = () => ++clock;
  const listeners = new Map<string, Set<Listener>>();
  const on = (event: string, cb: Listener) => {
    const set = listeners.get(event) ?? new Set<Listener>();
    set.add(cb);
    listeners.set(event, set);
    return () => void set.delete(cb);
  };
  const find = (id: string): Session => {
    const s = db.sessions.find((x) => x.id === id);
    if (!s) throw new BridgeError('SESSION_NOT_FOUND', `session ${id} not found`);
    return s;
  };
  const update = (id: string, patch: Partial<Session>): Session => {
    const s = { ...find(id), ...patch };
    db.sessions = db.sessions.map((x) => (x.id === id ? s : x));
    return { ...s };
  };
  const b = bridgeModule;
  for (const n of names) b[n].mockReset();

  b.info.mockImplementation(async () => structuredClone(db.info));
  b.chooseFolder.mockImplementation(async () => '');
  b.addProject.mockImplementation(async (path) => {
    const existing = db.projects.find((p) => p.path === path);
    if (existing) return { ...existing };
    const name = path.split('/').filter(Boolean).pop() ?? path;
    const p: Project = { id: `fake-project-${nextId++}`, name, path, createdAt: tick(), updatedAt: clock };
    db.projects.push(p);
    return { ...p };
  });
  b.removeProject.mockImplementation(async (id) => {
    db.projects = db.projects.filter((p) => p.id !== id);
    db.sessions = db.sessions.filter((s) => s.projectId !== id);
  });
  b.listProjects.mockImplementation(async () => [...db.projects].sort((x, y) => x.name.localeCompare(y.name)).map((p) => ({ ...p })));
  b.listSessions.mockImplementation(async (projectId, archived) =>
    db.sessions
      .filter((s) => s.projectId === projectId && (s.archivedAt > 0) === archived)
      .sort((x, y) => y.updatedAt - x.updatedAt)
      .map((s) => ({ ...s })),
  );
  b.getSession.mockImplementation(async (id) => ({ ...find(id) }));
  b.createSession.mockImplementation(async ({ projectId, title, isolated }) => {
    if (isolated && !db.gitProjects.includes(projectId)) throw new BridgeError('WORKTREE_NOT_GIT', 'the project is not a git repository');
    const s = session(`fake-session-${nextId++}`, projectId, title || 'New session', tick(), { isolated: Boolean(isolated) });
    db.sessions.push(s);
    return { ...s };
  });
  b.renameSession.mockImplementation(async (id, title) => update(id, { title, updatedAt: tick() }));
  b.archiveSession.mockImplementation(async (id) => update(id, { archivedAt: tick() }));
  b.restoreSession.mockImplementation(async (id) => update(id, { archivedAt: 0 }));
  b.deleteSession.mockImplementation(async (id) => {
    find(id);
    db.sessions = db.sessions.filter((s) => s.id !== id);
  });
  b.configureSession.mockImplementation(async (id, c) =>
    update(id, {
      ...(c.operatingMode ? { operatingMode: c.operatingMode } : {}),
      ...(c.permissionMode ? { permissionMode: c.permissionMode } : {}),
    }),
  );
  b.getSettings.mockImplementation(async () => ({ ...db.settings }));
  b.updateSettings.mockImplementation(async (s) => {
    db.settings = { ...s };
    return { ...db.settings };
  });
  b.getModelSettings.mockImplementation(async () => ({ ...db.model }));
  b.setModelSettings.mockImplementation(async (m, apiKey) => {
    const key = apiKey !== '' ? apiKey : db.apiKey;
    const missing = [
      m.model.trim() === '' ? 'model' : '',
      key === '' ? 'key' : '',
      m.api === 'openai-compatible' && m.baseUrl.trim() === '' ? 'base URL' : '',
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new BridgeError('MODEL_NOT_CONFIGURED', `the model is not configured: missing ${missing.join(', ')}`, { missing });
    }
    db.apiKey = key;
    db.model = { ...m, hasKey: true, keyStorage: db.model.keyStorage, fromEnvironment: false };
    return { ...db.model };
  });
  b.onProjectsChanged.mockImplementation((cb) => on('projects:changed', () => cb()));
  b.onSessionsChanged.mockImplementation((cb) => on('sessions:changed', (p) => cb(p as SessionsChangedEvent)));
  b.onSettingsChanged.mockImplementation((cb) => on('settings:changed', (p) => cb(p as Settings)));
  b.openExternalURL.mockImplementation(() => {});

  const emit = (event: string, payload?: unknown) => {
    for (const cb of [...(listeners.get(event) ?? [])]) cb(payload);
  };
  const onAll = <T,>(events: readonly string[], parse: (name: string, p: unknown) => T | null, cb: (e: T) => void) => {
    const offs = events.map((name) =>
      on(name, (p) => {
        const e = parse(name, p);
        if (e) cb(e);
      }),
    );
    return () => offs.forEach((off) => off());
  };
  b.sendPrompt.mockImplementation(async (id) => void find(id));
  b.stopSession.mockImplementation(async () => 0);
  b.transcript.mockImplementation(async (id) => norm.transcript(db.transcripts[id] ?? { sessionId: id, turns: [], messages: [] }));
  b.pendingApprovals.mockImplementation(async (id) => db.approvals.filter((r) => r.sessionId === id).map(norm.approvalRequest));
  b.resolveApproval.mockImplementation(async (sessionId, id, outcome) => {
    const i = db.approvals.findIndex((r) => r.sessionId === sessionId && r.id === id);
    if (i < 0) throw new BridgeError('NOT_FOUND', `no pending approval ${id} in this session`);
    db.approvals.splice(i, 1);
    emit('permission:resolved', { id, sessionId, outcome });
  });
  b.reviewChanges.mockImplementation(async (sessionId, messageId) =>
    db.reviews.filter((c) => c.sessionId === sessionId && (messageId === '' || c.messageId === messageId)).map((c) => ({ ...c })),
  );
  b.rollbackChange.mockImplementation(async (sessionId, snapshotId) => {
    const c = db.reviews.find((x) => x.sessionId === sessionId && x.snapshotId === snapshotId);
    if (!c) throw new BridgeError('NOT_FOUND', `no review change ${snapshotId} in this session`);
    if (c.state === 'rolledBack') throw new BridgeError('CONFLICT', `the change to ${c.path} was already rolled back; nothing to do`);
    c.state = 'rolledBack';
    return [{ ...c }];
  });
  b.tasks.mockImplementation(async () => []);
  b.taskOutput.mockImplementation(async (_s, id) => {
    throw new BridgeError('NOT_FOUND', `no task ${id}`);
  });
  b.stopTask.mockImplementation(async () => {});
  b.removeTask.mockImplementation(async () => {});
  b.onAgentEvent.mockImplementation((cb) => onAll(AGENT_EVENTS, norm.agentEvent, cb));
  b.onPermissionEvent.mockImplementation((cb) => onAll(PERMISSION_EVENTS, norm.permissionEvent, cb));
  b.onTaskEvent.mockImplementation((cb) => onAll(TASK_EVENTS, norm.taskEvent, cb));
  b.projectIsGit.mockImplementation(async (id) => db.gitProjects.includes(id));
  const preview = (id: string) => {
    if (!find(id).isolated) throw new BridgeError('INVALID_ARGUMENT', 'the session is not isolated');
    return norm.mergePreview(db.previews[id] ?? mergePreviewRaw(id));
  };
  b.mergePreview.mockImplementation(async (id) => preview(id));
  b.merge.mockImplementation(async (id, token) => {
    const pv = preview(id);
    if (token !== pv.token) throw new BridgeError('WORKTREE_STALE_PREVIEW', 'the repository changed since the preview');
    return norm.mergeResult({
      projectBranch: pv.projectBranch, from: pv.projectHead, to: pv.worktreeHead,
      upToDate: pv.upToDate, synced: false, fastForwarded: !pv.upToDate, commits: pv.commits.length,
    });
  });
  b.onWorktreeSetup.mockImplementation((cb) =>
    on('worktree:setup', (p) => {
      const e = norm.worktreeSetupEvent(p);
      if (e) cb(e);
    }),
  );
  // Substring match, shortest first: close enough to the backend's ranking for UI tests.
  b.workspaceFiles.mockImplementation(async (sessionId, query, limit = 0) => {
    find(sessionId);
    const q = query.toLowerCase();
    const hits = (db.files[sessionId] ?? []).filter((f) => f.toLowerCase().includes(q)).sort((x, y) => x.length - y.length || x.localeCompare(y));
    const n = limit > 0 ? limit : 50;
    return { files: hits.slice(0, n), truncated: hits.length > n };
  });

  return {
    get projects() {
      return db.projects;
    },
    get sessions() {
      return db.sessions;
    },
    get settings() {
      return db.settings;
    },
    get info() {
      return db.info;
    },
    get model() {
      return db.model;
    },
    get apiKey() {
      return db.apiKey;
    },
    get transcripts() {
      return db.transcripts;
    },
    get approvals() {
      return db.approvals;
    },
    get reviews() {
      return db.reviews;
    },
    get gitProjects() {
      return db.gitProjects;
    },
    get previews() {
      return db.previews;
    },
    get files() {
      return db.files;
    },
    emit,
  };
}

// Plain TypeScript shapes of the Go DTOs (backend/api/api.go). JSON is camelCase and
// times are Unix milliseconds. The rest of the app depends on these, never on the
// classes generated into wailsjs/.

export type PermissionMode = 'ask' | 'accept-edits' | 'auto';
export type SessionPermissionMode = PermissionMode | 'inherit';
export type OperatingMode = 'agent' | 'plan' | 'goal';
export type ThemeSetting = 'system' | 'light' | 'dark';

export interface Project {
  id: string;
  name: string;
  /** Canonical absolute path of the folder. */
  path: string;
  createdAt: number;
  updatedAt: number;
}

export interface Session {
  id: string;
  /** "" for a temporary session (its workspace is a private scratch folder). */
  projectId: string;
  title: string;
  operatingMode: string;
  permissionMode: string;
  isolated: boolean;
  createdAt: number;
  updatedAt: number;
  /** 0 unless archived. */
  archivedAt: number;
}

export interface CreateSessionInput {
  /** "" creates a temporary session. */
  projectId: string;
  /** "" lets the backend pick a default title. */
  title: string;
  /** Work in an own git worktree of the project (git projects only). */
  isolated?: boolean;
}

/** Empty strings leave the corresponding mode unchanged. */
export interface SessionConfig {
  operatingMode: OperatingMode | '';
  permissionMode: SessionPermissionMode | '';
}

export interface Settings {
  defaultPermissionMode: PermissionMode;
  defaultCommandShell: string;
  inlineVisualizations: boolean;
  /** 0 = permission cards never time out; otherwise 1..86400. */
  permissionTimeoutSeconds: number;
  theme: ThemeSetting;
}

export interface ShellOption {
  id: string;
  label: string;
}

export interface AppInfo {
  version: string;
  platform: string;
  dataDir: string;
  commandShells: ShellOption[];
}

export interface SessionsChangedEvent {
  sessionId: string;
  projectId: string;
}

export const EVENT_PROJECTS_CHANGED = 'projects:changed';
export const EVENT_SESSIONS_CHANGED = 'sessions:changed';
export const EVENT_SETTINGS_CHANGED = 'settings:changed';

// Shapes and parsers of the plugins (backend/api/plugins.go); the schemas are in wire.ts.
// Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type PluginRisk = (typeof w.PLUGIN_RISKS)[number];
export type PluginTool = Out<typeof w.PluginTool>;
export type PluginServer = Out<typeof w.PluginServer>;
export type PluginSummary = Out<typeof w.PluginSummary>;
export type Plugin = Out<typeof w.Plugin>;
export type PluginProject = Out<typeof w.PluginProject>;
export type PluginProjectState = (typeof w.PLUGIN_PROJECT_STATES)[number];
export type PluginStaged = Out<typeof w.PluginStaged>;

export function plugin(x: unknown): Plugin {
  return v.parse(w.Plugin, x);
}

export function pluginList(x: unknown): Plugin[] {
  return v.parse(v.array(w.Plugin), x ?? []);
}

/**
 * A plugin's state in one project, and why: the project's own choice when it made one,
 * else the app-wide switch. A plugin runs only once consented to as installed.
 */
export function pluginInProject(p: Plugin, projectId: string): { on: boolean; own: boolean } {
  const own = p.projects.find((x) => x.projectId === projectId);
  return own ? { on: own.enabled, own: true } : { on: p.enabled, own: false };
}

export function pluginStaged(x: unknown): PluginStaged {
  return v.parse(w.PluginStaged, x);
}

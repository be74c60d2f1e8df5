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
export type PluginStaged = Out<typeof w.PluginStaged>;

export function plugin(x: unknown): Plugin {
  return v.parse(w.Plugin, x);
}

export function pluginList(x: unknown): Plugin[] {
  return v.parse(v.array(w.Plugin), x ?? []);
}

export function pluginStaged(x: unknown): PluginStaged {
  return v.parse(w.PluginStaged, x);
}

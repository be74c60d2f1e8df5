// Shapes and parsers of subagent definitions (backend/api/subagents.go); the schemas are
// in wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type SubagentSource = (typeof w.SUBAGENT_SOURCES)[number];
export type SubagentState = (typeof w.SUBAGENT_STATES)[number];
export type SubagentPermission = (typeof w.SUBAGENT_PERMISSIONS)[number];
export type Subagent = Out<typeof w.Subagent>;
export type SubagentList = Out<typeof w.SubagentList>;

/**
 * A definition to save as one of the app's own (api.SubagentInput). replaces names the
 * one being edited ("" = a new one). tools as a file writes them: [] = Read, Glob, Grep;
 * "*" = every working tool; "inherit" = the parent session's tools. model "" = the session's.
 */
export interface SubagentInput {
  replaces: string;
  name: string;
  description: string;
  tools: string[];
  model: string;
  permission: SubagentPermission;
  /** 0 = the default (24). */
  maxTurns: number;
  prompt: string;
}

export function subagent(x: unknown): Subagent {
  return v.parse(w.Subagent, x);
}

export function subagentList(x: unknown): SubagentList {
  return v.parse(w.SubagentList, x);
}

// Shapes and parsers of custom slash commands (backend/api/commands.go); the schemas
// are in wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type SlashCommand = Out<typeof w.SlashCommand>;
export type SlashCommandList = Out<typeof w.SlashCommandList>;
export type SlashCommandExpansion = Out<typeof w.SlashCommandExpansion>;

export function slashCommandList(x: unknown): SlashCommandList {
  return v.parse(w.SlashCommandList, x);
}

export function slashCommandExpansion(x: unknown): SlashCommandExpansion {
  return v.parse(w.SlashCommandExpansion, x);
}

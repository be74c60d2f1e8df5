// Shapes and parsers of command rules (backend/api/commandrules.go); the schemas are in
// wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type RuleDecision = (typeof w.RULE_DECISIONS)[number];
export type RuleScope = (typeof w.RULE_SCOPES)[number];
export type RuleShell = (typeof w.RULE_SHELLS)[number];
export type CommandRule = Out<typeof w.CommandRule>;
export type CheckedCommand = Out<typeof w.CheckedCommand>;
export type CheckedWrite = Out<typeof w.CheckedWrite>;
export type CommandCheck = Out<typeof w.CommandCheck>;

/**
 * A rule to add, or the new values of one to edit (api.CommandRuleInput). projectId is
 * set for project scope only, sessionId for session scope only.
 */
export interface CommandRuleInput {
  decision: RuleDecision;
  program: string;
  args: string[];
  scope: RuleScope;
  projectId: string;
  sessionId: string;
  note: string;
}

/**
 * A command to decide (api.CommandCheckInput): with the rules in effect for sessionId,
 * else projectId's, else the global ones. shell "" = the default command shell's dialect.
 */
export interface CommandCheckInput {
  sessionId: string;
  projectId: string;
  command: string;
  shell: RuleShell | '';
}

export function commandRule(x: unknown): CommandRule {
  return v.parse(w.CommandRule, x);
}

export function commandRules(x: unknown): CommandRule[] {
  return v.parse(v.fallback(v.array(w.CommandRule), () => []), x);
}

export function commandCheck(x: unknown): CommandCheck {
  return v.parse(w.CommandCheck, x);
}

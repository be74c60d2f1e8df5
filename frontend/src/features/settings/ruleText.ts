// Pure helpers of Settings → Permissions: a rule's words as typed and shown, and the
// rules grouped by the scope they apply in for the current session and project.
import type { CommandRule, RuleDecision, RuleScope } from '../../bridge/rules';

export const DECISIONS: ReadonlyArray<{ value: RuleDecision; label: string; help: string }> = [
  { value: 'allow', label: 'Allow', help: 'runs without a card when every command in the line is allowed' },
  { value: 'ask', label: 'Ask', help: 'always shows a card, even in auto mode' },
  { value: 'deny', label: 'Deny', help: 'refused in every permission mode, auto included' },
];

export const SCOPE_LABEL: Record<RuleScope, string> = { session: 'Session', project: 'Project', global: 'Global' };

/** The words of a rule as typed: split on white space, no quoting (a rule word never holds a space). */
export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** "git status": the program and its first words. */
export function ruleWords(r: Pick<CommandRule, 'program' | 'args'>): string {
  return [r.program, ...r.args].join(' ');
}

/** "allow git status (project)", as the card and the CLI say it. */
export function ruleString(r: Pick<CommandRule, 'decision' | 'program' | 'args' | 'scope'>): string {
  return `${r.decision} ${ruleWords(r)} (${r.scope})`;
}

/** Where a rule applies, for a person: "Global", "Project alpha (/work/alpha)", "Session Fix the build". */
export function ownerText(r: CommandRule): string {
  switch (r.scope) {
    case 'project':
      return r.projectName ? `Project ${r.projectName}${r.projectPath ? ` (${r.projectPath})` : ''}` : `Project ${r.projectId} (gone)`;
    case 'session':
      return `Session ${r.sessionTitle || r.sessionId}`;
    default:
      return 'Global';
  }
}

export interface RuleGroups {
  /** The current session's own rules. */
  session: CommandRule[];
  /** The current project's rules. */
  project: CommandRule[];
  global: CommandRule[];
  /** Rules of other projects and sessions: they do not apply here. */
  elsewhere: CommandRule[];
}

/** The rules by where they apply, for the session and project in view ("" = none). */
export function groupRules(rules: CommandRule[], sessionId: string, projectId: string): RuleGroups {
  const g: RuleGroups = { session: [], project: [], global: [], elsewhere: [] };
  for (const r of rules) {
    if (r.scope === 'global') g.global.push(r);
    else if (r.scope === 'session' && sessionId !== '' && r.sessionId === sessionId) g.session.push(r);
    else if (r.scope === 'project' && projectId !== '' && r.projectId === projectId) g.project.push(r);
    else g.elsewhere.push(r);
  }
  return g;
}

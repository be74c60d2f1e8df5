// Words Settings → Subagents shows for a definition's source, state, tools and scope.
import type { Subagent, SubagentPermission, SubagentSource, SubagentState } from '../../bridge/subagents';

export const SOURCE_LABEL: Record<SubagentSource, string> = { builtin: 'Builtin', user: 'Yours', project: 'Project', plugin: 'Plugin' };

export const STATE_LABEL: Record<SubagentState, string> = {
  effective: 'In effect',
  overridden: 'Replaced',
  'over-limit': 'Over the limit',
  error: 'Cannot be used',
};

export const PERMISSIONS: ReadonlyArray<{ value: SubagentPermission; label: string; help: string }> = [
  { value: 'inherit', label: 'Inherit', help: 'The session’s permission mode.' },
  { value: 'ask', label: 'Ask', help: 'A permission card before every file change or command, whatever the session’s mode.' },
  { value: 'accept-edits', label: 'Accept edits', help: 'Writes and edits workspace files without asking; still asks before commands.' },
  { value: 'auto', label: 'Auto', help: 'Edits and commands without asking. Paths outside the workspace still ask.' },
];

export const DEFAULT_MAX_TURNS = 24;
export const MAX_MAX_TURNS = 80;

/** The tools a delegate gets, in words: "Read, Glob, Grep", "the session's tools + Bash (not Edit)". */
export function toolsText(s: Pick<Subagent, 'tools' | 'inherit' | 'excludedTools'>): string {
  let text = s.tools.join(', ');
  if (s.inherit) text = text === '' ? 'the session’s tools' : `the session’s tools + ${text}`;
  if (s.excludedTools.length > 0) text += ` (not ${s.excludedTools.join(', ')})`;
  return text === '' ? 'none' : text;
}

export function permissionText(p: string): string {
  if (p === 'inherit') return 'the session’s mode';
  return PERMISSIONS.find((x) => x.value === p)?.label ?? p;
}

export function modelText(s: Pick<Subagent, 'modelProfileId' | 'modelProfileName'>): string {
  if (s.modelProfileId === '') return 'the session’s';
  return s.modelProfileName || s.modelProfileId;
}

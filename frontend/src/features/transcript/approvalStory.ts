// What a tool row says of its permission: who let it run (or who stopped it) and how
// long its card waited. Read from the stored result when there is one (the same after a
// reload), else from the live card's answer, through one function, so both read alike.
import type { ApprovalOutcome, ToolResult } from '../../bridge/types';
import { PERMISSION_MODES } from '../../lib/labels';
import { formatDuration } from '../../lib/tools';
import type { ApprovalItem, ToolItem } from '../../state/transcript';

export interface ApprovalStory {
  /** "Allowed once by you", "Allowed by rule npm test (project)", "Denied by you", … */
  text: string;
  /** "waited 9.0 s for approval"; "" when no card waited or it is not known yet. */
  wait: string;
  /** The call's body ran: its duration is a run time (a denied call's is the wait). */
  ran: boolean;
  tone: 'allowed' | 'refused';
}

/** Decisions of a card that was answered no, or never answered: nothing ran. */
const NOT_RUN: ReadonlySet<string> = new Set(['denied', 'deny', 'cancelled', 'timeout', 'shutdown']);

const USER_TEXT: Record<string, string> = {
  'allow-once': 'Allowed once by you',
  'allow-session': 'Allowed for this session by you',
  'allow-rule': 'Allowed by you, rule saved',
  denied: 'Denied by you',
  deny: 'Denied by you',
  cancelled: 'Not answered: the turn was stopped',
  timeout: 'Not answered in time',
  shutdown: 'Not answered: PI-Desktop shut down',
};

/** The result's decision for a card's answer (the broker says deny, the result denied). */
function cardDecision(outcome: ApprovalOutcome): string {
  return outcome === 'deny' ? 'denied' : outcome;
}

function modeLabel(mode: string): string {
  return PERMISSION_MODES.find((m) => m.value === mode)?.label ?? mode;
}

/** "allow npm test (project)" reads "npm test (project)" after "Allowed by rule". */
function ruleName(rule: string): string {
  return rule.replace(/^allow\s+/, '');
}

function text(decision: string, by: string, mode: string, rules: readonly string[]): string {
  switch (by) {
    case 'rule':
      return rules.length > 0 ? `Allowed by rule ${rules.map(ruleName).join(', ')}` : 'Allowed by a command rule';
    case 'mode':
      return mode ? `Allowed by ${modeLabel(mode)} mode` : 'Allowed by the permission mode';
    case 'session':
      return USER_TEXT['allow-session']!;
  }
  return USER_TEXT[decision] ?? '';
}

/** Who decided an older stored result that predates its approval record. */
function byOf(r: ToolResult): string {
  if (r.approval) return r.approval.by;
  if (r.decision === 'granted') return 'session';
  return r.decision in USER_TEXT ? 'user' : '';
}

/** The row's permission line, or null when nothing needed allowing (a Read). */
export function approvalStory(item: ToolItem, card: ApprovalItem | undefined): ApprovalStory | null {
  const r = item.result;
  let decision: string;
  let by: string;
  let mode = '';
  let rules: readonly string[] = [];
  if (r && byOf(r) !== '') {
    decision = r.decision;
    by = byOf(r);
    mode = r.approval?.mode ?? '';
    rules = r.approval?.rules ?? [];
  } else if (card?.outcome) {
    decision = cardDecision(card.outcome);
    by = 'user';
  } else {
    return null;
  }
  const said = text(decision, by, mode, rules);
  if (said === '') return null;
  const ran = !(by === 'user' && NOT_RUN.has(decision));
  return {
    text: said,
    wait: item.waitedMs > 0 ? `waited ${formatDuration(item.waitedMs)} for approval` : '',
    ran,
    tone: ran ? 'allowed' : 'refused',
  };
}

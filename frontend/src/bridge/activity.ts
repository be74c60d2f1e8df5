// Shapes and normalizers of the Activity log (backend/audit Query) and of the
// details a refused rollback carries (backend/review since.go). Pure: the fake
// bridge in tests reuses the normalizers.
import type { ReviewHunk } from './types';
import { hunk } from './normalize';

/** One audit row: a tool call as host-core decided and ran it (spec §9). */
export interface AuditRow {
  /** Paging cursor; newer rows have larger ids. */
  id: number;
  traceId: string;
  sessionId: string;
  turnId: string;
  toolCallId: string;
  tool: string;
  delegate: string;
  /** Bounded, secrets redacted. */
  argsPreview: string;
  /** workspace | scratch | visualization | external | "" */
  pathRoot: string;
  externalPath: boolean;
  permissionMode: string;
  operatingMode: string;
  /** allow, granted, allow-once, allow-session, deny, denied, timeout, cancelled, user, … ("" when refused before policy). */
  decision: string;
  /** A permission card was shown. */
  prompted: boolean;
  permissionWaitMs: number;
  /** The tool body. */
  durationMs: number;
  overheadMs: number;
  totalMs: number;
  ok: boolean;
  errorCode: string;
  createdAt: number;
}

/** "" = any. result: "ok", "failed" or one error code. */
export interface ActivityFilter {
  tool: string;
  decision: string;
  result: string;
}

export interface ActivitySummary {
  /** Rows the filter selects in the whole session. */
  matching: number;
  tools: string[];
  decisions: string[];
  errorCodes: string[];
}

export interface ActivityPage {
  /** Newest first. */
  rows: AuditRow[];
  /** Pass to activityLog for the next (older) page; 0 when this is the last. */
  nextCursor: number;
  /** With the first page only. */
  summary: ActivitySummary | null;
}

/** Why a rollback was refused (details.reason of its CONFLICT). */
export type RollbackConflictReason =
  | 'changed'
  | 'missing'
  | 'existsAgain'
  | 'notRegular'
  | 'hardLinked'
  | 'redirected'
  | 'alreadyRolledBack';

/** What happened to the file after the agent's change (details.since of a CONFLICT). */
export interface ReviewSince {
  /** modified | added (the deleted path holds a file again) | deleted (the file is gone) */
  status: string;
  additions: number;
  deletions: number;
  hunks: ReviewHunk[];
  binary: boolean;
  truncated: boolean;
}

type Rec = Record<string, unknown>;

function rec(v: unknown): Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : {};
}
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strs = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function auditRow(v: unknown): AuditRow {
  const r = rec(v);
  return {
    id: num(r.id),
    traceId: str(r.traceId),
    sessionId: str(r.sessionId),
    turnId: str(r.turnId),
    toolCallId: str(r.toolCallId),
    tool: str(r.tool),
    delegate: str(r.delegate),
    argsPreview: str(r.argsPreview),
    pathRoot: str(r.pathRoot),
    externalPath: r.externalPath === true,
    permissionMode: str(r.permissionMode),
    operatingMode: str(r.operatingMode),
    decision: str(r.decision),
    prompted: r.prompted === true,
    permissionWaitMs: num(r.permissionWaitMs),
    durationMs: num(r.durationMs),
    overheadMs: num(r.overheadMs),
    totalMs: num(r.totalMs),
    ok: r.ok === true,
    errorCode: str(r.errorCode),
    createdAt: num(r.createdAt),
  };
}

export function activityPage(v: unknown): ActivityPage {
  const p = rec(v);
  const s = p.summary == null ? null : rec(p.summary);
  return {
    rows: (Array.isArray(p.rows) ? p.rows : []).map(auditRow),
    nextCursor: num(p.nextCursor),
    summary: s && {
      matching: num(s.matching),
      tools: strs(s.tools),
      decisions: strs(s.decisions),
      errorCodes: strs(s.errorCodes),
    },
  };
}

/** details.since of a refused rollback, or null when the backend could not tell. */
export function reviewSince(details: Rec): ReviewSince | null {
  if (typeof details.since !== 'object' || details.since === null) return null;
  const s = rec(details.since);
  return {
    status: str(s.status),
    additions: num(s.additions),
    deletions: num(s.deletions),
    hunks: (Array.isArray(s.hunks) ? s.hunks : []).map(hunk),
    binary: s.binary === true,
    truncated: s.truncated === true,
  };
}

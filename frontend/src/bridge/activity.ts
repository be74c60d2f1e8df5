// Shapes and parsers of the Activity log (backend/audit Query) and of the details a
// refused rollback carries (backend/review since.go); the schemas are in wire.ts. Pure:
// the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

/** One audit row: a tool call as host-core decided and ran it (spec §9). */
export type AuditRow = Out<typeof w.AuditRow>;

/** "" = any. result: "ok", "failed" or one error code. */
export interface ActivityFilter {
  tool: string;
  decision: string;
  result: string;
}

export type ActivitySummary = Out<typeof w.ActivitySummary>;
export type ActivityPage = Out<typeof w.ActivityPage>;

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
export type ReviewSince = Out<typeof w.ReviewSince>;

export function auditRow(x: unknown): AuditRow {
  return v.parse(w.AuditRow, x);
}

export function activityPage(x: unknown): ActivityPage {
  return v.parse(w.ActivityPage, x);
}

/** details.since of a refused rollback, or null when the backend could not tell. */
export function reviewSince(details: Record<string, unknown>): ReviewSince | null {
  if (typeof details.since !== 'object' || details.since === null) return null;
  return v.parse(w.ReviewSince, details.since);
}

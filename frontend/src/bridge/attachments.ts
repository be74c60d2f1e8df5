// Shapes and parsers of composer attachments (backend/api Attachment); the schema is in
// wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type Attachment = Out<typeof w.Attachment>;

/** What the message being composed already holds: the backend refuses past the limits. */
export interface AttachmentBudget {
  count: number;
  bytes: number;
}

/** The per-message limits the backend enforces (backend/attachments). */
export const MAX_ATTACHMENTS = 20;

export function attachment(x: unknown): Attachment {
  return v.parse(w.Attachment, x);
}

export function attachmentList(x: unknown): Attachment[] {
  return v.parse(v.array(w.Attachment), x ?? []);
}

/** The budget held by atts. */
export function budgetOf(atts: readonly Attachment[]): AttachmentBudget {
  return { count: atts.length, bytes: atts.reduce((n, a) => n + a.size, 0) };
}

/** The URL of an attachment's prepared image (the app's own route); '' for a non-image. */
export function attachmentImageURL(a: Attachment): string {
  return /^[0-9a-f]{64}$/.test(a.sha256) ? `/_attachments/${a.sha256}` : '';
}

// Shapes and parsers of the BrowserPreview pane (backend/api/preview.go); the schemas
// are in wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import { EVENT } from './eventNames.gen';
import type { Out } from './wire';
import * as w from './wire';

export type PreviewState = Out<typeof w.PreviewState>;

/** A pane change: opened (or replaced), reloaded after its files changed, or closed. */
export type PreviewEvent =
  | { type: 'opened' | 'reload'; sessionId: string; state: PreviewState }
  | { type: 'closed'; sessionId: string };

export const PREVIEW_EVENTS = [EVENT.previewOpened, EVENT.previewReload, EVENT.previewClosed] as const;

export function previewState(x: unknown): PreviewState | null {
  if (x === null || x === undefined) return null;
  const s = v.parse(w.PreviewState, x);
  return s.sessionId && s.url ? s : null;
}

export function previewEvent(name: string, x: unknown): PreviewEvent | null {
  if (name === EVENT.previewClosed) {
    const { sessionId } = v.parse(w.PreviewClosed, x);
    return sessionId ? { type: 'closed', sessionId } : null;
  }
  const state = previewState(x);
  if (!state) return null;
  return { type: name === EVENT.previewReload ? 'reload' : 'opened', sessionId: state.sessionId, state };
}

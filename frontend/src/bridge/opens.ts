// What later starts of the app asked the window to open (backend/api/open.go); the schema is
// in wire.ts. Pure: the fake bridge in tests reuses the parser.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type OpenRequest = Out<typeof w.OpenRequest>;

export function openRequests(x: unknown): OpenRequest[] {
  return v.parse(v.fallback(v.array(w.OpenRequest), () => []), x);
}

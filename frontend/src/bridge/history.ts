// Shapes and parsers of search and export (backend/api/history.go); the schemas are in
// wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type SearchHit = Out<typeof w.SearchHit>;
export type SearchSegment = Out<typeof w.SearchSegment>;
export type ExportResult = Out<typeof w.ExportResult>;
export type ExportFormat = 'md' | 'json';

export function searchHits(x: unknown): SearchHit[] {
  return v.parse(v.array(w.SearchHit), x ?? []);
}

export function searchHit(x: unknown): SearchHit {
  return v.parse(w.SearchHit, x);
}

export function exportResult(x: unknown): ExportResult {
  return v.parse(w.ExportResult, x);
}

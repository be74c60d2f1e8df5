// Shapes and parsers of the Files pane (backend/api/files.go); the schemas are in
// wire.ts. Pure: the fake bridge in tests reuses the parsers.
import * as v from 'valibot';
import type { Out } from './wire';
import * as w from './wire';

export type Artifact = Out<typeof w.Artifact>;
export type FolderEntry = Out<typeof w.FolderEntry>;
export type FolderListing = Out<typeof w.FolderListing>;
export type FileView = Out<typeof w.FileView>;
export type FileStamp = Out<typeof w.FileStamp>;

export function artifacts(x: unknown): Artifact[] {
  return v.parse(v.array(w.Artifact), x ?? []);
}

export function artifact(x: unknown): Artifact {
  return v.parse(w.Artifact, x);
}

export function folderListing(x: unknown): FolderListing {
  return v.parse(w.FolderListing, x);
}

export function fileView(x: unknown): FileView {
  return v.parse(w.FileView, x);
}

export function fileStamp(x: unknown): FileStamp {
  return v.parse(w.FileStamp, x);
}

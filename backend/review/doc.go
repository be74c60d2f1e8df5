// Package review keeps the message-owned review records of spec §4c and
// rolls a recorded change back under a hash guard.
//
// Recording. Before a workspace-root Write or Edit runs, the caller takes a
// Capture of the target (the previous bytes, or their absence); after the
// mutation succeeded it calls Finish with the bytes that landed. Finish
// computes the hunks with go-diff (line mode, 3 lines of context), keeps the
// previous bytes under <reviewsDir>/<sessionId>/<snapshotId> (0600, folders
// 0700, outside the workspace) and persists the record in review_changes
// with its message id, so the UI shows it from the message and never
// recomputes it from git or the dirty tree. A failed or denied mutation
// simply drops its Capture: nothing was written. Scratch, visualization and
// external targets get no record (Capture returns nil, and a nil Capture's
// Finish records nothing), so callers may capture unconditionally.
//
// An MV is captured with CaptureMove: a source deletion and a destination
// creation under one tool call, sharing a group id, rolled back both or
// neither.
//
// Bounds. Binary content (hashline.IsBinary) gives binary:true and no hunks.
// A text side over MaxDiffBytes gives truncated:true and no hunks; more than
// MaxHunkLines hunk lines are cut (truncated:true, counts still exact). A
// side over MaxSnapshotBytes is not kept: reversible:false.
//
// Rollback. Rollback restores the captured bytes (modified), removes the
// file (added) or re-creates it (deleted), and only when the file is still
// what the tool left: a regular file, not a link, with link count 1, whose
// raw SHA-256 equals the post-tool hash (for a deletion: the path is still
// absent). Anything else is CONFLICT and the file is left untouched. The
// guard hashes raw bytes, not hashline's canonical text, because rollback
// restores bytes. All file operations run through an os.Root opened on the
// workspace after the path was re-resolved with the session's
// pathguard.Resolver, so nothing outside the workspace is touched even if a
// link is swapped in mid-operation. The state rolledBack is persisted; a
// second rollback is CONFLICT.
//
// Caller duty: after a completed Rollback the caller must invalidate the
// session's edit snapshot entries (backend/hashline) for every returned
// Change's path, so the model cannot keep editing against a tag the
// rollback replaced (spec §4c). Change.Path is workspace-relative: resolve
// it with the session's pathguard.Resolver to get the store key
// (Resolver.Key). This package does not import hashline's
// snapshot store and cannot do it itself. Rollback is a mutation: callers
// should hold the session's mutation permit (spec §4d) while it runs.
package review

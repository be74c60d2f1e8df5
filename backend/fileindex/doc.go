// Package fileindex keeps, per workspace, the list of files the composer's
// @-references suggest from, so a keystroke is a match over memory instead
// of a walk of the tree.
//
// An Index walks its root once in the background with Glob's visibility
// rules (search.WalkVisible), then stays fresh through fsnotify: one watch
// per visible folder, events debounced and applied per folder (a folder
// whose ignore file changed is walked again whole), a full rebuild when the
// OS reports lost events. Where folders cannot all be watched (the inotify
// limit, or no watcher at all) it falls back to a periodic rebuild. Queries
// answer from what is indexed so far while the first walk runs, and say so.
//
// A Pool shares one Index between every session on the same workspace and
// closes it when the last of them lets go.
package fileindex

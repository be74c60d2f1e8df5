package hostcore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/search"
	"github.com/pi-desktop/pi-desktop/backend/session"
)

// MaxViewBytes bounds a file the viewer shows; a larger one gets a note
// instead of its text (the editor opens it).
const MaxViewBytes = 2 << 20

// The Files pane reads the session's workspace for the user, never for the
// model: like the sidebar and the @ suggestions it takes no policy, card or
// audit row. It reaches only the workspace (a temporary session's scratch
// folder, which is its workspace), through the session's path guard: links
// out, "..", absolute paths and the host's data folder are refused, and
// folders are listed with Glob's visibility rules.

// browser is a session's workspace as the Files pane reaches it.
type browser struct {
	b session.Binding
	r *pathguard.Resolver
	// absent: a temporary session whose scratch folder does not exist yet.
	absent bool
}

func (c *Core) browser(ctx context.Context, sessionID string) (browser, error) {
	b, _, err := c.workspace(ctx, sessionID)
	if err != nil {
		return browser{}, err
	}
	if b.Temporary {
		if _, err := os.Stat(b.Workspace); errors.Is(err, fs.ErrNotExist) {
			return browser{b: b, absent: true}, nil
		}
	}
	r, err := pathguard.New(pathguard.Roots{Workspace: b.Workspace, Scratch: b.Scratch, Data: c.protectedData()}, pathguard.Options{Roots: &c.roots})
	if err != nil {
		if errs.As(err) != nil {
			return browser{}, err
		}
		return browser{}, errs.Wrap(err, errs.NotFound, "the session's workspace %s cannot be opened; it may have been moved or deleted", b.Workspace)
	}
	return browser{b: b, r: r}, nil
}

// resolve resolves a workspace-relative path and refuses anything that
// lands outside the workspace.
func (w browser) resolve(rel string) (pathguard.Resolved, error) {
	if w.absent {
		return pathguard.Resolved{}, errs.New(errs.NotFound, "%s does not exist: the session has no files yet", clip(rel)).With("field", "path")
	}
	if rel == "" {
		rel = "."
	}
	if strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || (len(rel) > 1 && rel[1] == ':') {
		return pathguard.Resolved{}, errs.New(errs.InvalidArgument, "%s is not a path relative to the workspace; pick the file in the Files list", clip(rel)).With("field", "path")
	}
	res, err := w.r.Resolve(rel)
	if err != nil {
		return pathguard.Resolved{}, err
	}
	if res.Root != pathguard.Workspace && (!w.b.Temporary || res.Root != pathguard.Scratch) {
		return pathguard.Resolved{}, errs.New(errs.PathOutsideWorkspace, "%s leads outside the session's workspace, so the Files pane does not open it", clip(rel)).With("field", "path")
	}
	return res, nil
}

// Artifacts lists the workspace files the session's Write and Edit calls
// left, the most recently written first; Exists says whether each is still
// a file there.
func (c *Core) Artifacts(ctx context.Context, sessionID string) ([]api.Artifact, error) {
	w, err := c.browser(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	rows, err := c.artifacts.List(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]api.Artifact, len(rows))
	for i, a := range rows {
		out[i] = api.Artifact{Path: a.Path, FirstMessageID: a.FirstMessageID, LastMessageID: a.LastMessageID, UpdatedAt: a.UpdatedAt}
		if res, err := w.resolve(a.Path); err == nil {
			fi, err := w.r.Stat(res)
			out[i].Exists = err == nil && fi.Mode().IsRegular()
		}
	}
	return out, nil
}

// ListFolder lists one folder of the session's workspace ("" is the
// workspace itself), with Glob's visibility rules.
func (c *Core) ListFolder(ctx context.Context, sessionID, dir string) (api.FolderListing, error) {
	w, err := c.browser(ctx, sessionID)
	if err != nil {
		return api.FolderListing{}, err
	}
	out := api.FolderListing{Path: strings.Trim(dir, "/"), Entries: []api.FolderEntry{}}
	if w.absent && out.Path == "" {
		return out, nil
	}
	top, err := w.resolve(".")
	if err != nil {
		return api.FolderListing{}, err
	}
	base, name, err := w.r.OpenIn(top)
	if err != nil {
		return api.FolderListing{}, err
	}
	defer base.Close()
	l, err := search.ListDir(ctx, search.ListDirOptions{Root: top.Abs, Dir: out.Path,
		Within: search.Within{Base: base, Name: name, Skip: w.r.Protected}})
	if err != nil {
		return api.FolderListing{}, err
	}
	out.Truncated = l.Truncated
	for _, e := range l.Entries {
		out.Entries = append(out.Entries, api.FolderEntry{Name: e.Name, Path: path.Join(out.Path, e.Name), Dir: e.Dir})
	}
	return out, nil
}

// FindFiles filters the workspace's files by name (the Files pane's filter
// box): Glob's visibility rules, bounded like the @ suggestions.
func (c *Core) FindFiles(ctx context.Context, sessionID, query string) (WorkspaceFiles, error) {
	w, err := c.browser(ctx, sessionID)
	if err != nil {
		return WorkspaceFiles{}, err
	}
	if w.absent {
		return WorkspaceFiles{Files: []string{}}, nil
	}
	top, err := w.resolve(".")
	if err != nil {
		return WorkspaceFiles{}, err
	}
	base, name, err := w.r.OpenIn(top)
	if err != nil {
		return WorkspaceFiles{}, err
	}
	defer base.Close()
	res, err := search.Files(ctx, search.FilesOptions{Root: top.Abs, Query: query, Limit: search.MaxFilesLimit,
		Within: search.Within{Base: base, Name: name, Skip: w.r.Protected}})
	if err != nil {
		return WorkspaceFiles{}, err
	}
	if res.Files == nil {
		res.Files = []string{}
	}
	return WorkspaceFiles{Files: res.Files, Truncated: res.Truncated}, nil
}

// ViewFile reads a workspace file for the read-only viewer: a regular file
// only, up to MaxViewBytes; a binary or larger file gets a note instead of
// its text.
func (c *Core) ViewFile(ctx context.Context, sessionID, rel string) (api.FileView, error) {
	w, err := c.browser(ctx, sessionID)
	if err != nil {
		return api.FileView{}, err
	}
	res, err := w.resolve(rel)
	if err != nil {
		return api.FileView{}, err
	}
	if fi, err := w.r.Stat(res); err == nil && !fi.Mode().IsRegular() {
		return api.FileView{}, errs.New(errs.InvalidArgument, "%s is not a regular file; open a file from the list", clip(rel)).With("field", "path")
	}
	// O_NONBLOCK: a FIFO swapped in after the Stat must not block the call.
	f, err := w.r.OpenFile(res, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return api.FileView{}, errs.New(errs.NotFound, "%s no longer exists; it may have been moved or deleted", clip(rel)).With("field", "path")
	}
	if err != nil {
		return api.FileView{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return api.FileView{}, errs.Wrap(err, errs.ToolFailed, "cannot inspect %s; retry", clip(rel))
	}
	if !fi.Mode().IsRegular() {
		return api.FileView{}, errs.New(errs.InvalidArgument, "%s is not a regular file; open a file from the list", clip(rel)).With("field", "path")
	}
	v := api.FileView{Path: res.Rel, Size: fi.Size(), Stamp: stampOf(fi)}
	if fi.Size() > MaxViewBytes {
		v.TooLarge = true
		v.Note = fmt.Sprintf("This file is %.1f MiB, more than the viewer shows (%d MiB). Open it in your editor.", float64(fi.Size())/(1<<20), MaxViewBytes>>20)
		return v, nil
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxViewBytes+1))
	if err != nil {
		return api.FileView{}, errs.Wrap(err, errs.ToolFailed, "cannot read %s; retry", clip(rel))
	}
	if len(data) > MaxViewBytes {
		v.TooLarge, v.Note = true, fmt.Sprintf("This file grew past what the viewer shows (%d MiB). Open it in your editor.", MaxViewBytes>>20)
		return v, nil
	}
	if hashline.IsBinary(data) {
		v.Binary, v.Note = true, "This file is not text, so the viewer does not show it. Open it in its own app."
		return v, nil
	}
	v.Text = string(data)
	return v, nil
}

// FileStamp says whether a workspace file is still there and how it looks
// now (size and modification time), so an open viewer reloads only when
// the file changed.
func (c *Core) FileStamp(ctx context.Context, sessionID, rel string) (api.FileStamp, error) {
	w, err := c.browser(ctx, sessionID)
	if err != nil {
		return api.FileStamp{}, err
	}
	res, err := w.resolve(rel)
	if errs.Is(err, errs.NotFound) {
		return api.FileStamp{}, nil
	}
	if err != nil {
		return api.FileStamp{}, err
	}
	fi, err := w.r.Stat(res)
	if err != nil || !fi.Mode().IsRegular() {
		return api.FileStamp{}, nil
	}
	return api.FileStamp{Exists: true, Stamp: stampOf(fi)}, nil
}

// WorkspacePath is the absolute path of an existing workspace file or
// folder, for the file manager and the default app: only ever inside the
// workspace.
func (c *Core) WorkspacePath(ctx context.Context, sessionID, rel string) (abs string, dir bool, err error) {
	w, err := c.browser(ctx, sessionID)
	if err != nil {
		return "", false, err
	}
	res, err := w.resolve(rel)
	if err != nil {
		return "", false, err
	}
	fi, err := w.r.Stat(res)
	if err != nil {
		return "", false, errs.New(errs.NotFound, "%s no longer exists; it may have been moved or deleted", clip(rel)).With("field", "path")
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return "", false, errs.New(errs.InvalidArgument, "%s is not a regular file or folder", clip(rel)).With("field", "path")
	}
	return res.Abs, fi.IsDir(), nil
}

func stampOf(fi fs.FileInfo) string {
	return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
}

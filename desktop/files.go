package desktop

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
)

// The Files pane: the session's artifacts, its workspace tree, a read-only
// viewer, and handing a file to the OS. Every path is workspace-relative
// and checked by the core (workspace only, through the path guard).

// Artifacts lists the workspace files the session's agent wrote, newest first.
func (f *Files) Artifacts(sessionID string) ([]api.Artifact, error) {
	return with(f.h, func(ctx context.Context, c *hostcore.Core) ([]api.Artifact, error) {
		return c.Artifacts(ctx, sessionID)
	})
}

// ListFolder lists one folder of the session's workspace ("" = its top).
func (f *Files) ListFolder(sessionID, path string) (api.FolderListing, error) {
	return with(f.h, func(ctx context.Context, c *hostcore.Core) (api.FolderListing, error) {
		return c.ListFolder(ctx, sessionID, path)
	})
}

// FindFiles filters the workspace's files by name, best match first.
func (f *Files) FindFiles(sessionID, query string) (hostcore.WorkspaceFiles, error) {
	return with(f.h, func(ctx context.Context, c *hostcore.Core) (hostcore.WorkspaceFiles, error) {
		return c.FindFiles(ctx, sessionID, query)
	})
}

// ViewFile reads a workspace file for the viewer (bounded; binary files
// and large ones come with a note instead of text).
func (f *Files) ViewFile(sessionID, path string) (api.FileView, error) {
	return with(f.h, func(ctx context.Context, c *hostcore.Core) (api.FileView, error) {
		return c.ViewFile(ctx, sessionID, path)
	})
}

// FileStamp is polled by an open viewer to reload a file that changed.
func (f *Files) FileStamp(sessionID, path string) (api.FileStamp, error) {
	return with(f.h, func(ctx context.Context, c *hostcore.Core) (api.FileStamp, error) {
		return c.FileStamp(ctx, sessionID, path)
	})
}

// RevealFile shows a workspace file selected in the OS file manager where
// the platform allows it (FileManager1 over D-Bus on Linux, open -R on
// macOS, explorer /select on Windows), else opens the folder holding it;
// a folder opens itself.
func (f *Files) RevealFile(sessionID, path string) error {
	return f.open(sessionID, path, true)
}

// OpenFileInEditor opens a workspace file with the app the OS associates
// with it.
func (f *Files) OpenFileInEditor(sessionID, path string) error {
	return f.open(sessionID, path, false)
}

func (f *Files) open(sessionID, path string, reveal bool) error {
	return do(f.h, func(ctx context.Context, c *hostcore.Core) error {
		abs, dir, err := c.WorkspacePath(ctx, sessionID, path)
		if err != nil {
			return err
		}
		// Reveal never runs the file: only the folder it shows is checked
		// (no application bundle), as when it opened the folder alone.
		file := ""
		if reveal && !dir {
			file, abs, dir = abs, filepath.Dir(abs), true
		}
		if why := launchable(abs, dir); why != "" {
			return errs.New(errs.PermissionDenied, "PI-Desktop does not hand %s to the system: %s; open it yourself from your file manager if you trust it", path, why).With("path", path)
		}
		win := f.h.Window()
		if win == nil {
			return errs.New(errs.Internal, "the window is not ready yet; try again")
		}
		// The OS opener (xdg-open, open, the Windows shell) takes a file
		// URL and picks the file manager or the associated app.
		openURL := func(p string) { wruntime.BrowserOpenURL(win, fileURL(p)) }
		if file == "" {
			openURL(abs)
			return nil
		}
		// The file manager may take a moment to answer; the window does
		// not wait for it.
		r := revealer{goos: runtime.GOOS, lookPath: exec.LookPath, run: runReveal, openFolder: openURL}
		go r.reveal(context.WithoutCancel(ctx), file)
		return nil
	})
}

// fileURL is the file: URL of an absolute path, escaped (a '#' or '?' in
// a name stays part of the path), with a Windows drive spelled /C:/….
func fileURL(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// launcherExt reports whether ext is a type an OS opener runs instead of
// showing: programs, scripts and shortcuts of Windows, macOS and Linux
// desktops.
func launcherExt(ext string) bool {
	switch ext {
	case ".exe", ".bat", ".cmd", ".com", ".lnk", ".url", ".scr", ".pif", ".cpl", ".msi", ".msp", ".hta", ".reg", ".ps1", ".psm1",
		".vbs", ".vbe", ".js", ".jse", ".wsf", ".wsh", ".jar", ".appref-ms", ".application", ".settingcontent-ms",
		".app", ".command", ".terminal", ".tool", ".workflow", ".scpt", ".pkg", ".dmg",
		".desktop", ".appimage", ".run", ".sh", ".bin":
		return true
	}
	return false
}

// launchable says why abs must not go to the OS opener ("" when it may):
// the opener runs programs rather than showing them, and a workspace file
// may be one the agent wrote. A macOS bundle (a folder named *.app) is a
// program too, as is a file with an executable bit.
func launchable(abs string, dir bool) string {
	for _, part := range strings.Split(filepath.ToSlash(abs), "/") {
		if strings.EqualFold(filepath.Ext(part), ".app") {
			return "it is inside an application bundle (" + part + ")"
		}
	}
	if dir {
		return ""
	}
	ext := strings.ToLower(filepath.Ext(abs))
	if launcherExt(ext) {
		return "a " + ext + " file is run, not opened, by the system"
	}
	if fi, err := os.Stat(abs); err == nil && runtime.GOOS != "windows" && fi.Mode()&0o111 != 0 {
		return "it is executable"
	}
	return ""
}

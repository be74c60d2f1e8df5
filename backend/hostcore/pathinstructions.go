package hostcore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// PathInstructions implements agent.Host.
func (h agentHost) PathInstructions(ctx context.Context, call agent.ToolCall) []agent.InstructionFile {
	return h.c.pathInstructions(ctx, call)
}

// pathInstructions resolves call's path argument the way Execute does and
// reads the instruction files of the folders from below the workspace root
// down to the path's folder. Anything that keeps the path from resolving
// into the workspace (a bad argument, another root, a temporary session,
// a missing worktree) gives none: Execute reports those, not this.
func (c *Core) pathInstructions(ctx context.Context, call agent.ToolCall) []agent.InstructionFile {
	tool, ok := c.registry.Lookup(call.Tool)
	if !ok {
		return nil
	}
	spec := tool.Spec()
	if spec.PathArg == "" || spec.Shape == tools.NoPath {
		return nil
	}
	_, fields, err := c.registry.Validate(call.Tool, call.Args)
	if err != nil {
		return nil
	}
	spelling, explicit, err := pathArgument(spec, fields)
	if err != nil || !explicit {
		return nil // the default path is the workspace root: its file is in the system prompt
	}
	view, err := c.config(ctx)
	if err != nil {
		return nil
	}
	// The call's own workspace: an isolated session's worktree, or an
	// isolated delegate's (spec §4e: AGENTS.md comes from the worktree).
	b, _, err := c.workspaceIn(ctx, view, call.SessionID)
	if err != nil {
		return nil
	}
	if b, _, err = c.delegateBinding(call.SessionID, call.DelegationID, b, nil); err != nil || b.Temporary {
		return nil // a temporary session's workspace is its scratch folder
	}
	resolver, err := c.resolverFor(ctx, b, false)
	if err != nil {
		return nil
	}
	res, err := resolver.Resolve(escapedSpelling(resolver, spelling))
	if err != nil || res.Root != pathguard.Workspace {
		return nil
	}
	dir := instructionDir(resolver, res, spec.Shape)
	if dir == "." {
		return nil
	}
	root, err := os.OpenRoot(res.RootDir)
	if err != nil {
		return nil
	}
	defer root.Close()
	var out []agent.InstructionFile
	parts := strings.Split(dir, "/")
	for i := range parts {
		if f, ok := readInstructionFile(root, strings.Join(parts[:i+1], "/")); ok {
			out = append(out, f)
		}
	}
	return out
}

// instructionDir is the workspace-relative folder whose chain applies to
// res: a directory a search starts from is its own folder, a file is in
// its parent's.
func instructionDir(resolver *pathguard.Resolver, res pathguard.Resolved, shape tools.PathShape) string {
	switch shape {
	case tools.Directory:
		return res.Rel
	case tools.FileOrDir:
		if fi, err := resolver.Stat(res); err == nil && fi.IsDir() {
			return res.Rel
		}
	}
	return path.Dir(res.Rel)
}

// readInstructionFile reads folder's AGENTS.md, else its CLAUDE.md, through
// root, so no link leads the read out of the workspace. ok is false when
// the folder has neither (or does not exist). A file that is there but
// cannot be read comes back with Skipped saying why; its CLAUDE.md is not
// read instead, since the folder's instructions are the AGENTS.md.
func readInstructionFile(root *os.Root, folder string) (agent.InstructionFile, bool) {
	for _, name := range [...]string{"AGENTS.md", "CLAUDE.md"} { // as for the workspace root
		rel := path.Join(folder, name)
		lfi, err := root.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue
		}
		f := agent.InstructionFile{Path: rel}
		if err != nil {
			f.Skipped = "it cannot be inspected: " + errText(err)
			return f, true
		}
		fi := lfi
		if lfi.Mode()&fs.ModeSymlink != 0 {
			// os.Root follows a link only while it stays inside the
			// workspace; one leading out is refused here.
			if fi, err = root.Stat(rel); err != nil {
				f.Skipped = "it is a link that leads out of the workspace or nowhere"
				return f, true
			}
		}
		f.Size = fi.Size()
		if !fi.Mode().IsRegular() {
			f.Skipped = "it is not a regular file"
			return f, true
		}
		// O_NONBLOCK: a FIFO swapped in after the Stat must not block.
		file, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			f.Skipped = "it cannot be opened: " + errText(err)
			return f, true
		}
		data, err := io.ReadAll(io.LimitReader(file, agent.InstructionFileMax+1))
		file.Close()
		if err != nil {
			f.Skipped = "it cannot be read: " + errText(err)
			return f, true
		}
		f.Text = string(data)
		return f, true
	}
	return agent.InstructionFile{}, false
}

// errText is the reason of a file-system error without the path it
// carries (the file is named beside it).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

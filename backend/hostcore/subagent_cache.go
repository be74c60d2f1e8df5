package hostcore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// subagentCache keeps each project's subagent catalog for the delegate
// runtime, which reads it on every prompt and Task: parsing every
// definition each time cost more than the files' signature (the folders'
// entries with their sizes and modification times, and the saved models),
// which a change to any file alters, so an edit is still seen at once.
type subagentCache struct {
	mu     sync.Mutex
	byRoot map[string]cachedSubagents
	loads  int // catalogs parsed (tests)
}

type cachedSubagents struct {
	sig string
	cat subagent.Catalog
}

// subagentCacheSize bounds the projects kept: a few are open at once.
const subagentCacheSize = 32

// cachedSubagentCatalog is SubagentCatalog, parsed again only when the
// definitions' signature changed. The catalog is shared: read it only.
func (c *Core) cachedSubagentCatalog(ctx context.Context, projectRoot string) (subagent.Catalog, error) {
	profiles, err := c.profileRefs(ctx)
	if err != nil {
		return subagent.Catalog{}, err
	}
	src := subagent.Sources{DataDir: c.cfg.DataDir, Home: c.home(), ProjectRoot: projectRoot, Profiles: profiles,
		Plugins: c.pluginFolders(ctx, projectRoot)}
	sig := catalogSignature(src)
	sc := &c.subagents
	sc.mu.Lock()
	if e, ok := sc.byRoot[projectRoot]; ok && e.sig == sig {
		sc.mu.Unlock()
		return e.cat, nil
	}
	sc.mu.Unlock()
	cat, err := subagent.Load(ctx, src)
	if err != nil {
		return subagent.Catalog{}, err
	}
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.byRoot == nil {
		sc.byRoot = map[string]cachedSubagents{}
	}
	if _, ok := sc.byRoot[projectRoot]; !ok && len(sc.byRoot) >= subagentCacheSize {
		clear(sc.byRoot) // rare: more projects than kept; start over
	}
	sc.byRoot[projectRoot] = cachedSubagents{sig: sig, cat: cat}
	sc.loads++
	return cat, nil
}

// catalogSignature describes everything Load reads but the builtins: each
// definition folder's *.md entries (name, size, modification time, mode,
// following links) and the saved models a definition may name.
func catalogSignature(src subagent.Sources) string {
	var b strings.Builder
	var dirs []string
	if src.DataDir != "" {
		dirs = append(dirs, subagent.UserDir(src.DataDir))
	}
	if src.Home != "" {
		dirs = append(dirs, filepath.Join(src.Home, ".agents", subagent.UserDirName))
	}
	if src.ProjectRoot != "" {
		dirs = append(dirs, filepath.Join(src.ProjectRoot, filepath.FromSlash(subagent.ClaudeProjectDir)),
			filepath.Join(src.ProjectRoot, filepath.FromSlash(subagent.ProjectDir)))
	}
	for _, p := range src.Plugins {
		dirs = append(dirs, subagent.PluginDir(p))
	}
	for _, dir := range dirs {
		fmt.Fprintf(&b, "%s\x00", dir)
		entries, err := os.ReadDir(dir)
		if err != nil {
			fmt.Fprintf(&b, "!%v\x00", err)
			continue
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			fi, err := os.Stat(filepath.Join(dir, e.Name()))
			if err != nil {
				fmt.Fprintf(&b, "%s!%v\x00", e.Name(), err)
				continue
			}
			fmt.Fprintf(&b, "%s:%d:%d:%v\x00", e.Name(), fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
		}
	}
	profiles := slices.Clone(src.Profiles)
	slices.SortFunc(profiles, func(x, y subagent.ProfileRef) int { return strings.Compare(x.ID, y.ID) })
	for _, p := range profiles {
		fmt.Fprintf(&b, "%q %q %q %q\x00", p.ID, p.Name, p.API, p.Model)
	}
	return b.String()
}

package skills

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Skills are loaded at every turn's start, every Skill call and every path
// outside a session's folders. Cache keeps each Sources' Set with the
// stamps (mode, size, modification time) of what it was read from: the
// source folders, their entries and each folder's SKILL.md. An unchanged
// catalog then costs a few stats and no parse; an edit, an added or removed
// skill, or a retargeted link shows on the next use.

// racyWindow is how recent a stamped time may be for the stamp to prove
// nothing: a file written in the same clock tick as the stamp (file times
// are coarse, up to 2 s on some file systems) could change again without
// its time moving. Such entries are re-read until their files are older.
const racyWindow = 2 * time.Second

// maxCached bounds the Sources kept (one per project path in practice).
const maxCached = 64

// Cache is a concurrency-safe cache of Load by Sources. The zero value is
// not ready; use NewCache.
type Cache struct {
	load    func(context.Context, Sources) (Set, error)
	mu      sync.Mutex
	entries map[Sources]cached
}

type cached struct {
	set     Set
	stamps  []stamp
	takenAt time.Time
}

// NewCache returns an empty cache over Load.
func NewCache() *Cache {
	return &Cache{load: Load, entries: map[Sources]cached{}}
}

// Load is Load(ctx, src), from the cache while every stamp still holds.
// The Set returned is the caller's: its slices are copies.
func (c *Cache) Load(ctx context.Context, src Sources) (Set, error) {
	c.mu.Lock()
	e, ok := c.entries[src]
	c.mu.Unlock()
	if ok && e.fresh() {
		return e.set.clone(), nil
	}
	// Stamps are taken before reading, so a change made while Load reads
	// shows as a difference next time rather than hiding behind new stamps.
	e = cached{stamps: takeStamps(src), takenAt: time.Now()}
	set, err := c.load(ctx, src)
	if err != nil {
		return Set{}, err
	}
	e.set = set
	c.mu.Lock()
	if _, ok := c.entries[src]; !ok && len(c.entries) >= maxCached {
		for k := range c.entries { // any one: the cache refills cheaply
			delete(c.entries, k)
			break
		}
	}
	c.entries[src] = e
	c.mu.Unlock()
	return set.clone(), nil
}

func (s Set) clone() Set {
	return Set{Skills: slices.Clone(s.Skills), Problems: slices.Clone(s.Problems)}
}

// fresh reports whether every stamp still holds and none is racy.
func (e cached) fresh() bool {
	for _, st := range e.stamps {
		if st.racy(e.takenAt) || !stampOf(st.path).same(st) {
			return false
		}
	}
	return true
}

// stamp is what a path was when a Set was read: the link itself (lstat)
// and what it leads to (stat). Absent paths are stamped too, so a folder
// or SKILL.md that appears is noticed.
type stamp struct {
	path        string
	link, final fileStamp
}

type fileStamp struct {
	exists bool
	mode   fs.FileMode
	size   int64
	mtime  time.Time
}

func statStamp(fi fs.FileInfo, err error) fileStamp {
	if err != nil {
		return fileStamp{}
	}
	// A folder's size says nothing portable; its time changes with its entries.
	size := fi.Size()
	if fi.IsDir() {
		size = 0
	}
	return fileStamp{exists: true, mode: fi.Mode(), size: size, mtime: fi.ModTime()}
}

func stampOf(path string) stamp {
	return stamp{path: path, link: statStamp(os.Lstat(path)), final: statStamp(os.Stat(path))}
}

func (s stamp) same(o stamp) bool { return s.link.same(o.link) && s.final.same(o.final) }

func (f fileStamp) same(o fileStamp) bool {
	return f.exists == o.exists && f.mode == o.mode && f.size == o.size && f.mtime.Equal(o.mtime)
}

func (s stamp) racy(takenAt time.Time) bool {
	for _, f := range []fileStamp{s.link, s.final} {
		if f.exists && !f.mtime.Before(takenAt.Add(-racyWindow)) {
			return true
		}
	}
	return false
}

// takeStamps stamps what Load reads for src: each source folder, its
// entries (hidden ones are never skills) and each entry's SKILL.md.
func takeStamps(src Sources) []stamp {
	var out []stamp
	for _, f := range src.Folders() {
		out = append(out, stampOf(f.Dir))
		entries, err := os.ReadDir(f.Dir)
		if err != nil {
			continue // absent or unreadable: its stamp covers it
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") {
				continue
			}
			p := filepath.Join(f.Dir, e.Name())
			out = append(out, stampOf(p), stampOf(filepath.Join(p, "SKILL.md")))
		}
	}
	return out
}

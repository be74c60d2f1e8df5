package hostcore

import (
	"context"
	"database/sql"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/settings"
)

// configCache keeps session bindings and the stored settings between tool
// calls, so a call does not query three rows (issue #9 budget). Everything
// is keyed to the database's config generation (migration 0008): triggers
// bump it in the same transaction as any change to projects, sessions or
// settings, by any process on the data directory (`pi-desktop tool` and
// `run` are other processes). Every lookup reads the generation first and
// is served from the cache only when it is unchanged, so a committed mode
// or permission change is seen by the very next call.
type configCache struct {
	gen *genReader

	mu       sync.Mutex
	at       int64 // the generation the entries below were read under
	bindings map[string]session.Binding
	stored   *settings.Stored
}

// newConfigCache reads the generation of db, the database file at path.
func newConfigCache(ctx context.Context, db *sql.DB, path string) (*configCache, error) {
	g := &genReader{db: db, path: path}
	// Opened now, so a database that cannot answer fails the start.
	if err := g.open(ctx); err != nil {
		return nil, errs.Wrap(err, errs.StorageUnavailable, "could not prepare a settings query: the database did not answer; restart PI-Desktop")
	}
	return &configCache{gen: g, at: -1}, nil
}

func (cc *configCache) close() { cc.gen.close() }

// closeFiles is called once the database is closed.
func (cc *configCache) closeFiles() { cc.gen.closeFiles() }

// configView is one read of the generation; lookups through it are fresh
// as of that read.
type configView struct {
	c   *Core
	gen int64
}

// config reads the current generation.
func (c *Core) config(context.Context) (configView, error) {
	n, err := c.cfgCache.gen.read()
	if err != nil {
		return configView{}, errs.Wrap(err, errs.StorageUnavailable, "could not read the session settings: the database did not answer; check free disk space and restart PI-Desktop")
	}
	return configView{c: c, gen: n}, nil
}

// entries returns the cache locked, emptied first if it holds another
// generation than the view's. The caller unlocks it.
func (v configView) entries() *configCache {
	cc := v.c.cfgCache
	cc.mu.Lock()
	if cc.at != v.gen {
		cc.at, cc.bindings, cc.stored = v.gen, map[string]session.Binding{}, nil
	}
	return cc
}

// bind is session.Service.Bind, from the cache when nothing has changed.
// The generation is read before the rows, so rows stored under it can only
// be newer than it, never older: a write in between bumps the generation
// and the next lookup misses.
func (v configView) bind(ctx context.Context, id string) (session.Binding, error) {
	cc := v.entries()
	b, ok := cc.bindings[id]
	cc.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := v.c.sessions.Bind(ctx, id)
	if err != nil {
		return b, err // failures are never cached
	}
	cc = v.entries()
	cc.bindings[id] = b
	cc.mu.Unlock()
	return b, nil
}

// settings is settings.Service.Get with the row from the cache when nothing
// has changed; the row is checked against this machine on every use.
func (v configView) settings(ctx context.Context) (api.Settings, error) {
	cc := v.entries()
	st := cc.stored
	cc.mu.Unlock()
	if st == nil {
		loaded, err := v.c.settings.Load(ctx)
		if err != nil {
			return api.Settings{}, err
		}
		st = &loaded
		cc = v.entries()
		cc.stored = st
		cc.mu.Unlock()
	}
	return v.c.settings.Decode(*st), nil
}

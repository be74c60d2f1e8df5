// Package hostcore is the composition root: it builds every backend service
// from one Config and is the facade the desktop shell, the CLI and tests use.
package hostcore

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/settings"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// Sink receives events for the UI. The desktop shell implements it with the
// Wails runtime; tests record what was sent.
type Sink interface {
	Emit(event string, payload any)
}

// NopSink drops every event (headless use).
type NopSink struct{}

func (NopSink) Emit(string, any) {}

// Config is everything New needs.
type Config struct {
	DataDir string
	Version string
	GOOS    string           // defaults to runtime.GOOS
	Now     func() time.Time // defaults to time.Now
	Sink    Sink             // defaults to NopSink
}

// Core is the running backend.
type Core struct {
	cfg      Config
	layout   paths.Layout
	store    *store.Store
	log      *slog.Logger
	logFile  io.Closer
	sink     Sink
	Sessions *session.Service
	Settings *settings.Service
}

// New creates the data directory, opens the database (migrating it) and runs
// the startup sweep. On error nothing is left open.
func New(ctx context.Context, cfg Config) (*Core, error) {
	if cfg.GOOS == "" {
		cfg.GOOS = runtime.GOOS
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sink == nil {
		cfg.Sink = NopSink{}
	}
	layout := paths.Layout{Root: cfg.DataDir}
	if err := layout.Ensure(); err != nil {
		return nil, fmt.Errorf("prepare data directory: %w", err)
	}
	logFile, err := os.OpenFile(filepath.Join(layout.Logs(), "pi-desktop.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open log file: %w", err)
	}
	log := slog.New(slog.NewJSONHandler(logFile, &slog.HandlerOptions{Level: slog.LevelInfo}))
	st, err := store.Open(ctx, layout.Database(), store.Options{})
	if err != nil {
		log.Error("open database", "err", err)
		_ = logFile.Close()
		return nil, err
	}
	c := &Core{
		cfg: cfg, layout: layout, store: st, log: log, logFile: logFile, sink: cfg.Sink,
		Sessions: session.New(st.DB(), layout, cfg.Now),
		Settings: settings.New(st.DB(), cfg.GOOS),
	}
	report, err := c.Sessions.Sweep(ctx)
	if err != nil {
		// A failed sweep costs disk space, not correctness: log and go on.
		log.Warn("startup sweep", "err", err)
	}
	for _, p := range report.Removed {
		log.Info("swept", "path", p)
	}
	for _, e := range report.Errors {
		log.Warn("sweep", "err", e)
	}
	log.Info("started", "version", cfg.Version, "dataDir", cfg.DataDir)
	return c, nil
}

// Close releases the database and the log.
func (c *Core) Close() error {
	c.log.Info("stopped")
	err := c.store.Close()
	if cerr := c.logFile.Close(); err == nil {
		err = cerr
	}
	return err
}

// Emit forwards an event to the UI.
func (c *Core) Emit(event string, payload any) { c.sink.Emit(event, payload) }

// Log returns the structured logger writing to the data directory.
func (c *Core) Log() *slog.Logger { return c.log }

// Info describes the running application.
func (c *Core) Info() api.AppInfo {
	info := api.AppInfo{Version: c.cfg.Version, Platform: c.cfg.GOOS, DataDir: c.cfg.DataDir, CommandShells: []api.ShellOption{}}
	for _, e := range shells.ForPlatform(c.cfg.GOOS) {
		info.CommandShells = append(info.CommandShells, api.ShellOption{ID: e.ID, Label: e.Label})
	}
	return info
}

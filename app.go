package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/desktop"
	"github.com/pi-desktop/pi-desktop/platform/instance"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

// App is the desktop window's lifecycle: it holds the running core (or
// why it could not start) and the Wails context, and sends the core's
// events to the window. The services bound to the frontend (package
// desktop) reach it as a desktop.Handle.
type App struct {
	mu      sync.Mutex
	ctx     context.Context // the Wails context; set at startup
	core    *hostcore.Core
	coreErr error // why the backend could not start, shown by the UI
	order   desktop.EventOrder
	// guard keeps visualization frames off the IPC bridge (desktop/vizguard.go).
	guard desktop.FrameGuard
	// closing is closed when shutdown starts (it ends the signal watch).
	closing   chan struct{}
	closeOnce sync.Once
	// sigs is the signal watch's channel; ownsTerm says SIGTERM reaches only
	// it (set at startup, under mu).
	sigs     chan os.Signal
	ownsTerm bool
	stderr   io.Writer
	// opens is what starts asked the window to open (desktop/open.go).
	opens desktop.Opens
}

func newApp(stderr io.Writer) *App {
	return &App{closing: make(chan struct{}), sigs: make(chan os.Signal, 1), stderr: stderr}
}

// startup keeps the Wails context and takes SIGTERM from Wails, whose
// handler reports every signal as "Ctrl+C detected" — wrong for a logout or
// a service manager's stop.
func (a *App) startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	if !desktop.BindingsBuild {
		signal.Reset(syscall.SIGTERM)
		signal.Notify(a.sigs, syscall.SIGTERM, os.Interrupt)
		a.ownsTerm = true
	}
	a.mu.Unlock()
	a.guard.Install()
}

// probeWarmDelay is how long after the page's DOM is ready the login-shell
// PATH probe starts. The probe runs the user's shell startup files: run at
// start on a 2-core machine (pyenv in ~/.bashrc), their processes delayed
// the window's map by 0.3 s and its first paint, which follows DOM ready
// by a few hundred ms, by 0.5 s. Nothing needs the PATH sooner: a command
// that does starts the probe itself.
const probeWarmDelay = 2 * time.Second

// domReady warms the login-shell PATH probe once the window is up (the
// core defers it: Config.DeferPathProbe). Once the core has closed the
// warm-up does nothing.
func (a *App) domReady(context.Context) {
	if a.core != nil {
		time.AfterFunc(probeWarmDelay, a.core.WarmPathProbe)
	}
}

// watchSignals makes sure SIGTERM/SIGINT end in a clean quit (database
// closed, exit 0). On SIGINT Wails quits by itself, but a quit that lands
// before GTK's main loop runs is lost ("gtk_main_quit: assertion
// 'main_loops != NULL' failed") and the app stays up, so this watch retries
// every 2 s until shutdown starts — never at the same moment as Wails' own
// quit: two goroutines calling gtk_main_quit at once now and then crashed
// the exit (status 2). Once startup took SIGTERM from Wails, this watch is
// its only handler and quits at once. Called before wails.Run, so no signal
// is missed.
func (a *App) watchSignals() {
	signal.Notify(a.sigs, syscall.SIGTERM, os.Interrupt)
	go func() {
		sig := <-a.sigs
		a.mu.Lock()
		ours := sig == syscall.SIGTERM && a.ownsTerm
		a.mu.Unlock()
		wait := 2 * time.Second
		if ours {
			fmt.Fprintln(a.stderr, "pi-desktop: asked to quit (SIGTERM); closing")
			wait = 0
		}
		for {
			select {
			case <-a.closing:
				return
			case <-time.After(wait):
				if ctx := a.Window(); ctx != nil {
					wruntime.Quit(ctx)
				}
			}
			wait = 2 * time.Second
		}
	}()
}

func (a *App) shutdown(context.Context) {
	// No events once the window is going: what the host says while it
	// closes has nobody to reach.
	a.mu.Lock()
	a.ctx = nil
	a.mu.Unlock()
	if a.closing != nil {
		a.closeOnce.Do(func() { close(a.closing) })
	}
	if a.core != nil {
		_ = a.core.Close()
	}
}

// Core is the running backend, or why it could not start (desktop.Handle).
func (a *App) Core() (*hostcore.Core, error) {
	switch {
	case a.core != nil:
		return a.core, nil
	case a.coreErr != nil:
		return nil, a.coreErr
	}
	return nil, errs.New(errs.Internal, "PI-Desktop's backend did not start; restart PI-Desktop")
}

// Window is the Wails context: nil before startup and once shutdown began
// (desktop.Handle).
func (a *App) Window() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

// Emit implements hostcore.Sink with the Wails event bus: every event the
// core and its services publish reaches the window here.
func (a *App) Emit(event string, payload any) {
	if ctx := a.Window(); ctx != nil {
		name, data := a.order.Wrap(event, payload)
		wruntime.EventsEmit(ctx, name, data)
	}
}

// OpenBrowser opens url in the system browser (an MCP server's sign-in).
func (a *App) OpenBrowser(url string) error {
	ctx := a.Window()
	if ctx == nil {
		return errs.New(errs.InvalidArgument, "the window is not open yet; try signing in again in a moment")
	}
	wruntime.BrowserOpenURL(ctx, url)
	return nil
}

// holdDataDir makes this app the one on its data folder. When another app
// already holds it, the targets (and --session) go to that one, which
// comes to the front, and stop is true with the exit status: this start
// ends there. A folder that cannot be resolved or locked is left to
// openCore, which reports why in the window.
func (a *App) holdDataDir(dataDirFlag, openSession string, targets []string) (primary *instance.Primary, exit int, stop bool) {
	dir, err := paths.Resolve(dataDirFlag, paths.ProcessEnv(runtime.GOOS))
	if err != nil {
		return nil, 0, false
	}
	args := slices.Clone(targets)
	if openSession != "" {
		args = append([]string{"--session", openSession}, args...)
	}
	cwd, _ := os.Getwd()
	primary, err = instance.Acquire(context.Background(), dir, instance.Request{Args: args, Dir: cwd}, a.handOff)
	switch {
	case errors.Is(err, instance.ErrHandedOff):
		fmt.Fprintf(a.stderr, "pi-desktop: PI-Desktop is already open on %s; handed it over there\n", dir)
		return nil, 0, true
	case errors.Is(err, instance.ErrNoAnswer):
		// Never a second app on one folder: the first may be hung.
		fmt.Fprintf(a.stderr, "pi-desktop: %v\n", err)
		return nil, 1, true
	case err != nil:
		fmt.Fprintf(a.stderr, "pi-desktop: later starts cannot reach this one: %v\n", err)
	}
	return primary, 0, false
}

// handOff takes a later start's request: the window reads it on app:open
// and comes to the front.
func (a *App) handOff(req instance.Request) {
	a.opens.Push(req)
	ctx := a.Window()
	if ctx == nil {
		return // the window reads the queue when it starts
	}
	a.Emit(api.EventOpenRequested, nil)
	wruntime.WindowUnminimise(ctx)
	wruntime.WindowShow(ctx)
}

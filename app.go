package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/bgtask"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/review"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// App is the object bound to the frontend. Its exported methods are the
// whole bridge API; each delegates to hostcore and reports failures as
// {code, message, details} through the error formatter in main.go.
type App struct {
	mu      sync.Mutex
	ctx     context.Context // the Wails context; set at startup
	core    *hostcore.Core
	coreErr error // why the backend could not start, shown by the UI
	order   eventOrder
	// openSession is the session named by --session, opened at start.
	openSession string
	// guard keeps visualization frames off the IPC bridge (vizguard.go).
	guard frameGuard
	// closing is closed when shutdown starts (it ends the signal watch).
	closing   chan struct{}
	closeOnce sync.Once
}

func newApp() *App { return &App{closing: make(chan struct{})} }

// startup keeps the Wails context.
func (a *App) startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
	a.guard.install()
}

// watchSignals makes sure SIGTERM/SIGINT end in a clean quit (database
// closed, exit 0). wails.Run quits on the first signal itself, but a quit
// that lands before GTK's main loop runs is lost ("gtk_main_quit: assertion
// 'main_loops != NULL' failed") and the app stays up. This watch only
// retries, every 2 s until shutdown starts, never at the same moment as
// Wails' own quit: two goroutines calling gtk_main_quit at once now and then
// crashed the exit (status 2). Called before wails.Run, so no signal is
// missed.
func (a *App) watchSignals() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, os.Interrupt)
	go func() {
		<-sigs
		for {
			select {
			case <-a.closing:
				return
			case <-time.After(2 * time.Second):
				a.mu.Lock()
				ctx := a.ctx
				a.mu.Unlock()
				if ctx != nil {
					wruntime.Quit(ctx)
				}
			}
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

// Emit implements hostcore.Sink with the Wails event bus. It is unexported
// in spirit: Wails binds exported methods, so the sink is the emitter below.
func (a *App) emit(event string, payload any) {
	a.mu.Lock()
	ctx := a.ctx
	a.mu.Unlock()
	if ctx != nil {
		name, data := a.order.wrap(event, payload)
		wruntime.EventsEmit(ctx, name, data)
	}
}

// emitter adapts App to hostcore.Sink without binding Emit to the frontend.
type emitter struct{ app *App }

func (e emitter) Emit(event string, payload any) { e.app.emit(event, payload) }

func (a *App) ready() (*hostcore.Core, error) {
	if a.core == nil {
		return nil, a.coreErr
	}
	return a.core, nil
}

func (a *App) bg() context.Context { return context.Background() }

// Info describes the app; it fails with the startup error when the backend
// could not start, so the UI can show why.
func (a *App) Info() (api.AppInfo, error) {
	c, err := a.ready()
	if err != nil {
		return api.AppInfo{}, err
	}
	return c.Info(), nil
}

// ChooseFolder opens the native folder picker; "" means the user cancelled.
func (a *App) ChooseFolder(title string) (string, error) {
	a.mu.Lock()
	ctx := a.ctx
	a.mu.Unlock()
	if ctx == nil {
		return "", errs.New(errs.Internal, "the window is not ready yet; try again")
	}
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
}

// ListProjects returns every project.
func (a *App) ListProjects() ([]api.Project, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Sessions.ListProjects(a.bg())
}

// AddProject adds the folder at path as a project (or returns it if known).
func (a *App) AddProject(path string) (api.Project, error) {
	c, err := a.ready()
	if err != nil {
		return api.Project{}, err
	}
	p, err := c.Sessions.AddProject(a.bg(), path)
	if err == nil {
		c.Emit(api.EventProjectsChanged, nil)
	}
	return p, err
}

// RemoveProject forgets a project and deletes its sessions; files stay.
func (a *App) RemoveProject(id string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	if err := c.Sessions.RemoveProject(a.bg(), id); err != nil {
		return err
	}
	c.Emit(api.EventProjectsChanged, nil)
	return nil
}

// ListSessions lists a project's sessions newest first ("" = temporary).
func (a *App) ListSessions(projectID string, archived bool) ([]api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Sessions.List(a.bg(), projectID, archived)
}

// GetSession returns one session.
func (a *App) GetSession(id string) (api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return api.Session{}, err
	}
	return c.Sessions.Get(a.bg(), id)
}

// CreateSession starts a session in a project, or a temporary one.
func (a *App) CreateSession(in api.CreateSessionInput) (api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return api.Session{}, err
	}
	return a.sessionChanged(c.CreateSession(a.bg(), in))
}

// RenameSession sets a session's title.
func (a *App) RenameSession(id, title string) (api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return api.Session{}, err
	}
	return a.sessionChanged(c.Sessions.Rename(a.bg(), id, title))
}

// ArchiveSession marks a session archived; nothing is stopped or deleted.
func (a *App) ArchiveSession(id string) (api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return api.Session{}, err
	}
	return a.sessionChanged(c.Sessions.SetArchived(a.bg(), id, true))
}

// RestoreSession brings an archived session back.
func (a *App) RestoreSession(id string) (api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return api.Session{}, err
	}
	return a.sessionChanged(c.Sessions.SetArchived(a.bg(), id, false))
}

// ConfigureSession changes a session's operating or permission mode.
func (a *App) ConfigureSession(id string, cfg api.SessionConfig) (api.Session, error) {
	c, err := a.ready()
	if err != nil {
		return api.Session{}, err
	}
	return a.sessionChanged(c.Sessions.Configure(a.bg(), id, cfg))
}

// DeleteSession deletes a session and its folders.
func (a *App) DeleteSession(id string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	if err := c.DeleteSession(a.bg(), id); err != nil {
		return err
	}
	c.Emit(api.EventSessionsChanged, map[string]string{"sessionId": id})
	return nil
}

func (a *App) sessionChanged(s api.Session, err error) (api.Session, error) {
	if err == nil {
		a.core.Emit(api.EventSessionsChanged, map[string]string{"sessionId": s.ID, "projectId": s.ProjectID})
	}
	return s, err
}

// GetSettings returns the settings.
func (a *App) GetSettings() (api.Settings, error) {
	c, err := a.ready()
	if err != nil {
		return api.Settings{}, err
	}
	return c.Settings.Get(a.bg())
}

// UpdateSettings validates and stores the whole settings set.
func (a *App) UpdateSettings(s api.Settings) (api.Settings, error) {
	c, err := a.ready()
	if err != nil {
		return api.Settings{}, err
	}
	out, err := c.Settings.Update(a.bg(), s)
	if err == nil {
		c.Emit(api.EventSettingsChanged, out)
	}
	return out, err
}

// PendingApprovals lists a session's open approval cards, so a reloaded
// window can show them again.
func (a *App) PendingApprovals(sessionID string) ([]permission.Request, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.PendingApprovals(sessionID), nil
}

// ResolveApproval answers a card: "allow-once", "allow-session" or "deny".
func (a *App) ResolveApproval(sessionID, requestID, outcome string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	return c.ResolveApproval(sessionID, requestID, permission.Outcome(outcome))
}

// StopSession cancels a session's running and waiting tool calls.
func (a *App) StopSession(sessionID string) (int, error) {
	c, err := a.ready()
	if err != nil {
		return 0, err
	}
	return c.StopSession(sessionID), nil
}

// ReviewChanges lists a session's review records ("" = all its messages).
func (a *App) ReviewChanges(sessionID, messageID string) ([]review.Change, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.ReviewChanges(a.bg(), sessionID, messageID)
}

// RollbackChange restores the file(s) of one review record; CONFLICT when
// the file changed since.
func (a *App) RollbackChange(sessionID, snapshotID string) ([]review.Change, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Rollback(a.bg(), sessionID, snapshotID)
}

// Tasks lists a session's background tasks.
func (a *App) Tasks(sessionID string) ([]bgtask.Task, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Tasks(sessionID), nil
}

// TaskOutput returns a bounded preview of a background task's output.
func (a *App) TaskOutput(sessionID, taskID string) (bgtask.TaskOutput, error) {
	c, err := a.ready()
	if err != nil {
		return bgtask.TaskOutput{}, err
	}
	return c.TaskOutput(sessionID, taskID)
}

// StopTask stops a running background task.
func (a *App) StopTask(sessionID, taskID string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	return c.StopTask(sessionID, taskID)
}

// RemoveTask removes a finished background task from its session's list.
func (a *App) RemoveTask(sessionID, taskID string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	return c.RemoveTask(sessionID, taskID)
}

// SendPrompt starts an agent turn; its progress arrives as agent:* events.
func (a *App) SendPrompt(sessionID, prompt string) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	return c.StartTurn(a.bg(), sessionID, prompt)
}

// MergePreview shows what merging an isolated session would bring.
func (a *App) MergePreview(sessionID string) (worktree.Preview, error) {
	c, err := a.ready()
	if err != nil {
		return worktree.Preview{}, err
	}
	return c.MergePreview(a.bg(), sessionID)
}

// Merge merges an isolated session into its project with a preview's token.
func (a *App) Merge(sessionID, token string) (worktree.MergeResult, error) {
	c, err := a.ready()
	if err != nil {
		return worktree.MergeResult{}, err
	}
	return c.Merge(a.bg(), sessionID, token)
}

// GetModelSettings returns the model configuration (never the API key).
func (a *App) GetModelSettings() (hostcore.ModelSettings, error) {
	c, err := a.ready()
	if err != nil {
		return hostcore.ModelSettings{}, err
	}
	return c.ModelSettings(a.bg())
}

// SetModelSettings saves the model configuration; apiKey "" keeps the saved
// key. The key is stored privately and never sent back.
func (a *App) SetModelSettings(in hostcore.ModelSettings, apiKey string) (hostcore.ModelSettings, error) {
	c, err := a.ready()
	if err != nil {
		return hostcore.ModelSettings{}, err
	}
	return c.SetModelSettings(a.bg(), in, apiKey)
}

// PendingQuestions lists a session's unanswered asktool questions.
func (a *App) PendingQuestions(sessionID string) ([]agent.QuestionEvent, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Agent.PendingQuestions(sessionID), nil
}

// AnswerQuestion answers an asktool call; fewer answers skip the rest.
func (a *App) AnswerQuestion(sessionID, questionID string, answers []agent.Answer) error {
	c, err := a.ready()
	if err != nil {
		return err
	}
	return c.Agent.Answer(sessionID, questionID, answers)
}

// Proposals lists a session's plan and goal proposals, oldest first.
func (a *App) Proposals(sessionID string) ([]agent.Proposal, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Agent.Proposals(a.bg(), sessionID)
}

// ResolveProposal approves (with the permission mode to continue in) or
// rejects (with feedback) a plan or goal.
func (a *App) ResolveProposal(d agent.ProposalDecision) (agent.Proposal, error) {
	c, err := a.ready()
	if err != nil {
		return agent.Proposal{}, err
	}
	return c.Agent.ResolveProposal(a.bg(), d)
}

// Todos returns a session's checklist.
func (a *App) Todos(sessionID string) ([]agent.Todo, error) {
	c, err := a.ready()
	if err != nil {
		return nil, err
	}
	return c.Agent.Todos(a.bg(), sessionID)
}

// SetProjectSetup sets the command run once in each new isolated worktree.
func (a *App) SetProjectSetup(projectID, command string) (api.Project, error) {
	c, err := a.ready()
	if err != nil {
		return api.Project{}, err
	}
	p, err := c.SetProjectSetup(a.bg(), projectID, command)
	if err == nil {
		c.Emit(api.EventProjectsChanged, nil)
	}
	return p, err
}

// ProjectIsGit reports whether a project can have isolated sessions.
func (a *App) ProjectIsGit(projectID string) (bool, error) {
	c, err := a.ready()
	if err != nil {
		return false, err
	}
	return c.ProjectIsGit(a.bg(), projectID)
}

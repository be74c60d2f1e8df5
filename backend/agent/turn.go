package agent

import (
	"context"
	"fmt"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// Decisions the runtime tools report for their audit row (tools.Outcome).
const (
	decisionUser      = "user"      // the user decided: an answer, an approval
	decisionCancelled = "cancelled" // the turn stopped before the user did
	decisionDeny      = "deny"      // the turn refused the call
)

// callTurn is the running turn as one of its calls sees it: Execute runs
// the runtime tools, and they act on the turn through it (tools.Turn).
type callTurn struct {
	r *run
	c *prepared
}

var (
	_ tools.Turn       = callTurn{}
	_ tools.RunStarter = callTurn{}
)

func (t callTurn) Offered(tool string) bool { return t.r.offered(tool) }

func (t callTurn) SaveTodos(ctx context.Context, c *tools.Call) tools.Result {
	return t.r.todoWrite(ctx, t.c, c.Args)
}

func (t callTurn) Ask(ctx context.Context, c *tools.Call) tools.Result {
	return t.r.ask(ctx, t.c, c.Args, c.Outcome)
}

func (t callTurn) RequestCompaction(ctx context.Context, c *tools.Call) tools.Result {
	t.r.a.RequestCompaction(t.r.sessionID)
	return tools.Result{OK: true, Content: "A new context window starts at the next turn boundary: before your next step the conversation so far " +
		"is summarized into a checkpoint and the user's messages are kept. Nothing in the workspace or the session's settings changed. " +
		"Continue the task afterwards."}
}

func (t callTurn) EnterMode(ctx context.Context, c *tools.Call, mode string) tools.Result {
	return t.r.enterMode(ctx, t.c, mode, c.Outcome)
}

func (t callTurn) Submit(ctx context.Context, c *tools.Call, kind string) tools.Result {
	return t.r.submit(ctx, t.c, kind, c.Args, c.Outcome)
}

func (t callTurn) LoadTools(ctx context.Context, c *tools.Call) tools.Result {
	// The durable mode names the catalog in messages, not the one the turn
	// started with.
	info, err := t.r.a.host.Binding(ctx, t.r.sessionID)
	if err != nil {
		return tools.Failure(err)
	}
	return t.r.toolSearch(c.Args, info.OperatingMode, c.Outcome)
}

// invalid is a refusal of a user's input naming the field.
func invalid(field, format string, args ...any) error {
	return errs.New(errs.InvalidArgument, format, args...).With("field", field)
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

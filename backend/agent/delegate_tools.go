package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// SubagentResolver is the Host seam of the delegation tools: host-core
// reads the session's subagent definitions. A Host without it offers no
// delegation.
type SubagentResolver interface {
	// Subagent returns the definition in effect named name for the
	// session, and the model it runs on (nil = the session's).
	Subagent(ctx context.Context, sessionID, name string) (subagent.Definition, provider.Provider, error)
	// Subagents lists the session's definitions in effect, for the system
	// prompt.
	Subagents(ctx context.Context, sessionID string) []SubagentInfo
}

// SubagentInfo is one line of the system prompt's subagent list.
type SubagentInfo struct {
	Name        string
	Description string
}

// subagentsFor is the prompt's subagent list: empty unless mode offers Task.
func (a *Agent) subagentsFor(ctx context.Context, sessionID, mode string) []SubagentInfo {
	res, ok := a.host.(SubagentResolver)
	if !ok || !slices.ContainsFunc(a.host.Tools(mode), func(t OfferedTool) bool { return t.Def.Name == tools.Task }) {
		return nil
	}
	return res.Subagents(ctx, sessionID)
}

// Delegate runs the delegation tools for the turn (tools.Delegator).
func (t callTurn) Delegate(ctx context.Context, c *tools.Call, tool string) tools.Result {
	return t.r.delegateTool(ctx, t.c, tool, c.Args)
}

var _ tools.Delegator = callTurn{}

// batchWriters are the writing delegates a batch's Task calls started: a
// later call of the batch waits for them to settle (§0).
type batchWriters struct {
	mu   sync.Mutex
	done []<-chan struct{}
}

func (w *batchWriters) add(c <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = append(w.done, c)
}

// await waits until every writer settled or ctx ends.
func (w *batchWriters) await(ctx context.Context) {
	w.mu.Lock()
	done := slices.Clone(w.done)
	w.mu.Unlock()
	for _, c := range done {
		select {
		case <-c:
		case <-ctx.Done():
			return
		}
	}
}

func (r *run) delegateTool(ctx context.Context, c *prepared, tool string, args json.RawMessage) tools.Result {
	a := r.a
	switch tool {
	case tools.Task:
		var in struct{ Subagent, Description, Prompt string }
		_ = json.Unmarshal(args, &in) // validated by the registry
		res, ok := a.host.(SubagentResolver)
		if !ok {
			return tools.Failure(errs.New(errs.ToolNotFound, "delegation is not available in this session"))
		}
		def, prov, err := res.Subagent(ctx, r.sessionID, in.Subagent)
		if err != nil {
			return tools.Failure(err)
		}
		d, err := a.StartDelegation(ctx, r.sessionID, DelegateSpec{Definition: def, Description: in.Description, Prompt: in.Prompt,
			ParentTurnID: r.turnID, ParentToolCallID: c.id, Provider: prov})
		if err != nil {
			return tools.Failure(err)
		}
		if subagent.Writes(d.Tools) {
			r.writers.add(a.delegationDone(d.ID))
		}
		return tools.Result{OK: true, Content: mustJSON(map[string]string{"delegationId": d.ID, "subagent": d.Subagent, "state": d.State}),
			Fields: map[string]any{"delegationId": d.ID}}
	case tools.TaskWait:
		var in struct {
			IDs            []string `json:"ids"`
			Mode           string   `json:"mode"`
			TimeoutSeconds int      `json:"timeoutSeconds"`
		}
		_ = json.Unmarshal(args, &in)
		w, err := a.WaitDelegations(ctx, r.sessionID, in.IDs, in.Mode != "any", time.Duration(in.TimeoutSeconds)*time.Second)
		if err != nil {
			return tools.Failure(err)
		}
		return tools.Result{OK: true, Content: w.ModelText()}
	case tools.TaskList:
		list, err := a.Delegations(ctx, r.sessionID)
		if err != nil {
			return tools.Failure(err)
		}
		if len(list) == 0 {
			return tools.Result{OK: true, Content: "No delegates have run in this session."}
		}
		var b strings.Builder
		for _, d := range list {
			fmt.Fprintf(&b, "%s %s %s (%s): %d tools, %d turns%s\n", d.ID, d.Subagent, d.State, d.Description, d.ToolCount, d.TurnsUsed, isolationSummary(d))
		}
		return tools.Result{OK: true, Content: b.String()}
	case tools.TaskStop:
		var in struct{ ID string }
		_ = json.Unmarshal(args, &in)
		if !a.StopDelegation(r.sessionID, in.ID) {
			d, err := a.Delegation(ctx, r.sessionID, in.ID)
			if err != nil {
				return tools.Failure(err)
			}
			return tools.Result{OK: true, Content: fmt.Sprintf("Delegation %s is not running (%s).", d.ID, d.State)}
		}
		if done := a.delegationDone(in.ID); done != nil {
			select {
			case <-done:
			case <-ctx.Done():
			}
		}
		d, err := a.Delegation(ctx, r.sessionID, in.ID)
		if err != nil {
			return tools.Failure(err)
		}
		return tools.Result{OK: true, Content: fmt.Sprintf("Delegation %s stopped; TaskWait with its id returns its partial report.", d.ID)}
	}
	return tools.Failure(errs.New(errs.ToolNotFound, "%s is not a delegation tool", tool))
}

// Package tools defines the builtin tools, their schemas and their results.
// Tools never ask for permission or resolve roots themselves: hostcore's
// pipeline does that once for all of them, so none can forget to.
package tools

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/review"
)

// PathShape is what a tool's path argument must name.
type PathShape int

const (
	NoPath       PathShape = iota
	ExistingFile           // Read: an existing regular file
	Directory              // Glob: a directory search root
	FileOrDir              // Grep: one file or a tree
	WritableFile           // Write: a file that may not exist yet
)

// Spec describes a tool to the registry, the policy and the model.
type Spec struct {
	Name        string
	Description string
	Class       permission.Class
	Risk        permission.Risk
	Mutates     bool // serialized per session, takes the path exclusively
	Timeout     time.Duration
	// TimeoutHint is the next step a timed-out call's error names; empty
	// means "narrow the path or pattern" (the search and read tools).
	TimeoutHint string
	Shape       PathShape
	// Schema is the JSON Schema the model sees; Aliases maps an accepted
	// alias to its canonical argument (spec §4, D273).
	Schema  json.RawMessage
	Aliases map[string]string
	// PathArg names the path argument; DefaultPath applies when it is absent
	// (Glob and Grep search the workspace root, an implicit path).
	PathArg     string
	DefaultPath string
	// Deferred tools are offered on demand (spec §2.1): the system prompt
	// lists them by Summary (one line) and their schema reaches the model
	// only after it loads them with ToolSearch. Loading changes nothing
	// else: policy, containment, timeout and audit are the same.
	Deferred bool
	Summary  string
	// PlanSafeActions are the actions a plugin tool declares safe for Plan
	// and Goal (spec §11, ADR 0211): a non-empty list admits the tool there,
	// and the plugin runtime still refuses any action outside it.
	PlanSafeActions []string
	// Modes are the operating modes the tool belongs to (the runtime's
	// Agent checklist, a contract mode's SubmitPlan); empty means every mode
	// the policy allows. The policy decides from it whether a mode offers
	// the tool and refuses a call outside them.
	Modes []string
	// Parallel calls may run together in a parallel batch (Read, Glob,
	// Grep); one call of any other tool makes its batch run in order.
	Parallel bool
	// Exclusive calls must be the only call of their batch (mode switches
	// and submissions happen at a batch boundary only).
	Exclusive bool
	// Loader marks ToolSearch: offered only where the mode's on-demand
	// catalog is not empty.
	Loader bool
}

// Call is one validated call handed to a tool after policy allowed it.
type Call struct {
	SessionID string
	Args      json.RawMessage // validated and alias-folded
	// Target is the path argument re-resolved right before running; nil for
	// tools without a path.
	Target   *pathguard.Resolved
	Resolver *pathguard.Resolver
	// Review records workspace mutations for the message that made them.
	Review ReviewScope
	// Edits is the session's snapshot store (tags and seen lines) and Guard
	// its edit loop guard, scoped by PromptID.
	Edits    *hashline.Store
	Guard    *hashline.Guard
	PromptID string
	// Env is what command-running tools need from the session.
	Env CallEnv
	// MoveJudged says policy classified an MV destination before the call
	// ran, and MoveDest is the canonical path it judged ("" if it did not
	// resolve then): a destination that resolves elsewhere at run time (a
	// folder swapped for a link in between) was never judged and is refused.
	MoveJudged bool
	MoveDest   string
	// Turn is the agent turn that made the call (nil from the UI or the
	// CLI); the runtime tools act on it.
	Turn Turn
	// Outcome collects what the tool reports for the audit row.
	Outcome *Outcome
}

// ReviewScope ties a mutation's review record to its session and message.
// The zero value records nothing.
type ReviewScope struct {
	Store                            *review.Store
	SessionID, MessageID, ToolCallID string
}

// Capture takes the pre-change snapshot of t: nil (and no error) outside
// the workspace root, where no review record is kept (spec §4c). A tool
// that writes files (Write, PluginScaffold, PluginPack) captures each one
// before it changes it and Finishes the capture after.
func (r ReviewScope) Capture(c *Call, t pathguard.Resolved) (*review.Capture, error) {
	if r.Store == nil {
		return nil, nil
	}
	return r.Store.Capture(r.SessionID, r.MessageID, r.ToolCallID, t, c.Resolver)
}

// captureBytes is capture with the previous bytes already read (and
// their hex SHA-256 when known, else "").
func (r ReviewScope) captureBytes(c *Call, t pathguard.Resolved, data []byte, dataSum string) (*review.Capture, error) {
	if r.Store == nil {
		return nil, nil
	}
	return r.Store.CaptureBytes(r.SessionID, r.MessageID, r.ToolCallID, t, c.Resolver, data, dataSum)
}

func (r ReviewScope) captureMove(c *Call, from, to pathguard.Resolved) (*review.MoveCapture, error) {
	if r.Store == nil {
		return nil, nil
	}
	return r.Store.CaptureMove(r.SessionID, r.MessageID, r.ToolCallID, from, to, c.Resolver)
}

// Tool is a builtin tool.
type Tool interface {
	Spec() Spec
	Run(ctx context.Context, c *Call) Result
}

// Prechecker is implemented by tools with cheap checks that can fail a call
// before it costs the user an approval card (Write: an overwrite needs a tag).
type Prechecker interface {
	Precheck(c *Call) error
}

// Mover is implemented by tools whose call may write a second path besides
// the target (Edit's MV destination), so the host can classify it before
// policy decides.
type Mover interface {
	MoveTarget(args json.RawMessage) string
}

// Options configure the builtin tools.
type Options struct {
	// RgPath selects ripgrep for Grep: "" looks it up on PATH, "-" forces the
	// in-process searcher.
	RgPath string
	Bash   BashDeps
}

const readOnly = os.O_RDONLY

// Result is the structured outcome the model (and the UI) receives.
type Result struct {
	OK        bool           `json:"ok"`
	Code      errs.Code      `json:"code,omitempty"`
	Message   string         `json:"message,omitempty"`
	Details   map[string]any `json:"details,omitempty"`
	Root      string         `json:"root,omitempty"`
	Path      string         `json:"path,omitempty"`
	Content   string         `json:"content,omitempty"` // the text the model reads
	Truncated bool           `json:"truncated,omitempty"`
	Notice    string         `json:"notice,omitempty"`
	TraceID   string         `json:"traceId,omitempty"`
	Decision  string         `json:"decision,omitempty"`
	// Approval says what let the call run (or who stopped it) when a card
	// was shown or would have been, for the window's tool row; never for
	// the model. Stored with the result, so a reload shows the same.
	Approval *Approval `json:"approval,omitempty"`
	// Images are the result's pictures, stored content-addressed by the
	// host (<data dir>/attachments/<sha256>); only references travel and
	// persist. The model sees them only when it accepts images.
	Images []ImageRef `json:"images,omitempty"`
	// RawImages are a tool's pictures before the host stores them; Execute
	// turns them into Images and clears this, so bytes never reach the
	// database, the audit log or the UI event.
	RawImages []RawImage `json:"-"`
	// Fields holds tool-specific results (tag, totalLines, tags, …); they are
	// flattened into the top-level JSON object.
	Fields map[string]any `json:"-"`
}

// Who allowed a call, in Approval.By.
const (
	ApprovedByUser    = "user"    // a card was shown; Decision is the answer
	ApprovedByRule    = "rule"    // command rules spared the card
	ApprovedByMode    = "mode"    // the permission mode allowed what ask would ask
	ApprovedBySession = "session" // an earlier allow-for-session answer
)

// Approval is the story of a call's permission, as its tool row tells it.
type Approval struct {
	By string `json:"by"`
	// Mode is the permission mode in effect (ask, accept-edits, auto).
	Mode string `json:"mode,omitempty"`
	// Rules are the command rules that matched (By rule), or the one an
	// "Always allow" answer saved.
	Rules []string `json:"rules,omitempty"`
	// WaitMs is how long the card waited for the user's answer.
	WaitMs int64 `json:"waitMs,omitempty"`
}

// ImageRef names a stored image.
type ImageRef struct {
	SHA256    string `json:"sha256"`
	MediaType string `json:"mediaType"` // image/png | image/jpeg | image/gif | image/webp
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Bytes     int    `json:"bytes"`
}

// RawImage is an image as a tool produced it.
type RawImage struct {
	MediaType string
	Data      []byte
}

// MarshalJSON flattens Fields beside the common keys; a common key wins.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	base, err := json.Marshal(plain(r))
	if err != nil || len(r.Fields) == 0 {
		return base, err
	}
	merged := make(map[string]json.RawMessage, len(r.Fields)+8)
	for k, v := range r.Fields {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		merged[k] = b
	}
	var common map[string]json.RawMessage
	if err := json.Unmarshal(base, &common); err != nil {
		return nil, err
	}
	for k, v := range common {
		merged[k] = v
	}
	return json.Marshal(merged)
}

// Failure turns an error into a failed Result with its stable code.
func Failure(err error) Result {
	p := errs.ToPayload(err)
	return Result{OK: false, Code: p.Code, Message: p.Message, Details: p.Details}
}

// Registry holds the builtin tools by name.
type Registry struct {
	tools   map[string]Tool
	schemas map[string]*compiledSchema
	order   []string
}

// NewRegistry compiles every tool's schema; a bad schema is a programming
// error reported at startup.
func NewRegistry(list ...Tool) (*Registry, error) {
	r := &Registry{tools: map[string]Tool{}, schemas: map[string]*compiledSchema{}}
	for _, t := range list {
		s := t.Spec()
		cs, err := compileSchema(s)
		if err != nil {
			return nil, err
		}
		r.tools[s.Name] = t
		r.schemas[s.Name] = cs
		r.order = append(r.order, s.Name)
	}
	return r, nil
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Names lists the registered tools in registration order.
func (r *Registry) Names() []string { return append([]string(nil), r.order...) }

// Builtins returns the builtin tools of this build.
func Builtins(opts Options) []Tool {
	return []Tool{readTool{}, globTool{}, newGrepTool(opts), writeTool{}, editTool{}, bashTool{deps: opts.Bash},
		bashOutputTool{deps: opts.Bash}, bashStopTool{deps: opts.Bash}}
}

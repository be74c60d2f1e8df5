package toolcli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// RunUsage is printed for `pi-desktop run --help` and on usage errors.
const RunUsage = `Usage:
  pi-desktop run --workspace DIR [options] "prompt"

Runs one user turn of the agent in a durable session bound to DIR and prints
its events as they stream. On a terminal, approval cards are asked there,
with the diff a Write or Edit would make; without one, anything that needs a
decision is denied, and said so.

Options:
  --workspace DIR          the project folder (required unless --session)
  --session ID             continue this session instead
  --data-dir DIR           data directory (default: the app's)
  --operating-mode MODE    agent, plan or goal
  --permission-mode MODE   ask, accept-edits or auto, for this run
  --json                   print events as JSON lines
  --print-prompt           print the system prompt and exit
`

// RunEnv adds a terminal check to Env.
type RunEnv struct {
	Env
	// Interactive reports whether Stdin is a terminal a person answers.
	Interactive bool
	// Color marks the +/- lines of an approval's diff preview with ANSI
	// colors: set it only when Stdout is a terminal.
	Color bool
	// Keychain holds the API keys the desktop app saved (nil = the key
	// file in the data directory only).
	Keychain provider.Keychain
	// Config adjusts the host's config (tests inject a model provider).
	Config func(hostcore.Config) hostcore.Config
}

// RunTurn executes `pi-desktop run` (args after the word "run").
func RunTurn(ctx context.Context, args []string, env RunEnv) int {
	fs := flag.NewFlagSet("pi-desktop run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	workspace := fs.String("workspace", "", "")
	sessionID := fs.String("session", "", "")
	dataDir := fs.String("data-dir", "", "")
	opMode := fs.String("operating-mode", "", "")
	permMode := fs.String("permission-mode", "", "")
	asJSON := fs.Bool("json", false, "")
	printPrompt := fs.Bool("print-prompt", false, "")
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "pi-desktop run: "+format+"\n\n%s", append(a, RunUsage)...)
		return 2
	}
	if err := ParseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, RunUsage)
			return 0
		}
		return usageErr("%v", err)
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	switch {
	case *workspace == "" && *sessionID == "":
		return usageErr("--workspace or --session is required")
	case prompt == "" && !*printPrompt:
		return usageErr("give the prompt as the last argument")
	case *permMode != "" && *permMode != api.PermissionAsk && *permMode != api.PermissionAcceptEdits && *permMode != api.PermissionAuto:
		return usageErr("--permission-mode must be ask, accept-edits or auto")
	case *opMode != "" && *opMode != api.ModeAgent && *opMode != api.ModePlan && *opMode != api.ModeGoal:
		return usageErr("--operating-mode must be agent, plan or goal")
	}
	dir, err := env.ResolveDataDir(*dataDir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop run: %v\n", err)
		return 1
	}
	p := &printer{out: env.Stdout, json: *asJSON, in: bufio.NewReader(env.Stdin), interactive: env.Interactive, color: env.Color}
	cfg := hostcore.Config{DataDir: dir, Version: env.Version, Sink: p, Keychain: env.Keychain, Delegation: true}
	if env.Config != nil {
		cfg = env.Config(cfg)
	}
	// A failure before the turn still ends a JSON stream with its result.
	id := *sessionID
	fail := func(err error) int {
		if *asJSON {
			p.result(Result{SessionID: id, State: agent.TurnFailed}, err)
		}
		fmt.Fprintf(env.Stderr, "pi-desktop run: %s: %s\n", errs.CodeOf(err), errs.ToPayload(err).Message)
		return 1
	}
	core, err := hostcore.New(ctx, cfg)
	if err != nil {
		return fail(err)
	}
	defer core.Close()
	p.core = core
	if id == "" {
		if id, err = bindSession(ctx, core, *workspace, ""); err != nil {
			return fail(err)
		}
	}
	if *opMode != "" || *permMode != "" {
		if _, err := core.ConfigureSession(ctx, id, api.SessionConfig{OperatingMode: *opMode, PermissionMode: *permMode}); err != nil {
			return fail(err)
		}
	}
	if *printPrompt {
		text, err := core.SystemPrompt(ctx, id)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(env.Stdout, text)
		return 0
	}
	p.start()
	res, err := core.RunTurn(ctx, id, prompt)
	p.finish()
	result := resultOf(id, res)
	if *asJSON {
		p.result(result, err)
	} else if res.TurnID != "" {
		fmt.Fprintf(env.Stdout, "\n%s\n", summaryLine(result))
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "pi-desktop run: %s: %s\n", errs.CodeOf(err), errs.ToPayload(err).Message)
		return 1
	}
	return 0
}

// printer streams events to the terminal and answers approval cards.
type printer struct {
	mu          sync.Mutex
	out         io.Writer
	json        bool
	in          *bufio.Reader
	interactive bool
	color       bool
	core        *hostcore.Core
	midLine     bool
	// live is set as the turn starts: what binding the session announced
	// before it (projects:changed, sessions:changed) is not the turn's.
	live bool
}

func (p *printer) start() {
	p.mu.Lock()
	p.live = true
	p.mu.Unlock()
}

func (p *printer) Emit(event string, payload any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.live {
		return
	}
	if p.json {
		b, _ := json.Marshal(map[string]any{"event": event, "payload": payload})
		fmt.Fprintln(p.out, string(b))
	}
	if event == permission.EventRequest {
		p.approve(payload.(permission.Request))
		return
	}
	if q, ok := payload.(agent.QuestionEvent); ok && event == "agent:question" && q.State == agent.QuestionPending {
		p.ask(q)
		return
	}
	if pr, ok := payload.(agent.Proposal); ok && event == "agent:proposal" && pr.State == "pending" {
		p.decide(pr)
		return
	}
	if p.json {
		return
	}
	m, _ := toMap(payload)
	switch event {
	case "agent:text":
		fmt.Fprint(p.out, m["delta"])
		p.midLine = !strings.HasSuffix(fmt.Sprint(m["delta"]), "\n")
	case "agent:tool_call":
		if m["phase"] == "ready" {
			p.line(fmt.Sprintf("→ %v %s", m["tool"], clipText(string(mustJSON(m["args"])), 160)))
		}
	case "agent:tool_result":
		res, _ := m["result"].(map[string]any)
		if ok, _ := res["ok"].(bool); ok {
			p.line(fmt.Sprintf("  ✓ %v", m["tool"]))
		} else {
			p.line(fmt.Sprintf("  ✗ %v %v: %v", m["tool"], res["code"], res["message"]))
		}
	case "agent:turn":
		if code, ok := m["code"]; ok && code != nil && code != "" {
			p.line(fmt.Sprintf("[%v: %v]", code, m["message"]))
		}
	}
}

// approve answers a card: on a terminal by asking, otherwise by denying.
func (p *printer) approve(req permission.Request) {
	outcome := permission.Denied
	if p.interactive {
		p.line(fmt.Sprintf("? %s wants to run (%s risk, %s): %s", req.Tool, req.Risk, req.Reason, req.Preview))
		for _, l := range commandLines(req.Command) {
			p.line(l)
		}
		p.diff(req.Diff, req.DiffNote)
		fmt.Fprint(p.out, approvalQuestion(req))
		ans, _ := p.in.ReadString('\n')
		outcome = approvalAnswer(req, ans)
	} else if !p.json {
		p.line(fmt.Sprintf("[denied %s: no terminal to ask for approval; rerun with --permission-mode or on a terminal]", req.Tool))
	}
	go func() { _ = p.core.ResolveApproval(req.SessionID, req.ID, outcome) }()
}

// ask answers an asktool call on a terminal, or skips it without one.
func (p *printer) ask(q agent.QuestionEvent) {
	var answers []agent.Answer
	if p.interactive {
		for _, question := range q.Questions {
			p.line("? " + question.Question)
			for i, o := range question.Options {
				p.line(fmt.Sprintf("  %d. %s", i+1, o.Label))
			}
			fmt.Fprint(p.out, "  answer: ")
			text, _ := p.in.ReadString('\n')
			text = strings.TrimSpace(text)
			a := agent.Answer{Text: text}
			var n int
			if _, err := fmt.Sscanf(text, "%d", &n); err == nil && n >= 1 && n <= len(question.Options) {
				a = agent.Answer{Selected: []string{question.Options[n-1].Label}}
			}
			answers = append(answers, a)
		}
	} else if !p.json {
		p.line("[questions skipped: no terminal to answer them]")
	}
	go func() { _ = p.core.AnswerQuestion(q.SessionID, q.QuestionID, answers) }()
}

// decide answers a plan/goal proposal on a terminal; without one it is
// rejected with a note (fail closed: nothing is approved unseen).
func (p *printer) decide(pr agent.Proposal) {
	d := agent.ProposalDecision{SessionID: pr.SessionID, TurnID: pr.TurnID, ProposalID: pr.ID, Version: pr.Version,
		Feedback: "not approved: no terminal to review the " + pr.Kind + " on"}
	if p.interactive {
		p.line(fmt.Sprintf("\n%s proposal %q (saved as %s):\n%s", pr.Kind, pr.Title, pr.Path, pr.Markdown))
		fmt.Fprint(p.out, "  approve? [a]sk / accept-[e]dits / a[u]to to approve with that mode, anything else to give feedback: ")
		ans, _ := p.in.ReadString('\n')
		switch strings.TrimSpace(strings.ToLower(ans)) {
		case "a", "ask":
			d.Approve, d.PermissionMode, d.Feedback = true, api.PermissionAsk, ""
		case "e", "accept-edits":
			d.Approve, d.PermissionMode, d.Feedback = true, api.PermissionAcceptEdits, ""
		case "u", "auto":
			d.Approve, d.PermissionMode, d.Feedback = true, api.PermissionAuto, ""
		default:
			d.Feedback = strings.TrimSpace(ans)
		}
	} else if !p.json {
		p.line("[" + pr.Kind + " not approved: no terminal to review it on]")
	}
	go func() { _, _ = p.core.ResolveProposal(context.Background(), d) }()
}

func (p *printer) line(s string) {
	if p.midLine {
		fmt.Fprintln(p.out)
		p.midLine = false
	}
	fmt.Fprintln(p.out, s)
}

func (p *printer) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.midLine {
		fmt.Fprintln(p.out)
		p.midLine = false
	}
}

func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func clipText(s string, n int) string {
	return truncate.BytesEllipsis(s, n)
}

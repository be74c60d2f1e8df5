package hostcore

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/cmdrule"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/platform/shells"
)

// commandCheck is what the command rules (issue 19) and the path rules say
// of one command-running call: the classifier's result, every file the
// command would write judged as a Write there, and the card's "Always
// allow" choices.
type commandCheck struct {
	dialect string
	res     cmdrule.Result
	writes  []writeCheck
	choices []permission.RuleChoice
	// rules maps a choice's ID to the rule it saves.
	rules map[string]cmdrule.Rule
	// byRules: the rules let the call run without the card it needed.
	byRules bool
	// argRisk, when set, names an argument that looks like a path into a
	// protected place or outside the session's folders: the rules then
	// spare no card, whatever write targets were found (a backstop for
	// options the classifier does not know write, like go build -o).
	argRisk string
	// saved is the rule an "Always allow" answer saved.
	saved *cmdrule.Rule
}

// writeCheck is one write target as a Write to it would be judged.
type writeCheck struct {
	target   cmdrule.WriteTarget
	abs      string
	root     string // a pathguard.Root, or permission.WriteRoot*
	verdict  permission.Verdict
	protects permission.Protected
	// refused is the error a Write there would fail with before policy.
	refused error
	// planBlock: in Plan and Goal a write to the workspace is never
	// allowed by rules alone (spec §10: Bash confirms there).
	planBlock bool
}

// checkCommand classifies a command-running call's command with the rules
// in effect for its session and judges its writes. in is the call's policy
// input (mode, temporary, session mode).
func (c *Core) checkCommand(ctx context.Context, req ToolRequest, command string, b session.Binding,
	resolver *pathguard.Resolver, in permission.Input, settings api.Settings) (*commandCheck, error) {
	rules, err := c.rules.InEffect(ctx, req.SessionID)
	if err != nil {
		// A deny rule that cannot be read must not be skipped.
		return nil, err
	}
	cc := &commandCheck{dialect: c.dialectFor(req, settings), rules: map[string]cmdrule.Rule{}}
	cc.res = cmdrule.ClassifyDialect(cc.dialect, command, rules)
	changesDir := changesDirectory(cc.res)
	// A target outside the session's folders may be in a skill's folder,
	// which a Write could not change: judged against the skill roots too.
	inSkill := func(spelling string) (pathguard.Resolved, bool) {
		_, r, ok := c.withSkillRoots(ctx, b, settings.InlineVisualizations, spelling)
		return r, ok
	}
	for _, w := range cc.res.Writes {
		cc.writes = append(cc.writes, c.judgeWrite(req.SessionID, resolver, inSkill, in, w, changesDir))
	}
	if cc.res.Decision == cmdrule.Allow {
		cc.argRisk = riskyArgument(resolver, cc.res, changesDir)
	}
	for i, s := range cc.res.Suggestions {
		if s.Risky() != "" {
			continue
		}
		add := func(scope cmdrule.Scope, label string) {
			id := fmt.Sprintf("%d-%s", i, scope)
			r := cmdrule.Rule{Decision: cmdrule.Allow, Program: s.Program, Args: s.Args, Scope: scope,
				Note: "saved from an approval card"}
			if scope == cmdrule.ScopeSession {
				r.SessionID = req.SessionID
			} else {
				r.ProjectID = b.Session.ProjectID
			}
			cc.rules[id] = r
			cc.choices = append(cc.choices, permission.RuleChoice{ID: id, Words: s.Words(), Scope: string(scope), Label: label})
		}
		add(cmdrule.ScopeSession, "Always allow "+s.Words()+" in this session")
		if b.Session.ProjectID != "" {
			add(cmdrule.ScopeProject, "Always allow "+s.Words()+" in this project")
		}
	}
	return cc, nil
}

// dialectFor is the shell dialect the call's command will run in: the
// turn's pinned one, else the default shell's. A shell that cannot be
// resolved gives a dialect no rule can allow (the tool then fails anyway).
func (c *Core) dialectFor(req ToolRequest, settings api.Settings) string {
	if req.Shell.Dialect != "" {
		return req.Shell.Dialect
	}
	id := req.Shell.ID
	if id == "" {
		id = shells.Effective(settings.DefaultCommandShell, c.cfg.Shells).ID
	}
	sh, err := shells.Resolve(id, c.cfg.Shells)
	if err != nil || sh.Dialect == "" {
		return "unresolved"
	}
	return sh.Dialect
}

// changesDirectory reports whether a command may run somewhere else than
// the workspace before it writes: a relative write target then lands where
// only the shell knows.
func changesDirectory(res cmdrule.Result) bool {
	for _, cmd := range res.Commands {
		switch filepath.Base(cmd.Program) {
		case "cd", "pushd", "popd":
			return true
		}
	}
	return false
}

// nullDevices are write targets that keep nothing.
var nullDevices = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true,
	"/dev/fd/1": true, "/dev/fd/2": true}

// judgeWrite decides what a Write to w's path would need in this call's
// mode, as Execute decides for a Write: resolved by pathguard, classified
// by the protected-path rules, evaluated by the policy. inSkill resolves a
// spelling that landed outside (or in the protected data folder) against
// the session's skill folders, as Execute does for an explicit path.
func (c *Core) judgeWrite(sessionID string, resolver *pathguard.Resolver, inSkill func(string) (pathguard.Resolved, bool),
	in permission.Input, w cmdrule.WriteTarget, changesDir bool) writeCheck {
	wc := writeCheck{target: w, root: permission.WriteRootUnknown}
	unknown := func(why string) writeCheck {
		wc.verdict = permission.Verdict{Decision: permission.Ask, Reason: why}
		return wc
	}
	switch {
	case !w.Static:
		return unknown("the path is only known when the shell runs the command")
	case nullDevices[w.Path]:
		wc.root, wc.verdict = permission.WriteRootNull, permission.Verdict{Decision: permission.Allow}
		return wc
	case strings.HasPrefix(w.Path, "~"):
		return unknown("the shell decides where ~ leads")
	case changesDir && !filepath.IsAbs(w.Path):
		return unknown("the command changes directory first, so where this relative path lands is known only when it runs")
	}
	r, err := resolver.Resolve(w.Path)
	if skillRetry(r, err) {
		if sr, ok := inSkill(w.Path); ok {
			r, err = sr, nil
		}
	}
	if err != nil {
		wc.refused = err
		wc.verdict = permission.Verdict{Decision: permission.Deny, Code: errs.CodeOf(err), Reason: errs.ToPayload(err).Message}
		return wc
	}
	wc.abs, wc.root = r.Abs, string(r.Root)
	wc.protects = protectedTarget(r)
	external := r.Root == pathguard.External
	win := permission.Input{Tool: "Write", Class: permission.ClassEdit, Risk: permission.High,
		OperatingMode: api.ModeAgent, PermissionMode: in.PermissionMode, SessionMode: in.SessionMode,
		Lexical: permission.PathClass(lexicalRoot(r, in.Temporary)), Real: permission.PathClass(r.Root),
		Temporary: in.Temporary, Protected: wc.protects,
		Granted: c.broker.Granted(sessionID, "Write")}
	if wc.protects != permission.NotProtected {
		win.ProtectedGranted = c.broker.Granted(sessionID, permission.ProtectedGrant("Write", wc.protects, external))
	}
	wc.verdict = permission.Evaluate(win)
	wc.planBlock = (in.OperatingMode == api.ModePlan || in.OperatingMode == api.ModeGoal) && r.Root == pathguard.Workspace
	return wc
}

// decide combines the Bash call's own verdict (its mode and grants) with
// the command rules and its writes:
//   - a write a Write could not make refuses the call, in every mode;
//   - a write to a protected path asks as a Write there asks, in every mode;
//   - a call the mode already allows runs, unless a write outside the
//     session's folders meets the external-path gate (a delegate's auto
//     override) and Bash holds no session grant;
//   - a call that would ask runs without a card when every command is
//     allowed by a rule and every write would be allowed as a Write.
//
// Deny rules are applied before this, by the caller.
func (cc *commandCheck) decide(base permission.Verdict, bashGranted bool) (permission.Verdict, error) {
	for _, w := range cc.writes {
		if w.verdict.Decision != permission.Deny {
			continue
		}
		if w.refused != nil {
			return permission.Verdict{}, w.refused
		}
		return permission.Verdict{}, errs.New(w.verdict.Code, "not run: the command writes %s (%s), and %s", clip(w.target.Path), w.target.Via, w.verdict.Reason).
			With("path", w.target.Path)
	}
	for _, w := range cc.writes {
		if w.protects != permission.NotProtected && w.verdict.Decision == permission.Ask {
			return permission.Verdict{Decision: permission.Ask, External: w.verdict.External, Grant: w.verdict.Grant,
				Reason: fmt.Sprintf("the command writes %s (%s), which %s", clip(w.target.Path), w.target.Via, w.verdict.Reason)}, nil
		}
	}
	switch base.Decision {
	case permission.Allow:
		if !bashGranted {
			for _, w := range cc.writes {
				if w.verdict.Decision == permission.Ask && w.root == string(pathguard.External) {
					return permission.Verdict{Decision: permission.Ask, External: true,
						Reason: fmt.Sprintf("the command writes %s (%s), outside the session's folders", clip(w.target.Path), w.target.Via)}, nil
				}
			}
		}
		return base, nil
	case permission.Ask:
		for _, w := range cc.writes {
			base.External = base.External || w.root == string(pathguard.External)
		}
		if cc.res.Decision != cmdrule.Allow {
			return base, nil
		}
		for _, w := range cc.writes {
			if w.verdict.Decision != permission.Allow || w.planBlock {
				return base, nil
			}
		}
		if cc.argRisk != "" {
			return base, nil
		}
		cc.byRules = true
		return permission.Verdict{Decision: permission.Allow}, nil
	}
	return base, nil
}

// riskyArgument is the first literal argument of a command in res that
// names, as a path, a protected place or one outside the session's folders
// (or that cannot be judged: ~, a refused path, a relative path after a cd),
// "" for none. A word counts as a path when it has a separator, starts with
// '.' or '~' or is absolute; the value after an '=' (--out=DIR, DESTDIR=DIR)
// and what follows a short option's letter (-o.git/x, -I/usr) count too.
func riskyArgument(resolver *pathguard.Resolver, res cmdrule.Result, changesDir bool) string {
	for _, cmd := range res.Commands {
		for _, a := range cmd.LiteralArgs() {
			for _, p := range pathCandidates(a) {
				if pathArgRisky(resolver, p, changesDir) {
					return a
				}
			}
		}
	}
	return ""
}

// pathCandidates are the spellings in an argument word that may be paths.
func pathCandidates(a string) []string {
	looksLikePath := func(p string) bool {
		return strings.HasPrefix(p, ".") || strings.HasPrefix(p, "~") || strings.ContainsRune(p, '/') ||
			strings.ContainsRune(p, filepath.Separator) || filepath.IsAbs(p) || filepath.VolumeName(p) != ""
	}
	var out []string
	add := func(p string) {
		if p != "" && looksLikePath(p) {
			out = append(out, p)
		}
	}
	add(a)
	if _, v, ok := strings.Cut(a, "="); ok {
		add(v)
	}
	if len(a) > 2 && a[0] == '-' && a[1] != '-' {
		if i := strings.IndexAny(a[2:], "./~"+string(filepath.Separator)); i >= 0 {
			add(a[2+i:])
		}
	}
	return out
}

// pathArgRisky reports whether p, resolved as a write target would be,
// lands in a protected place or outside the session's folders.
func pathArgRisky(resolver *pathguard.Resolver, p string, changesDir bool) bool {
	switch {
	case nullDevices[p] || p == "/dev/stdin" || p == "/dev/tty":
		return false
	case strings.HasPrefix(p, "~"):
		return true
	case changesDir && !filepath.IsAbs(p):
		return true
	}
	r, err := resolver.Resolve(p)
	if err != nil {
		return true
	}
	return r.Root == pathguard.External || protectedTarget(r) != permission.NotProtected
}

// effect is the card's account of the command as the parser sees it.
func (cc *commandCheck) effect() *permission.CommandEffect {
	e := &permission.CommandEffect{Decision: string(cc.res.Decision), Reason: cc.res.Reason, Dialect: cc.dialect,
		Commands: []permission.CommandLine{}, Writes: []permission.CommandWrite{}, Matched: cc.matched(), ParseError: cc.res.ParseError}
	for _, cmd := range cc.res.Commands {
		line := permission.CommandLine{Text: cmd.Text, Wrappers: cmd.Wrappers, Decision: string(cmd.Decision), Reason: cmd.Reason, Rules: []string{}}
		if line.Wrappers == nil {
			line.Wrappers = []string{}
		}
		for _, r := range cmd.Rules {
			line.Rules = append(line.Rules, r.String())
		}
		e.Commands = append(e.Commands, line)
	}
	for _, w := range cc.writes {
		cw := permission.CommandWrite{Path: w.target.Path, Abs: w.abs, Root: w.root, Via: w.target.Via, Decision: string(w.verdict.Decision)}
		if w.verdict.Decision != permission.Allow {
			cw.Reason = w.verdict.Reason
		}
		if w.planBlock && w.verdict.Decision == permission.Allow {
			cw.Decision, cw.Reason = string(permission.Ask), "in Plan and Goal a command that writes to the workspace needs you"
		}
		e.Writes = append(e.Writes, cw)
	}
	return e
}

// matched lists the rules that matched any command, each once.
func (cc *commandCheck) matched() []string {
	out := []string{}
	seen := map[string]bool{}
	for _, cmd := range cc.res.Commands {
		for _, r := range cmd.Rules {
			if s := r.String(); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// commandAudit is what the audit row keeps of the command rules.
type commandAudit struct {
	// Decision is the classifier's: allow, ask or deny.
	Decision string `json:"decision"`
	// ByRules: the rules let the call run without a card.
	ByRules bool             `json:"byRules,omitempty"`
	Rules   []commandRuleRef `json:"rules"`
	// Saved is the rule an "Always allow" answer saved.
	Saved *commandRuleRef `json:"saved,omitempty"`
}

type commandRuleRef struct {
	ID   string `json:"id"`
	Rule string `json:"rule"`
}

// auditJSON is the audit row's record of the command rules.
func (cc *commandCheck) auditJSON() string {
	a := commandAudit{Decision: string(cc.res.Decision), ByRules: cc.byRules, Rules: []commandRuleRef{}}
	seen := map[string]bool{}
	for _, cmd := range cc.res.Commands {
		for _, r := range cmd.Rules {
			if k := r.ID + "\x00" + r.String(); !seen[k] {
				seen[k] = true
				a.Rules = append(a.Rules, commandRuleRef{ID: r.ID, Rule: r.String()})
			}
		}
	}
	if cc.saved != nil {
		a.Saved = &commandRuleRef{ID: cc.saved.ID, Rule: cc.saved.String()}
	}
	b, err := json.Marshal(a)
	if err != nil {
		return ""
	}
	return string(b)
}

// saveChoice stores the rule an "Always allow" answer chose.
func (c *Core) saveChoice(ctx context.Context, cc *commandCheck, choice permission.RuleChoice) error {
	r, ok := cc.rules[choice.ID]
	if !ok {
		return errs.New(errs.InvalidArgument, "the card offered no rule %q; nothing was run", choice.ID)
	}
	saved, err := c.rules.Add(context.WithoutCancel(ctx), r)
	if err != nil {
		return err
	}
	cc.saved = &saved
	return nil
}

// commandOf is the command a command-running call's arguments carry.
func commandOf(fields map[string]any) (string, error) {
	s, ok := fields["command"].(string)
	if !ok {
		return "", errs.New(errs.InvalidArgument, "a command-running tool call needs a command string").With("field", "command")
	}
	return s, nil
}

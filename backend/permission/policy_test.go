package permission_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

type toolRow struct {
	label string
	in    permission.Input
}

var (
	opModes   = []string{"agent", "plan", "goal"}
	permModes = []string{"ask", "accept-edits", "auto"}
	toolRows  = []toolRow{
		{"Read", permission.Input{Tool: "Read", Class: permission.ClassRead, Risk: permission.Low}},
		{"Write", permission.Input{Tool: "Write", Class: permission.ClassEdit, Risk: permission.High}},
		{"Edit", permission.Input{Tool: "Edit", Class: permission.ClassEdit, Risk: permission.High}},
		{"Bash", permission.Input{Tool: "Bash", Class: permission.ClassExec, Risk: permission.High}},
		// BashOutput and BashStop only read or stop the calling session's own
		// background tasks (host-core scopes the task id to the session): no
		// new process, no path, so no card in any mode.
		{"BashOutput", permission.Input{Tool: "BashOutput", Class: permission.ClassTask, Risk: permission.Low}},
		{"BashStop", permission.Input{Tool: "BashStop", Class: permission.ClassTask, Risk: permission.Low}},
		{"plugin(planSafe)", permission.Input{Tool: "plugin_x_a", Class: permission.ClassPlugin, Risk: permission.Medium, PlanSafe: true}},
		{"plugin", permission.Input{Tool: "plugin_x_b", Class: permission.ClassPlugin, Risk: permission.Medium}},
		{"mcp(claims low)", permission.Input{Tool: "mcp_s_t", Class: permission.ClassMCP, Risk: permission.Low}},
		{"unknown", permission.Input{Tool: "Frob"}},
		// Protected targets (.git, the agent's configuration): a card in
		// every mode, whatever the Write/Edit grant; only a grant for the
		// class lifts it.
		{"Write(.git)", permission.Input{Tool: "Write", Class: permission.ClassEdit, Risk: permission.High, Protected: permission.ProtectedGit}},
		{"Edit(config)", permission.Input{Tool: "Edit", Class: permission.ClassEdit, Risk: permission.High, Protected: permission.ProtectedAgentConfig}},
		{"Write(.git)+cls", permission.Input{Tool: "Write", Class: permission.ClassEdit, Risk: permission.High, Protected: permission.ProtectedGit, ProtectedGranted: true}},
	}
	pathRows = []struct {
		label         string
		lexical, real permission.PathClass
	}{
		{"none", permission.PathNone, permission.PathNone},
		{"workspace", permission.PathWorkspace, permission.PathWorkspace},
		{"scratch", permission.PathScratch, permission.PathScratch},
		{"viz", permission.PathVisualization, permission.PathVisualization},
		{"external", permission.PathExternal, permission.PathExternal},
		{"ws-link-out", permission.PathWorkspace, permission.PathExternal},
		{"scratch-link-in", permission.PathScratch, permission.PathWorkspace},
		{"ws-link-to-scratch", permission.PathWorkspace, permission.PathScratch},
		{"skill", permission.PathSkill, permission.PathSkill},
		{"skill-link-out", permission.PathSkill, permission.PathExternal},
		{"ws-link-to-skill", permission.PathWorkspace, permission.PathSkill},
	}
)

func cell(v permission.Verdict) string {
	switch v.Decision {
	case permission.Deny:
		return "deny:" + string(v.Code)
	case permission.Ask:
		a := "ask"
		if v.External {
			a = "ask(ext)"
		}
		if v.Grant != "" {
			a += "(protected)"
		}
		return a
	default:
		if v.External {
			return "allow(ext)"
		}
		return "allow"
	}
}

// TestMatrixGolden renders every (operating mode × permission mode × tool ×
// path class × grant) cell; the golden file is the reviewed policy.
func TestMatrixGolden(t *testing.T) {
	var b strings.Builder
	for _, op := range opModes {
		for _, pm := range permModes {
			for _, granted := range []bool{false, true} {
				fmt.Fprintf(&b, "## %s / %s / granted=%v\n", op, pm, granted)
				for _, tr := range toolRows {
					var cells []string
					for _, pr := range pathRows {
						in := tr.in
						in.OperatingMode, in.PermissionMode, in.Granted = op, pm, granted
						in.Lexical, in.Real = pr.lexical, pr.real
						cells = append(cells, pr.label+"="+cell(permission.Evaluate(in)))
					}
					fmt.Fprintf(&b, "%-17s %s\n", tr.label, strings.Join(cells, " "))
				}
			}
		}
	}
	// The golden file is the reviewed policy: a diff here is a policy change.
	golden.Assert(t, filepath.Join("testdata", "matrix.golden"), b.String())
}

// The rules the spec states outright, checked independently of the golden.
func TestMatrixRules(t *testing.T) {
	each := func(f func(op, pm string, granted bool, tr toolRow, lexical, real permission.PathClass, v permission.Verdict)) {
		for _, op := range opModes {
			for _, pm := range permModes {
				for _, g := range []bool{false, true} {
					for _, tr := range toolRows {
						for _, pr := range pathRows {
							in := tr.in
							in.OperatingMode, in.PermissionMode, in.Granted, in.Lexical, in.Real = op, pm, g, pr.lexical, pr.real
							f(op, pm, g, tr, pr.lexical, pr.real, permission.Evaluate(in))
						}
					}
				}
			}
		}
	}
	each(func(op, pm string, g bool, tr toolRow, lex, real permission.PathClass, v permission.Verdict) {
		name := fmt.Sprintf("%s/%s/granted=%v/%s/%s→%s", op, pm, g, tr.label, lex, real)
		contract := op != "agent"
		switch {
		case contract && tr.label == "Write":
			want(t, name, v, permission.Deny, errs.WriteDisabledInPlan)
		case contract && tr.label == "Edit":
			want(t, name, v, permission.Deny, errs.EditDisabledInPlan)
		case contract && tr.label == "plugin":
			want(t, name, v, permission.Deny, errs.PluginDisabledInPlan)
		case contract && tr.label == "mcp(claims low)":
			want(t, name, v, permission.Deny, errs.ToolDisabledInPlan)
		case contract && tr.label == "unknown":
			want(t, name, v, permission.Deny, errs.ToolDisabledInPlan)
		case contract && strings.HasPrefix(tr.label, "Write("):
			want(t, name, v, permission.Deny, errs.WriteDisabledInPlan)
		case contract && strings.HasPrefix(tr.label, "Edit("):
			want(t, name, v, permission.Deny, errs.EditDisabledInPlan)
		case lex == permission.PathScratch && real != permission.PathScratch:
			want(t, name, v, permission.Deny, errs.PathOutsideWorkspace)
		case lex == permission.PathSkill && real != permission.PathSkill:
			want(t, name, v, permission.Deny, errs.PathOutsideWorkspace)
		case real == permission.PathSkill && tr.in.Class == permission.ClassRead:
			want(t, name, v, permission.Allow, "")
		case real == permission.PathSkill:
			want(t, name, v, permission.Deny, errs.SkillReadOnly)
		case tr.in.Protected != "" && tr.in.ProtectedGranted:
			want(t, name, v, permission.Allow, "")
		case tr.in.Protected != "":
			// Every permission mode, auto included, and a Write/Edit grant
			// does not cover it.
			want(t, name, v, permission.Ask, "")
			if v.Grant != permission.ProtectedGrant(tr.in.Tool, tr.in.Protected, real == permission.PathExternal) || v.Reason != tr.in.Protected.Reason() {
				t.Errorf("%s: protected card grant %q reason %q", name, v.Grant, v.Reason)
			}
		case real == permission.PathExternal:
			if pm == "auto" || g {
				want(t, name, v, permission.Allow, "")
			} else {
				want(t, name, v, permission.Ask, "") // also for low-risk Read
			}
			if !v.External {
				t.Errorf("%s: external path not flagged", name)
			}
		case tr.label == "Read" || tr.label == "BashOutput" || tr.label == "BashStop":
			want(t, name, v, permission.Allow, "")
		case (tr.label == "Write" || tr.label == "Edit") && (real == permission.PathScratch || real == permission.PathVisualization) && lex == real:
			want(t, name, v, permission.Allow, "") // scratch writes never prompt
		case tr.label == "Write" || tr.label == "Edit":
			if pm == "ask" && !g {
				want(t, name, v, permission.Ask, "")
			} else {
				want(t, name, v, permission.Allow, "")
			}
		case tr.label == "Bash" || tr.label == "mcp(claims low)" || tr.label == "plugin" || tr.label == "plugin(planSafe)":
			if pm == "auto" || g {
				want(t, name, v, permission.Allow, "")
			} else {
				want(t, name, v, permission.Ask, "") // accept-edits still asks
			}
		}
	})
}

func want(t *testing.T, name string, v permission.Verdict, d permission.Decision, code errs.Code) {
	t.Helper()
	if v.Decision != d || v.Code != code {
		t.Errorf("%s: got %s/%s, want %s/%s", name, v.Decision, v.Code, d, code)
	}
}

func TestEffectiveMode(t *testing.T) {
	tests := []struct{ override, session, global, want string }{
		{"", "inherit", "accept-edits", "accept-edits"},
		{"", "auto", "ask", "auto"},
		{"ask", "auto", "auto", "ask"},
		{"inherit", "inherit", "", "ask"},
		{"", "", "bogus", "ask"},
	}
	for _, tt := range tests {
		if got := permission.Effective(tt.override, tt.session, tt.global); got != tt.want {
			t.Errorf("Effective(%q,%q,%q) = %q, want %q", tt.override, tt.session, tt.global, got, tt.want)
		}
	}
}

func TestTemporarySessionKeepsHighRiskToolsInScratch(t *testing.T) {
	for _, pm := range permModes {
		for _, tr := range toolRows {
			in := tr.in
			in.OperatingMode, in.PermissionMode, in.Temporary = "agent", pm, true
			in.Lexical, in.Real = permission.PathExternal, permission.PathExternal
			v := permission.Evaluate(in)
			switch tr.label {
			case "Read":
				if v.Decision == permission.Deny {
					t.Errorf("%s/%s: an outside Read is a question, not a deny: %+v", pm, tr.label, v)
				}
			default:
				if v.Decision != permission.Deny || v.Code != errs.PathOutsideWorkspace {
					t.Errorf("%s/%s: outside path from a temporary session = %+v; want deny", pm, tr.label, v)
				}
			}
		}
	}
}

// A delegate's override (PermissionMode) decides inside the session's
// folders; outside them the session's own mode (SessionMode) still gates:
// only when both are auto does an external path pass without a card.
func TestDelegateOverrideKeepsTheExternalGate(t *testing.T) {
	write := permission.Input{Tool: "Write", Class: permission.ClassEdit, Risk: permission.High, OperatingMode: "agent"}
	tests := []struct {
		override, session string
		real              permission.PathClass
		want              string
	}{
		{"auto", "ask", permission.PathExternal, "ask(ext)"},
		{"auto", "accept-edits", permission.PathExternal, "ask(ext)"},
		{"auto", "auto", permission.PathExternal, "allow(ext)"},
		{"ask", "auto", permission.PathExternal, "ask(ext)"},
		{"accept-edits", "auto", permission.PathExternal, "ask(ext)"},
		{"auto", "ask", permission.PathWorkspace, "allow"},
		{"accept-edits", "ask", permission.PathWorkspace, "allow"},
		{"ask", "auto", permission.PathWorkspace, "ask"},
	}
	for _, tt := range tests {
		in := write
		in.PermissionMode, in.SessionMode, in.Lexical, in.Real = tt.override, tt.session, tt.real, tt.real
		if got := cell(permission.Evaluate(in)); got != tt.want {
			t.Errorf("override %s, session %s, %s: %s, want %s", tt.override, tt.session, tt.real, got, tt.want)
		}
	}
	// A session's own call (no override) is unchanged.
	in := write
	in.PermissionMode, in.Lexical, in.Real = "auto", permission.PathExternal, permission.PathExternal
	if got := cell(permission.Evaluate(in)); got != "allow(ext)" {
		t.Errorf("session auto, external: %s", got)
	}
}

// A skill folder is a read-only root (issue 18): reads never ask, in any
// mode; no other tool may touch it, whatever the mode or a grant says; and
// a spelling inside it that a link carries out is refused.
func TestSkillRootReadOnly(t *testing.T) {
	for _, op := range opModes {
		for _, pm := range permModes {
			for _, granted := range []bool{false, true} {
				for _, tr := range toolRows {
					in := tr.in
					in.OperatingMode, in.PermissionMode, in.Granted = op, pm, granted
					in.Lexical, in.Real = permission.PathSkill, permission.PathSkill
					v := permission.Evaluate(in)
					name := fmt.Sprintf("%s/%s/%v/%s", op, pm, granted, tr.label)
					switch {
					case in.Class == permission.ClassRead && v.Decision != permission.Allow:
						t.Errorf("%s: read in a skill folder = %+v, want allow", name, v)
					case in.Class != permission.ClassRead && v.Decision != permission.Deny:
						t.Errorf("%s: %s in a skill folder = %+v, want deny", name, tr.label, v)
					}
					for _, real := range []permission.PathClass{permission.PathExternal, permission.PathWorkspace, permission.PathScratch} {
						in.Real = real
						if v := permission.Evaluate(in); v.Decision != permission.Deny {
							t.Errorf("%s: a link out of a skill folder into %s = %+v, want deny", name, real, v)
						}
					}
				}
			}
		}
	}
}

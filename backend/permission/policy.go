// Package permission decides whether a tool call may run: risk, permission
// modes, the operating-mode matrix, explicit outside-path access, session
// grants and the approval broker. It is the only place these rules live.
package permission

import (
	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Risk is a tool's risk level (spec §6).
type Risk string

const (
	Low    Risk = "low"
	Medium Risk = "medium"
	High   Risk = "high"
)

// Class says what kind of authority a tool exercises; the permission modes
// treat edits and execution differently.
type Class string

const (
	ClassRead    Class = "read"    // Read, Glob, Grep
	ClassEdit    Class = "edit"    // Write, Edit
	ClassExec    Class = "exec"    // Bash
	ClassPlugin  Class = "plugin"  // plugin tools
	ClassMCP     Class = "mcp"     // user-configured MCP server tools
	ClassControl Class = "control" // mode and context controls that touch nothing
	// ClassTask reads or stops the calling session's own background tasks
	// (BashOutput, BashStop): it starts no process, names no path and
	// reaches no other session's task, so it is low risk in every mode.
	ClassTask Class = "task"
)

// Where an explicit path lands, from pathguard's classification.
type PathClass string

const (
	PathNone          PathClass = ""              // no explicit path argument
	PathWorkspace     PathClass = "workspace"     // inside the session workspace
	PathScratch       PathClass = "scratch"       // inside the session scratch folder
	PathVisualization PathClass = "visualization" // inside the session visualization folder
	PathExternal      PathClass = "external"      // anywhere else
	PathSkill         PathClass = "skill"         // inside a folder of one of the session's skills (read-only)
)

// Decision is the policy outcome before any user answer.
type Decision string

const (
	Allow Decision = "allow"
	Ask   Decision = "ask"
	Deny  Decision = "deny"
)

// Input is everything the policy looks at. It never sees the model's text.
type Input struct {
	Tool     string
	Class    Class
	Risk     Risk
	PlanSafe bool // a plugin tool with a non-empty planSafeActions list
	// Modes are the operating modes the tool belongs to; empty means every
	// mode the rules below allow.
	Modes          []string
	OperatingMode  string // agent | plan | goal
	PermissionMode string // effective: ask | accept-edits | auto
	// SessionMode is the session's own effective mode when PermissionMode
	// is a delegate's override ("" = PermissionMode): an override changes
	// the mode only inside the session's folders, so a path outside them
	// is auto-allowed only when both are auto (§10.2).
	SessionMode string
	// Lexical and Real classify the explicit path argument by spelling and by
	// where it really lands. Both are PathNone when there is none.
	Lexical PathClass
	Real    PathClass
	Granted bool // an allow-session grant exists for (session, Tool)
	// Protected classifies a change's target (and an Edit's MV
	// destination); ProtectedGranted says an allow-session grant exists for
	// ProtectedGrant(Tool, Protected, external).
	Protected        Protected
	ProtectedGranted bool
	// Temporary marks a path-less session: its high-risk tools work only
	// inside its scratch folder (spec §4b).
	Temporary bool
}

// Verdict is the policy's answer. Code and Reason explain a Deny; Reason is
// the short line an approval card shows for Ask.
type Verdict struct {
	Decision Decision
	Code     errs.Code
	Reason   string
	External bool // the call needs the explicit outside-path capability
	// Grant is the key an allow-session answer to this card installs; ""
	// means the tool name (spec §6: allow-session scope is the tool).
	Grant string
	// Details go with a Deny's error (the operating mode a proposal met).
	Details map[string]any
}

// Effective resolves the permission mode for one call: a delegate's explicit
// override, then the session's own mode unless inherit, then the global
// default, then ask.
func Effective(override, session, global string) string {
	for _, m := range []string{override, session, global} {
		switch m {
		case api.PermissionAsk, api.PermissionAcceptEdits, api.PermissionAuto:
			return m
		}
	}
	return api.PermissionAsk
}

// Evaluate applies the rules in their order of precedence:
//  1. the contract modes' hard deny (no mode, grant or card can lift it);
//  2. containment: a spelling inside scratch, visualization or a skill
//     folder must land there; a skill folder is read-only;
//  3. protected paths: a card in every mode, unless a grant for that class;
//  4. explicit outside paths: auto allows, every other mode asks;
//  5. the risk and permission-mode table, with session grants.
func Evaluate(in Input) Verdict {
	if v, denied := ContractDeny(in); denied {
		return v
	}
	if (in.Lexical == PathScratch || in.Lexical == PathVisualization) && in.Real != in.Lexical {
		return Verdict{Decision: Deny, Code: errs.PathOutsideWorkspace,
			Reason: "a link inside the session's " + string(in.Lexical) + " folder points outside it; use a path that stays inside"}
	}
	if v, decided := skillRoot(in); decided {
		return v
	}
	external := in.Real == PathExternal
	if external && in.Temporary && in.Class != ClassRead && !in.Class.Control() {
		return Verdict{Decision: Deny, Code: errs.PathOutsideWorkspace,
			Reason: "a temporary session changes files only inside its scratch folder; start a session in a project to work on other files"}
	}
	if in.Protected != NotProtected {
		// Issue 13: an edit permission must not become code execution at
		// the next git command, nor widen the agent's own configuration.
		if in.ProtectedGranted {
			return Verdict{Decision: Allow, External: external}
		}
		return Verdict{Decision: Ask, External: external, Reason: in.Protected.Reason(),
			Grant: ProtectedGrant(in.Tool, in.Protected, external)}
	}
	auto := in.PermissionMode == api.PermissionAuto
	if external {
		sessionAuto := in.SessionMode == "" || in.SessionMode == api.PermissionAuto
		switch {
		case auto && sessionAuto:
			return Verdict{Decision: Allow, External: true}
		case in.Granted:
			return Verdict{Decision: Allow, External: true}
		default:
			return Verdict{Decision: Ask, External: true, Reason: "reads or writes a path outside the workspace"}
		}
	}
	if in.Class.Control() {
		return Verdict{Decision: Allow}
	}
	switch in.Class {
	case ClassRead:
		return Verdict{Decision: Allow}
	case ClassTask:
		// Reading or stopping a task the session's own (already approved)
		// Bash call started adds no authority: no card, even in ask mode or
		// Plan/Goal, where Bash itself stays available.
		return Verdict{Decision: Allow}
	case ClassEdit:
		if (in.Real == PathScratch || in.Real == PathVisualization) && in.Lexical == in.Real {
			return Verdict{Decision: Allow} // addressed to a host-owned root: cannot touch the project
		}
		if in.PermissionMode != api.PermissionAsk || in.Granted {
			return Verdict{Decision: Allow}
		}
		return Verdict{Decision: Ask, Reason: "changes a file in the workspace"}
	}
	// Bash, plugin and MCP tools: only auto or a grant skips the card. An MCP
	// server's self-declared risk is never trusted.
	if in.Class != ClassMCP && in.Risk == Low {
		return Verdict{Decision: Allow}
	}
	if auto || in.Granted {
		return Verdict{Decision: Allow}
	}
	return Verdict{Decision: Ask, Reason: askReason(in.Class)}
}

// skillRoot decides a path in (or spelled into) a skill folder (issue 18):
// reads need no card, every other tool is refused, and a link out of the
// folder is refused like one out of scratch.
func skillRoot(in Input) (Verdict, bool) {
	switch {
	case in.Lexical == PathSkill && in.Real != PathSkill:
		return Verdict{Decision: Deny, Code: errs.PathOutsideWorkspace,
			Reason: "a link inside a skill's folder points outside it; use a path that stays inside"}, true
	case in.Real != PathSkill:
		return Verdict{}, false
	case in.Class == ClassRead:
		return Verdict{Decision: Allow}, true
	}
	return Verdict{Decision: Deny, Code: errs.SkillReadOnly,
		Reason: "a skill's folder is read-only: " + in.Tool + " cannot change it; copy what you need into the workspace or the scratch folder"}, true
}

func askReason(c Class) string {
	switch c {
	case ClassExec:
		return "runs a command on your machine"
	case ClassMCP:
		return "MCP server tool requires approval"
	default:
		return "plugin tool requires approval"
	}
}

// ContractDeny is the operating-mode deny: a tool outside the modes it
// declares, and the Plan/Goal hard deny of spec §10. It looks only at the
// tool and the operating mode, so the host can apply it before anything
// else, even before the arguments are validated.
func ContractDeny(in Input) (Verdict, bool) {
	if v, denied := modeDeny(in); denied {
		return v, true
	}
	if in.OperatingMode != api.ModePlan && in.OperatingMode != api.ModeGoal {
		return Verdict{}, false
	}
	deny := func(code errs.Code, what string) (Verdict, bool) {
		return Verdict{Decision: Deny, Code: code,
			Reason: what + " is not available in " + in.OperatingMode + " mode; switch the session to Agent mode to change files"}, true
	}
	switch {
	case in.Tool == "Write":
		return deny(errs.WriteDisabledInPlan, "Write")
	case in.Tool == "Edit":
		return deny(errs.EditDisabledInPlan, "Edit")
	case in.Class == ClassEdit:
		return deny(errs.ToolDisabledInPlan, in.Tool)
	case in.Class == ClassPlugin && !in.PlanSafe:
		return deny(errs.PluginDisabledInPlan, in.Tool)
	case in.Class == ClassMCP:
		// An MCP server's tool may change anything the server reaches; its
		// own read-only claims are not trusted (spec §6, §10).
		return Verdict{Decision: Deny, Code: errs.ToolDisabledInPlan,
			Reason: in.Tool + " is an MCP server tool, not available in " + in.OperatingMode + " mode; switch the session to Agent mode to use it"}, true
	case in.Class == "":
		return deny(errs.ToolDisabledInPlan, in.Tool) // unknown tools
	}
	return Verdict{}, false
}

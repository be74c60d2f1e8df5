package permission

import (
	"fmt"
	"slices"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The runtime's own tools act on the running turn, not on files: the
// checklist, questions, context, mode switches and proposals. Each belongs
// to the operating modes its tool declares (Input.Modes); outside them it
// is neither offered nor run, and the refusal says where to go instead.
const (
	// ClassChecklist keeps the Agent checklist (TodoWrite).
	ClassChecklist Class = "checklist"
	// ClassModeSwitch leaves Agent mode for a contract mode (EnterPlanMode,
	// EnterGoalMode).
	ClassModeSwitch Class = "mode-switch"
	// ClassProposal submits a contract mode's document for approval
	// (SubmitPlan, SubmitGoal); Modes names the one mode it finishes.
	ClassProposal Class = "proposal"
)

// Control reports whether c is a class of the runtime's own tools: they
// touch no file, run no command and need no card.
func (c Class) Control() bool {
	switch c {
	case ClassControl, ClassChecklist, ClassModeSwitch, ClassProposal:
		return true
	}
	return false
}

// enterTool and submitTool name the runtime tools a refusal points to, by
// contract mode.
func enterTool(mode string) string {
	if mode == api.ModeGoal {
		return "EnterGoalMode"
	}
	return "EnterPlanMode"
}

func submitTool(mode string) string {
	if mode == api.ModeGoal {
		return "SubmitGoal"
	}
	return "SubmitPlan"
}

// ModeName is an operating mode as a refusal names it.
func ModeName(mode string) string {
	switch mode {
	case api.ModePlan:
		return "Plan"
	case api.ModeGoal:
		return "Goal"
	}
	return "Agent"
}

// modeDeny refuses a tool outside the operating modes it declares.
func modeDeny(in Input) (Verdict, bool) {
	if len(in.Modes) == 0 || slices.Contains(in.Modes, in.OperatingMode) {
		return Verdict{}, false
	}
	deny := func(code errs.Code, details map[string]any, format string, args ...any) (Verdict, bool) {
		return Verdict{Decision: Deny, Code: code, Reason: fmt.Sprintf(format, args...), Details: details}, true
	}
	mode := in.OperatingMode
	switch in.Class {
	case ClassChecklist:
		return deny(errs.ToolDisabledInPlan, nil, "%s keeps the Agent checklist and is not available in %s mode; put the steps in the document you submit instead",
			in.Tool, ModeName(mode))
	case ClassModeSwitch:
		return deny(errs.ToolDisabledInPlan, nil, "%s is available only in Agent mode and the session is in %s mode already; finish with %s",
			in.Tool, ModeName(mode), submitTool(mode))
	case ClassProposal:
		kind := in.Modes[0]
		details := map[string]any{"operatingMode": mode}
		if mode == api.ModePlan || mode == api.ModeGoal {
			return deny(errs.PlanKindMismatch, details, "%s submits a %s, but the session is in %s mode; submit with %s instead",
				in.Tool, kind, ModeName(mode), submitTool(mode))
		}
		return deny(errs.PlanNotActive, details, "%s works only in %s mode and the session is in %s mode; call %s alone first if a %s needs the user's approval, otherwise just do the work",
			in.Tool, ModeName(kind), ModeName(mode), enterTool(kind), kind)
	}
	return deny(errs.ToolDisabledInPlan, nil, "%s is not available in %s mode", in.Tool, ModeName(mode))
}

// Offered reports whether the policy lets a mode offer the tool in at all:
// a tool it would refuse there whatever the permission mode, path or grant
// is not shown to the model.
func Offered(in Input) bool {
	in.PermissionMode = api.PermissionAuto
	return Evaluate(in).Decision != Deny
}

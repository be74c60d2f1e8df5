package permission_test

import (
	"fmt"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// The runtime's own tools belong to the modes they declare: the policy
// offers them there only, and refuses a call elsewhere with the code and
// the pointer to the right tool the model always got.
func TestControlToolsByMode(t *testing.T) {
	type tool struct {
		name  string
		class permission.Class
		modes []string
	}
	todo := tool{"TodoWrite", permission.ClassChecklist, []string{"agent"}}
	enterPlan := tool{"EnterPlanMode", permission.ClassModeSwitch, []string{"agent"}}
	submitPlan := tool{"SubmitPlan", permission.ClassProposal, []string{"plan"}}
	submitGoal := tool{"SubmitGoal", permission.ClassProposal, []string{"goal"}}
	ask := tool{"asktool", permission.ClassControl, nil}
	for _, tc := range []struct {
		tool   tool
		mode   string
		code   errs.Code
		reason string
		detail bool // the refusal names the operating mode in its details
	}{
		{todo, "agent", "", "", false},
		{todo, "plan", errs.ToolDisabledInPlan, "TodoWrite keeps the Agent checklist and is not available in Plan mode; put the steps in the document you submit instead", false},
		{todo, "goal", errs.ToolDisabledInPlan, "TodoWrite keeps the Agent checklist and is not available in Goal mode; put the steps in the document you submit instead", false},
		{enterPlan, "agent", "", "", false},
		{enterPlan, "plan", errs.ToolDisabledInPlan, "EnterPlanMode is available only in Agent mode and the session is in Plan mode already; finish with SubmitPlan", false},
		{enterPlan, "goal", errs.ToolDisabledInPlan, "EnterPlanMode is available only in Agent mode and the session is in Goal mode already; finish with SubmitGoal", false},
		{submitPlan, "plan", "", "", false},
		{submitPlan, "goal", errs.PlanKindMismatch, "SubmitPlan submits a plan, but the session is in Goal mode; submit with SubmitGoal instead", true},
		{submitPlan, "agent", errs.PlanNotActive, "SubmitPlan works only in Plan mode and the session is in Agent mode; call EnterPlanMode alone first if a plan needs the user's approval, otherwise just do the work", true},
		{submitGoal, "goal", "", "", false},
		{submitGoal, "plan", errs.PlanKindMismatch, "SubmitGoal submits a goal, but the session is in Plan mode; submit with SubmitPlan instead", true},
		{submitGoal, "agent", errs.PlanNotActive, "SubmitGoal works only in Goal mode and the session is in Agent mode; call EnterGoalMode alone first if a goal needs the user's approval, otherwise just do the work", true},
		{ask, "agent", "", "", false}, {ask, "plan", "", "", false}, {ask, "goal", "", "", false},
	} {
		t.Run(fmt.Sprintf("%s_in_%s", tc.tool.name, tc.mode), func(t *testing.T) {
			in := permission.Input{Tool: tc.tool.name, Class: tc.tool.class, Risk: permission.Low, OperatingMode: tc.mode, Modes: tc.tool.modes}
			if !tc.tool.class.Control() {
				t.Errorf("%s is not a control class", tc.tool.class)
			}
			if got := permission.Offered(in); got != (tc.code == "") {
				t.Errorf("offered = %v", got)
			}
			v, denied := permission.ContractDeny(in)
			if denied != (tc.code != "") || v.Code != tc.code || v.Reason != tc.reason {
				t.Errorf("deny = %v %+v, want %s %q", denied, v, tc.code, tc.reason)
			}
			if got := v.Details["operatingMode"]; tc.detail != (got == tc.mode) {
				t.Errorf("details = %v", v.Details)
			}
			for _, pm := range []string{"ask", "accept-edits", "auto"} {
				in.PermissionMode = pm
				if v := permission.Evaluate(in); (v.Decision == permission.Allow) != (tc.code == "") || (tc.code != "" && v.Code != tc.code) {
					t.Errorf("%s: evaluate = %+v", pm, v)
				}
			}
		})
	}
}

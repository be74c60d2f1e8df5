package tools_test

import (
	"encoding/json"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func TestDelegationToolsArgsAndModes(t *testing.T) {
	reg, err := tools.NewRegistry(tools.Delegation()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool, args string
		ok         bool
	}{
		{tools.Task, `{"subagent":"explore","description":"find it","prompt":"where is main?"}`, true},
		{tools.Task, `{"subagent":"explore","description":"find it"}`, false},
		{tools.TaskWait, `{}`, true},
		{tools.TaskWait, `{"ids":["a"],"mode":"any","timeoutSeconds":900}`, true},
		{tools.TaskWait, `{"timeoutSeconds":901}`, false},
		{tools.TaskWait, `{"mode":"some"}`, false},
		{tools.TaskList, `{}`, true},
		{tools.TaskList, `{"x":1}`, false},
		{tools.TaskStop, `{"id":"a"}`, true},
		{tools.TaskStop, `{}`, false},
	} {
		_, _, err := reg.Validate(tc.tool, json.RawMessage(tc.args))
		if (err == nil) != tc.ok {
			t.Errorf("%s %s: err = %v, want ok %v", tc.tool, tc.args, err, tc.ok)
		}
	}
	for _, name := range reg.Names() {
		tool, _ := reg.Lookup(name)
		s := tool.Spec()
		for mode, want := range map[string]bool{api.ModeAgent: true, api.ModePlan: false, api.ModeGoal: false} {
			in := permission.Input{Tool: s.Name, Class: s.Class, Risk: s.Risk, OperatingMode: mode, Modes: s.Modes}
			if got := permission.Offered(in); got != want {
				t.Errorf("%s offered in %s = %v", name, mode, got)
			}
		}
		res := tool.Run(t.Context(), &tools.Call{Args: json.RawMessage(`{}`)})
		if res.OK || res.Code != errs.ToolNotFound {
			t.Errorf("%s without a turn = %+v", name, res)
		}
	}
}

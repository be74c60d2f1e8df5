package tools_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

func runtimeRegistry(t *testing.T) *tools.Registry {
	t.Helper()
	reg, err := tools.NewRegistry(tools.Runtime()...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// Which runtime tools each mode offers is the policy's answer to the
// modes their specs declare, in registration order.
func TestRuntimeToolsPerMode(t *testing.T) {
	for mode, want := range map[string][]string{
		"agent": {"TodoWrite", "asktool", "new_context", "EnterPlanMode", "EnterGoalMode", "ToolSearch"},
		"plan":  {"SubmitPlan", "asktool", "new_context", "ToolSearch"},
		"goal":  {"SubmitGoal", "asktool", "new_context", "ToolSearch"},
	} {
		var got []string
		for _, tool := range tools.Runtime() {
			s := tool.Spec()
			var schema map[string]any
			if err := json.Unmarshal(s.Schema, &schema); err != nil || schema["type"] != "object" || s.Description == "" || !s.Class.Control() {
				t.Errorf("%s: schema %s, class %s, %v", s.Name, s.Schema, s.Class, err)
			}
			in := permission.Input{Tool: s.Name, Class: s.Class, Risk: s.Risk, OperatingMode: mode, Modes: s.Modes}
			if permission.Offered(in) {
				got = append(got, s.Name)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: runtime tools = %v, want %v", mode, got, want)
		}
	}
	for _, tool := range tools.Runtime() {
		s := tool.Spec()
		exclusive := strings.HasPrefix(s.Name, "Enter") || strings.HasPrefix(s.Name, "Submit")
		if s.Exclusive != exclusive || s.Parallel || s.Loader != (s.Name == tools.ToolSearch) {
			t.Errorf("%s: exclusive %v, parallel %v, loader %v", s.Name, s.Exclusive, s.Parallel, s.Loader)
		}
	}
}

// The registry validates the runtime tools' arguments with their own
// checks, whose refusals name the item.
func TestRuntimeToolValidation(t *testing.T) {
	reg := runtimeRegistry(t)
	for _, tc := range []struct{ tool, args, field string }{
		{tools.TodoWrite, `{}`, "todos"},
		{tools.TodoWrite, `{"todos":"x"}`, "todos"},
		{tools.TodoWrite, `{"todos":[{"content":"a","status":"done"}]}`, "todos[0].status"},
		{tools.TodoWrite, `{"todos":[{"content":"a","status":"pending"},{"content":" ","status":"pending"}]}`, "todos[1].content"},
		{tools.TodoWrite, `{"todos":[{"content":"a","status":"in_progress"},{"content":"b","status":"in_progress"}]}`, "todos[1].status"},
		{tools.TodoWrite, `{"todos":[{"content":"a","status":"pending","priority":"high"}]}`, "todos[0].priority"},
		{tools.TodoWrite, `{"todos":[{"content":"a"}]}`, "todos[0].status"},
		{tools.TodoWrite, `{"todos":[{"content":"a","status":"pending","activeForm":3}]}`, "todos[0].activeForm"},
		{tools.TodoWrite, `{"todos":[],"extra":1}`, "extra"},
		{tools.TodoWrite, `{"todos":[` + strings.Repeat(`{"content":"a","status":"pending"},`, tools.MaxTodos) + `{"content":"a","status":"pending"}]}`, "todos"},
		{tools.AskTool, `{"questions":[]}`, "questions"},
		{tools.AskTool, `{"questions":[{"question":""}]}`, "questions[0].question"},
		{tools.AskTool, `{"questions":[{"question":"q","options":[""]}]}`, "questions[0].options[0]"},
		{tools.AskTool, `{"questions":[{"question":"q","options":["a","a"]}]}`, "questions[0].options[1]"},
		{tools.AskTool, `{"questions":[{"question":"q","options":[{"label":"a","tip":"x"}]}]}`, "questions[0].options[0].tip"},
		{tools.AskTool, `{"questions":[{"question":"q","options":[3]}]}`, "questions[0].options[0]"},
		{tools.AskTool, `{"questions":[{"question":"q","multiSelect":true}]}`, "questions[0].multiSelect"},
		{tools.AskTool, `{"questions":[{"question":"q","multiSelect":"yes","options":["a"]}]}`, "questions[0].multiSelect"},
		{tools.NewContext, `{"now":true}`, "now"},
		{tools.EnterPlanMode, `{"why":"x"}`, "why"},
		{tools.SubmitPlan, `{"title":"p"}`, "markdown"},
		{tools.SubmitGoal, `{"title":"p","markdown":"m","extra":1}`, "extra"},
		{tools.SubmitPlan, `{"title":"","markdown":"m"}`, "title"},
		{tools.ToolSearch, `{}`, "query"},
		{tools.ToolSearch, `{"query":"x","limit":11}`, "limit"},
		{tools.ToolSearch, `{"query":"x","limit":1.5}`, "limit"},
	} {
		_, _, err := reg.Validate(tc.tool, json.RawMessage(tc.args))
		if e := errs.As(err); e == nil || e.Code != errs.InvalidArgument || e.Details["field"] != tc.field {
			t.Errorf("%s %.80s: err = %v, want INVALID_ARGUMENT on %s", tc.tool, tc.args, err, tc.field)
		}
	}
	for _, tc := range []struct{ tool, args string }{
		{tools.TodoWrite, `{"todos":[{"content":"Read","status":"completed"},{"content":"Fix","status":"in_progress","activeForm":"Fixing"},{"content":"Test","status":"pending","activeForm":null}]}`},
		{tools.TodoWrite, `{"todos":[]}`},
		{tools.AskTool, `{"questions":[{"question":"q","options":["a",{"label":"b","description":"B"}],"multiSelect":true}]}`},
		{tools.NewContext, ``},
		{tools.EnterGoalMode, `{}`},
		{tools.SubmitPlan, `{"title":"p","markdown":"m","question":null}`},
		{tools.ToolSearch, `{"query":"select:A,B","limit":10}`},
	} {
		if _, _, err := reg.Validate(tc.tool, json.RawMessage(tc.args)); err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.args, err)
		}
	}
}

// Called outside an agent turn (the CLI), a runtime tool refuses.
func TestRuntimeToolsNeedATurn(t *testing.T) {
	for _, tool := range tools.Runtime() {
		res := tool.Run(t.Context(), &tools.Call{Args: json.RawMessage(`{}`), Outcome: &tools.Outcome{}})
		if res.OK || res.Code != errs.ToolNotFound || !strings.Contains(res.Message, "running agent turn") {
			t.Errorf("%s without a turn = %+v", tool.Spec().Name, res)
		}
	}
}

package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// invoking is a Turn whose prompt invoked one skill with /skill:.
type invoking struct {
	tools.Turn
	name string
}

func (i invoking) InvokedSkill() string { return i.name }

func skillSet() skills.Set {
	return skills.Set{Skills: []skills.Skill{
		{Name: "pdf", Description: "Fill PDF forms.", Source: skills.SourceUser, Path: "/home/u/.claude/skills/pdf/SKILL.md",
			Dir: "/home/u/.claude/skills/pdf", Body: "Run scripts/fill.py on the form."},
		{Name: "notes", Description: "Keep notes.", Source: skills.SourceUser, Path: "/data/skills/notes.md", Body: "Write notes in scratch."},
		{Name: skills.VisualizeName, Description: "Charts.", Source: skills.SourceBuiltin, Body: "Write a fragment."},
		{Name: "deploy", Description: "Deploy.", Source: skills.SourceProject, DisableModelInvocation: true,
			Path: "/p/.agents/skills/deploy/SKILL.md", Dir: "/p/.agents/skills/deploy", Body: "make ship"},
	}}
}

func runSkill(t *testing.T, lookup tools.SkillLookup, turn tools.Turn, name string) tools.Result {
	t.Helper()
	args, _ := json.Marshal(map[string]string{"name": name})
	return tools.NewSkillTool(lookup).Run(t.Context(), &tools.Call{SessionID: "s1", Args: args, Turn: turn})
}

// The Skill tool's schema and its results are model-facing text.
func TestSkillToolGolden(t *testing.T) {
	lookup := func(context.Context, string) (skills.Set, error) { return skillSet(), nil }
	var b strings.Builder
	spec := tools.NewSkillTool(lookup).Spec()
	b.WriteString(spec.Description + "\n" + string(spec.Schema) + "\n")
	for _, name := range []string{"pdf", "notes", skills.VisualizeName} {
		res := runSkill(t, lookup, nil, name)
		if !res.OK {
			t.Fatalf("%s = %+v", name, res)
		}
		b.WriteString("\n--- " + name + " (root " + res.Root + ", path " + res.Path + ")\n" + res.Content)
	}
	golden.Assert(t, filepath.Join("testdata", "skill_results.golden"), b.String())
	if spec.Deferred || spec.Class != "read" || spec.Risk != "low" || spec.Mutates {
		t.Fatalf("spec = %+v", spec)
	}
}

func TestSkillToolRefusals(t *testing.T) {
	lookup := func(context.Context, string) (skills.Set, error) { return skillSet(), nil }
	tests := []struct {
		name  string
		turn  tools.Turn
		skill string
		code  errs.Code
	}{
		{"unknown", nil, "nope", errs.SkillNotFound},
		{"user-only outside a turn", nil, "deploy", errs.SkillNotInvocable},
		{"user-only, another skill invoked", invoking{name: "pdf"}, "deploy", errs.SkillNotInvocable},
		{"user-only, invoked", invoking{name: "deploy"}, "deploy", ""},
		{"slash spelling", nil, "/skill:pdf", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runSkill(t, lookup, tt.turn, tt.skill)
			if res.Code != tt.code || res.OK != (tt.code == "") {
				t.Fatalf("Skill %s = %+v", tt.skill, res)
			}
			if tt.code == errs.SkillNotFound && (!strings.Contains(res.Message, "pdf") || strings.Contains(res.Message, "deploy")) {
				t.Fatalf("the refusal should name the model's skills only: %s", res.Message)
			}
		})
	}
	failing := func(context.Context, string) (skills.Set, error) { return skills.Set{}, errors.New("boom") }
	if res := runSkill(t, failing, nil, "pdf"); res.OK {
		t.Fatalf("a failed lookup = %+v", res)
	}
}

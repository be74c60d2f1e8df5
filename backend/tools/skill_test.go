package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// pagedBody is a skill body of n numbered lines of about 100 bytes each.
func pagedBody(n int) string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("step %04d: %s", i+1, strings.Repeat("x", 88))
	}
	return strings.Join(lines, "\n")
}

func runSkillAt(t *testing.T, lookup tools.SkillLookup, name string, offset int) tools.Result {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"name": name, "offset": offset})
	return tools.NewSkillTool(lookup).Run(t.Context(), &tools.Call{SessionID: "s1", Args: args})
}

// A body longer than one result comes in pages of whole lines: each page
// fits the result bound, names the next offset, and together they are the
// whole body, in order, for a single-file skill (which Read cannot reach)
// as for a folder one.
func TestSkillToolPagesALongBody(t *testing.T) {
	body := pagedBody(1200) // ~120 KB: three pages
	for _, k := range []skills.Skill{
		{Name: "long", Description: "Long.", Source: skills.SourceUser, Path: "/data/skills/long.md", Body: body},
		{Name: "longdir", Description: "Long.", Source: skills.SourceProject, Path: "/p/.agents/skills/longdir/SKILL.md", Dir: "/p/.agents/skills/longdir", Body: body},
	} {
		t.Run(k.Name, func(t *testing.T) {
			lookup := func(context.Context, string) (skills.Set, error) { return skills.Set{Skills: []skills.Skill{k}}, nil }
			var got []string
			offset, pages := 0, 0
			for {
				res := runSkillAt(t, lookup, k.Name, offset)
				pages++
				if !res.OK || len(res.Content) > tools.ResultMaxBytes || strings.Count(res.Content, "\n") >= tools.ResultMaxLines {
					t.Fatalf("page %d: ok=%v, %d bytes: %s", pages, res.OK, len(res.Content), res.Message)
				}
				if !strings.HasPrefix(res.Content, "# Skill: "+k.Name+"\n") {
					t.Fatalf("page %d lacks the header: %.80q", pages, res.Content)
				}
				_, rest, _ := strings.Cut(res.Content, "\n\n")
				rest, trailer, _ := strings.Cut(rest, "\n\n[lines ")
				got = append(got, strings.Split(strings.TrimSuffix(rest, "\n"), "\n")...)
				if res.Fields["totalLines"] != 1200 {
					t.Fatalf("page %d fields = %v", pages, res.Fields)
				}
				if !res.Truncated {
					if !strings.Contains(trailer, "of 1200; the end of the skill]") || res.Notice != "" {
						t.Fatalf("last page trailer %q, notice %q", trailer, res.Notice)
					}
					break
				}
				next := len(got) + 1
				want := fmt.Sprintf(`call Skill with {"name": %q, "offset": %d} for the rest`, k.Name, next)
				if !strings.Contains(res.Notice, want) || !strings.Contains(trailer, fmt.Sprintf("next offset=%d]", next)) || strings.Contains(res.Notice, "Read") {
					t.Fatalf("page %d notice %q, trailer %q; want offset %d", pages, res.Notice, trailer, next)
				}
				offset = next
			}
			if pages != 3 || strings.Join(got, "\n") != body {
				t.Fatalf("%d pages; reassembled body equal: %v", pages, strings.Join(got, "\n") == body)
			}
		})
	}
}

func TestSkillToolPageEdges(t *testing.T) {
	long := strings.Repeat("y", 60<<10) // one line longer than a page
	lookup := func(context.Context, string) (skills.Set, error) {
		return skills.Set{Skills: []skills.Skill{
			{Name: "short", Description: "S.", Source: skills.SourceUser, Path: "/d/short.md", Body: "one\ntwo"},
			{Name: "wide", Description: "W.", Source: skills.SourceUser, Path: "/d/wide.md", Body: long + "\nafter"},
		}}, nil
	}
	for _, off := range []int{-1, 3, 99} {
		if res := runSkillAt(t, lookup, "short", off); res.OK || res.Code != errs.InvalidArgument || !strings.Contains(res.Message, "from 1 to 2") {
			t.Fatalf("offset %d = %+v", off, res)
		}
	}
	res := runSkillAt(t, lookup, "short", 2)
	if !res.OK || !strings.HasSuffix(res.Content, "\ntwo\n\n[lines 2-2 of 2; the end of the skill]\n") || res.Truncated {
		t.Fatalf("the second line of a short skill = %+v", res)
	}
	if res := runSkill(t, lookup, nil, "short"); strings.Contains(res.Content, "[lines") || res.Fields["offset"] != nil {
		t.Fatalf("a skill that fits has no trailer: %q %v", res.Content, res.Fields)
	}
	res = runSkill(t, lookup, nil, "wide")
	if !res.OK || len(res.Content) > tools.ResultMaxBytes || !strings.Contains(res.Content, "[line 1 clipped: ") ||
		!strings.Contains(res.Notice, `"offset": 2`) || strings.Contains(res.Content, "after") {
		t.Fatalf("a line longer than a page = %d bytes, notice %q, tail %q", len(res.Content), res.Notice, res.Content[len(res.Content)-120:])
	}
	if res := runSkillAt(t, lookup, "wide", 2); !res.OK || !strings.Contains(res.Content, "\nafter\n") {
		t.Fatalf("the line after the clipped one = %+v", res)
	}
}

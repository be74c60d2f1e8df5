package subagent_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/frontmatter"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

func TestParseRules(t *testing.T) {
	user := subagent.File{Source: subagent.SourceUser, Path: "/data/subagents/x.md"}
	project := subagent.File{Source: subagent.SourceProject, Path: "/p/.agents/subagents/x.md"}
	claude := subagent.File{Source: subagent.SourceProject, Path: "/p/.claude/agents/x.md", Claude: true}
	builtin := subagent.File{Source: subagent.SourceBuiltin, Path: "builtin:x"}
	const desc = "description: d\n"
	tests := []struct {
		name  string
		file  subagent.File
		front string
		check func(d subagent.Definition) bool
		warn  string // a part of one warning; "" = no warning at all
	}{
		{"defaults", user, "name: x\n" + desc, func(d subagent.Definition) bool {
			return d.Name == "x" && d.MaxTurns == 24 && d.Permission == subagent.PermissionInherit && d.Model == "" &&
				slices.Equal(d.Tools.Names, []string{"Read", "Glob", "Grep"}) && !d.Tools.Inherit
		}, ""},
		{"star is the seven working tools", user, "name: x\n" + desc + "tools: '*'\n", func(d subagent.Definition) bool {
			return slices.Equal(d.Tools.Names, subagent.WorkingTools())
		}, ""},
		{"a comma-separated string", user, "name: x\n" + desc + "tools: Bash,  Read ,\n", func(d subagent.Definition) bool {
			return slices.Equal(d.Tools.Names, []string{"Read", "Bash"})
		}, ""},
		{"inherit alone", user, "name: x\n" + desc + "tools: inherit\n", func(d subagent.Definition) bool {
			return d.Tools.Inherit && len(d.Tools.Names) == 0
		}, ""},
		{"withdrawn A2A and Peer are unknown", user, "name: x\n" + desc + "tools: [Read, A2A, Peer]\n", func(d subagent.Definition) bool {
			return slices.Equal(d.Tools.Names, []string{"Read"})
		}, "dropped unknown tools: A2A, Peer"},
		{"only unknown tools fall back to read-only", user, "name: x\n" + desc + "tools: [WebFetch]\n", func(d subagent.Definition) bool {
			return slices.Equal(d.Tools.Names, subagent.DefaultTools())
		}, "no usable tools left"},
		{"tools of the wrong type", user, "name: x\n" + desc + "tools: {a: 1}\n", func(d subagent.Definition) bool {
			return slices.Equal(d.Tools.Names, subagent.DefaultTools())
		}, "tools must be a list"},
		{"maxTurns in range", user, "name: x\n" + desc + "maxTurns: 80\n", func(d subagent.Definition) bool { return d.MaxTurns == 80 }, ""},
		{"maxTurns clamped", user, "name: x\n" + desc + "maxTurns: 81\n", func(d subagent.Definition) bool { return d.MaxTurns == 80 }, "over the limit: using 80"},
		{"maxTurns negative", user, "name: x\n" + desc + "maxTurns: -3\n", func(d subagent.Definition) bool { return d.MaxTurns == 24 }, "below 1"},
		{"maxTurns not a number", user, "name: x\n" + desc + "maxTurns: many\n", func(d subagent.Definition) bool { return d.MaxTurns == 24 }, "not a whole number"},
		{"maxTurns fractional", user, "name: x\n" + desc + "maxTurns: 2.5\n", func(d subagent.Definition) bool { return d.MaxTurns == 24 }, "not a whole number"},
		{"user permission kept", user, "name: x\n" + desc + "permission: auto\n", func(d subagent.Definition) bool { return d.Permission == subagent.PermissionAuto }, ""},
		{"builtin permission kept", builtin, "name: x\n" + desc + "permission: accept-edits\n", func(d subagent.Definition) bool {
			return d.Permission == subagent.PermissionAcceptEdits
		}, ""},
		{"project permission dropped", project, "name: x\n" + desc + "permission: accept-edits\n", func(d subagent.Definition) bool {
			return d.Permission == subagent.PermissionInherit
		}, "permission accept-edits dropped"},
		{"project inherit is no upgrade", project, "name: x\n" + desc + "permission: inherit\n", func(d subagent.Definition) bool {
			return d.Permission == subagent.PermissionInherit
		}, ""},
		{"claude acceptEdits is mapped, then dropped for a project", claude, "name: x\n" + desc + "permissionMode: acceptEdits\n", func(d subagent.Definition) bool {
			return d.Permission == subagent.PermissionInherit
		}, "permissionMode acceptEdits (accept-edits) dropped"},
		{"claude default is ask, then dropped", claude, "name: x\n" + desc + "tools: Read\npermissionMode: default\n", nil, "permissionMode default (ask) dropped"},
		{"claude plan is dropped", claude, "name: x\n" + desc + "tools: Read\npermissionMode: plan\n", nil, "permissionMode plan dropped"},
		{"permissionMode outside .claude is an unknown key", user, "name: x\n" + desc + "permissionMode: bypassPermissions\n", func(d subagent.Definition) bool {
			return d.Permission == subagent.PermissionInherit
		}, "ignored unknown keys: permissionMode"},
		{"model inherit", user, "name: x\n" + desc + "model: inherit\n", func(d subagent.Definition) bool { return d.Model == "" && d.ModelSpec == "inherit" }, ""},
		{"model alias", user, "name: x\n" + desc + "model: sonnet\n", func(d subagent.Definition) bool { return d.Model == "p-claude" }, ""},
		{"model unknown", user, "name: x\n" + desc + "model: gpt-9\n", func(d subagent.Definition) bool { return d.Model == "" }, "not a saved provider"},
		{"name from the file", user, desc, func(d subagent.Definition) bool { return d.Name == "x" }, "named \"x\" after the file"},
		{"a 64-character name", user, "name: " + strings.Repeat("a", 64) + "\n" + desc, func(d subagent.Definition) bool { return len(d.Name) == 64 }, ""},
		{"a 1024-character description", user, "name: x\ndescription: " + strings.Repeat("é", 1024) + "\n", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := subagent.Parse([]byte("---\n"+tt.front+"---\nPrompt.\n"), tt.file, profiles)
			if err != nil {
				t.Fatal(err)
			}
			if tt.check != nil && !tt.check(d) {
				t.Errorf("definition: %+v", d)
			}
			if tt.warn == "" && len(d.Warnings) > 0 {
				t.Errorf("unexpected warnings %q", d.Warnings)
			}
			if tt.warn != "" && !slices.ContainsFunc(d.Warnings, func(w string) bool { return strings.Contains(w, tt.warn) }) {
				t.Errorf("warnings %q lack %q", d.Warnings, tt.warn)
			}
			if d.Source != tt.file.Source || d.Path != tt.file.Path || d.Prompt != "Prompt." {
				t.Errorf("source %q path %q prompt %q", d.Source, d.Path, d.Prompt)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	f := subagent.File{Source: subagent.SourceUser, Path: "/d/Bad Stem.md"}
	tests := []struct {
		name, in, want string
	}{
		{"no name and a bad file name", "---\ndescription: d\n---\nP\n", "the file name \"Bad Stem\" is not a valid one"},
		{"uppercase", "---\nname: Reviewer\ndescription: d\n---\nP\n", "name \"Reviewer\" is not valid"},
		{"a name too long", "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\nP\n", "is not valid"},
		{"a name that is a number", "---\nname: 12\ndescription: d\n---\nP\n", "name 12 is not valid"},
		{"leading dash", "---\nname: -x\ndescription: d\n---\nP\n", "is not valid"},
		{"no description", "---\nname: x\n---\nP\n", "no description"},
		{"blank description", "---\nname: x\ndescription: '  '\n---\nP\n", "no description"},
		{"description not text", "---\nname: x\ndescription: [a]\n---\nP\n", "no description"},
		{"description too long", "---\nname: x\ndescription: " + strings.Repeat("a", 1025) + "\n---\nP\n", "1025 characters; the limit is 1024"},
		{"empty prompt", "---\nname: x\ndescription: d\n---\n \n\n", "no prompt"},
		{"prompt too long", "---\nname: x\ndescription: d\n---\n" + strings.Repeat("a", 32<<10+1), "32769 bytes; the limit is 32768"},
		{"no front matter", "Just text", "no front matter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := subagent.Parse([]byte(tt.in), f, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if _, err := subagent.Parse([]byte("---\nname: x\n"), f, nil); !errors.Is(err, frontmatter.ErrUnterminated) {
		t.Errorf("unterminated: %v", err)
	}
}

// FuzzParse: whatever a file holds, Parse does not panic, and a definition
// it accepts keeps every limit.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"---\nname: x\ndescription: d\ntools: [inherit, Bash]\nmaxTurns: 99\n---\nP\n",
		"---\ndescription: d\ntools: Read, Grep\npermissionMode: plan\n---\nP\n",
		"---\nname: x\ndescription: d\nmodel: sonnet\npermission: auto\n---\nP\n",
		"---\nname: [x]\n---\n", "", "---\n---\n",
	} {
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, project bool) {
		file := subagent.File{Source: subagent.SourceUser, Path: "/d/fuzz.md", Claude: project}
		if project {
			file.Source = subagent.SourceProject
		}
		d, err := subagent.Parse(data, file, profiles)
		if err != nil {
			return
		}
		switch {
		case !subagent.ValidName(d.Name):
			t.Fatalf("invalid name %q accepted", d.Name)
		case d.Description == "" || d.Prompt == "" || len(d.Prompt) > subagent.MaxPrompt:
			t.Fatalf("description %q / prompt of %d bytes accepted", d.Description, len(d.Prompt))
		case d.MaxTurns < 1 || d.MaxTurns > subagent.MaxMaxTurns:
			t.Fatalf("maxTurns %d", d.MaxTurns)
		case project && d.Permission != subagent.PermissionInherit:
			t.Fatalf("a project definition got permission %q", d.Permission)
		case len(d.Tools.Names) == 0 && !d.Tools.Inherit && len(d.Tools.Exclude) == 0:
			t.Fatal("no tools at all")
		case slices.Contains(d.Tools.Resolve([]string{"Task", "Read"}), "Task"):
			t.Fatal("Task resolved for a delegate")
		}
		for _, n := range d.Tools.Names {
			if !slices.Contains(subagent.WorkingTools(), n) {
				t.Fatalf("tool %q is not a working tool", n)
			}
		}
	})
}

// A bare * is a YAML alias: the error says to quote it.
func TestParseBareStarHint(t *testing.T) {
	_, err := subagent.Parse([]byte("---\nname: x\ndescription: d\ntools: *\n---\nP\n"), subagent.File{Source: subagent.SourceUser, Path: "/d/x.md"}, nil)
	if !errors.Is(err, frontmatter.ErrSyntax) || !strings.Contains(err.Error(), `write tools: "*" with the quotes`) {
		t.Fatalf("err = %v", err)
	}
}

package skills_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/skills"
)

func TestParse(t *testing.T) {
	long := strings.Repeat("x", skills.MaxDescription+1)
	tests := []struct {
		name     string
		in       string
		fallback string
		want     skills.Skill
		reason   skills.Reason
	}{
		{"full", "---\nname: pdf-tools\ndescription: Work with PDFs.\n---\n# Body\n", "dir",
			skills.Skill{Name: "pdf-tools", Description: "Work with PDFs.", Body: "# Body"}, ""},
		{"name from folder", "---\ndescription: d\n---\nb", "my-skill", skills.Skill{Name: "my-skill", Description: "d", Body: "b"}, ""},
		{"disable model invocation", "---\nname: deploy\ndescription: d\ndisable-model-invocation: true\n---\n", "x",
			skills.Skill{Name: "deploy", Description: "d", DisableModelInvocation: true}, ""},
		{"crlf and bom", "\uFEFF---\r\nname: a\r\ndescription: d\r\n---\r\nbody\r\n", "x", skills.Skill{Name: "a", Description: "d", Body: "body"}, ""},
		{"unknown keys kept quiet", "---\nname: a\ndescription: d\nlicense: MIT\nallowed-tools: Read\n---\n", "x", skills.Skill{Name: "a", Description: "d"}, ""},
		{"no front matter", "# Just text\n", "a", skills.Skill{}, skills.ReasonFrontMatter},
		{"unterminated", "---\nname: a\n", "a", skills.Skill{}, skills.ReasonFrontMatter},
		{"not a mapping", "---\n- a\n---\n", "a", skills.Skill{}, skills.ReasonFrontMatter},
		{"upper-case name", "---\nname: PDF\ndescription: d\n---\n", "a", skills.Skill{}, skills.ReasonName},
		{"name with slash", "---\nname: a/b\ndescription: d\n---\n", "a", skills.Skill{}, skills.ReasonName},
		{"name too long", "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", "a", skills.Skill{}, skills.ReasonName},
		{"name of 64", "---\nname: " + strings.Repeat("a", 64) + "\ndescription: d\n---\n", "a", skills.Skill{Name: strings.Repeat("a", 64), Description: "d"}, ""},
		{"name not text", "---\nname: [a]\ndescription: d\n---\n", "a", skills.Skill{}, skills.ReasonName},
		{"no name, bad folder name", "---\ndescription: d\n---\n", "My Skill", skills.Skill{}, skills.ReasonName},
		{"no description", "---\nname: a\n---\n", "a", skills.Skill{}, skills.ReasonDescription},
		{"blank description", "---\nname: a\ndescription: '  '\n---\n", "a", skills.Skill{}, skills.ReasonDescription},
		{"description not text", "---\nname: a\ndescription: {x: 1}\n---\n", "a", skills.Skill{}, skills.ReasonField},
		{"description too long", "---\nname: a\ndescription: " + long + "\n---\n", "a", skills.Skill{}, skills.ReasonDescriptionLen},
		{"description of 1024", "---\nname: a\ndescription: " + long[1:] + "\n---\n", "a", skills.Skill{Name: "a", Description: long[1:]}, ""},
		{"disable not bool", "---\nname: a\ndescription: d\ndisable-model-invocation: yes please\n---\n", "a", skills.Skill{}, skills.ReasonField},
		{"not utf8", "---\nname: a\ndescription: \xff\n---\n", "a", skills.Skill{}, skills.ReasonNotText},
		{"too large", "---\nname: a\ndescription: d\n---\n" + strings.Repeat("x", skills.MaxFileSize), "a", skills.Skill{}, skills.ReasonTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, perr := skills.Parse([]byte(tt.in), tt.fallback)
			if tt.reason != "" {
				if perr == nil || perr.Reason != tt.reason {
					t.Fatalf("Parse = %+v, %v; want reason %s", got, perr, tt.reason)
				}
				if perr.Message == "" {
					t.Fatal("a refusal without a message")
				}
				return
			}
			if perr != nil {
				t.Fatalf("Parse refused: %v (%s)", perr, perr.Reason)
			}
			if got != tt.want {
				t.Fatalf("Parse = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"a": true, "pdf-2": true, "9lives": true, strings.Repeat("a", 64): true,
		"": false, "-a": false, "A": false, "a_b": false, "a b": false, "a/b": false, "é": false, strings.Repeat("a", 65): false,
	} {
		if got := skills.ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}

// FuzzParse: Parse never panics, and a skill it accepts obeys every rule of
// the format.
func FuzzParse(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: d\n---\nbody"), "a")
	f.Add([]byte("---\ndescription: d\ndisable-model-invocation: true\n---\n"), "dir-name")
	f.Add([]byte("---\nname: &a [*a, *a]\n---\n"), "x")
	f.Add([]byte("---\r\nname: A\r\n---"), "")
	f.Fuzz(func(t *testing.T, data []byte, fallback string) {
		k, perr := skills.Parse(data, fallback)
		if perr != nil {
			if perr.Reason == "" || perr.Message == "" {
				t.Fatalf("refusal without reason or message: %+v", perr)
			}
			return
		}
		if !skills.ValidName(k.Name) {
			t.Fatalf("accepted invalid name %q", k.Name)
		}
		if k.Description == "" || utf8.RuneCountInString(k.Description) > skills.MaxDescription {
			t.Fatalf("accepted description of %d characters", utf8.RuneCountInString(k.Description))
		}
		if len(data) > skills.MaxFileSize {
			t.Fatalf("accepted %d bytes", len(data))
		}
	})
}

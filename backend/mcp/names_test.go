package mcp_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct {
		name string
		ref  mcp.ToolRef
		want string // exact, or the prefix when cut
		cut  bool
	}{
		{"plain", mcp.ToolRef{"everything", "echo"}, "mcp_everything_echo", false},
		{"dash and digits kept", mcp.ToolRef{"fs-2", "read_file"}, "mcp_fs-2_read_file", false},
		{"dots, spaces, slashes replaced", mcp.ToolRef{"my server", "repo/issues.list"}, "mcp_my_server_repo_issues_list", false},
		{"non-ASCII is one '_' per rune", mcp.ToolRef{"größe", "日本"}, "mcp_gr__e___", false},
		{"invalid UTF-8 byte replaced", mcp.ToolRef{"s", "a\xffb"}, "mcp_s_a_b", false},
		{"exactly 64 is not cut", mcp.ToolRef{"s", strings.Repeat("t", 64-len("mcp_s_"))}, "mcp_s_" + strings.Repeat("t", 58), false},
		{"65 is cut", mcp.ToolRef{"s", strings.Repeat("t", 65-len("mcp_s_"))}, "mcp_s_" + strings.Repeat("t", 49) + "_", true},
		{"long server", mcp.ToolRef{long, "echo"}, "mcp_" + long[:51] + "_", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mcp.ToolName(tt.ref)
			if !validName.MatchString(got) {
				t.Fatalf("ToolName = %q, not [A-Za-z0-9_-]{1,64}", got)
			}
			if !tt.cut {
				if got != tt.want {
					t.Errorf("ToolName = %q, want %q", got, tt.want)
				}
				return
			}
			if len(got) != mcp.MaxToolNameLen || !strings.HasPrefix(got, tt.want) ||
				!regexp.MustCompile(`_[0-9a-f]{8}$`).MatchString(got) {
				t.Errorf("ToolName = %q, want %q + 8 hex digits, 64 long", got, tt.want)
			}
		})
	}
}

func TestToolNameCutNamesStayDistinct(t *testing.T) {
	prefix := strings.Repeat("t", 60)
	a := mcp.ToolName(mcp.ToolRef{"s", prefix + "_alpha"})
	b := mcp.ToolName(mcp.ToolRef{"s", prefix + "_beta"})
	if a == b {
		t.Fatalf("two long tools sharing a 60-character prefix got one name %q", a)
	}
}

func TestNames(t *testing.T) {
	tests := []struct {
		name string
		refs []mcp.ToolRef
		// plain lists the refs whose name must stay ToolName (no collision).
		plain []mcp.ToolRef
	}{
		{
			name:  "no collisions keep plain names",
			refs:  []mcp.ToolRef{{"a", "x"}, {"a", "y"}, {"b", "x"}},
			plain: []mcp.ToolRef{{"a", "x"}, {"a", "y"}, {"b", "x"}},
		},
		{
			name:  "replaced characters collide",
			refs:  []mcp.ToolRef{{"s", "a.b"}, {"s", "a/b"}, {"s", "c"}},
			plain: []mcp.ToolRef{{"s", "c"}},
		},
		{
			name: "server/tool split collides",
			refs: []mcp.ToolRef{{"a_b", "c"}, {"a", "b_c"}},
		},
		{
			name:  "a suffix never takes a unique tool's name",
			refs:  []mcp.ToolRef{{"s", "a.b"}, {"s", "a/b"}, {"s", suffixOf(t, mcp.ToolRef{"s", "a.b"})}},
			plain: []mcp.ToolRef{{"s", suffixOf(t, mcp.ToolRef{"s", "a.b"})}},
		},
		{
			name:  "duplicates share a name",
			refs:  []mcp.ToolRef{{"s", "x"}, {"s", "x"}},
			plain: []mcp.ToolRef{{"s", "x"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkNames(t, tt.refs)
			for _, r := range tt.plain {
				if got[r] != mcp.ToolName(r) {
					t.Errorf("%v: name %q, want its plain name %q", r, got[r], mcp.ToolName(r))
				}
			}
		})
	}
}

// suffixOf returns the tool name that makes ToolRef{"s", x} collide with the
// suffixed name of r once r has a twin: "<plain of r without mcp_s_>_<hash>".
func suffixOf(t *testing.T, r mcp.ToolRef) string {
	t.Helper()
	names := mcp.Names([]mcp.ToolRef{r, {r.Server, strings.ReplaceAll(r.Tool, ".", "/")}})
	return strings.TrimPrefix(names[r], "mcp_"+r.Server+"_")
}

// checkNames asserts what every catalog's names must satisfy: valid, at
// most 64 characters, one per distinct ref, distinct refs never sharing a
// name, and the same answer for the refs in reverse order.
func checkNames(t *testing.T, refs []mcp.ToolRef) map[mcp.ToolRef]string {
	t.Helper()
	got := mcp.Names(refs)
	owner := map[string]mcp.ToolRef{}
	for _, r := range refs {
		n, ok := got[r]
		if !ok {
			t.Fatalf("%q has no name", r)
		}
		if !validName.MatchString(n) {
			t.Fatalf("%q got %q, not [A-Za-z0-9_-]{1,64}", r, n)
		}
		if o, dup := owner[n]; dup && o != r {
			t.Fatalf("%q and %q share the name %q", o, r, n)
		}
		owner[n] = r
	}
	rev := make([]mcp.ToolRef, len(refs))
	for i, r := range refs {
		rev[len(refs)-1-i] = r
	}
	again := mcp.Names(rev)
	for r, n := range got {
		if again[r] != n {
			t.Fatalf("%q: %q, but %q with the refs reversed", r, n, again[r])
		}
	}
	if len(got) != len(owner) {
		t.Fatalf("%d names for %d distinct refs", len(got), len(owner))
	}
	return got
}

func FuzzNames(f *testing.F) {
	f.Add("everything", "echo", "everything", "echo_")
	f.Add("a_b", "c", "a", "b_c")
	f.Add("s", "a.b", "s", "a/b")
	f.Add(strings.Repeat("x", 70), "t", strings.Repeat("x", 70), "u")
	f.Add("", "", "\xff", "日本")
	f.Fuzz(func(t *testing.T, s1, t1, s2, t2 string) {
		refs := []mcp.ToolRef{{s1, t1}, {s2, t2}, {s1, t2}, {s2, t1}, {s1, "fixed"}}
		got := checkNames(t, refs)
		for _, r := range refs {
			if n := mcp.ToolName(r); n != mcp.ToolName(r) || !validName.MatchString(n) {
				t.Fatalf("ToolName(%q) = %q: not deterministic or not valid", r, n)
			}
			if again := mcp.Names(refs)[r]; again != got[r] {
				t.Fatalf("Names not deterministic for %q: %q then %q", r, got[r], again)
			}
		}
	})
}

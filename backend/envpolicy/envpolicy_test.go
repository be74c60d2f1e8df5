package envpolicy

import (
	"slices"
	"testing"
)

func TestDroppedByDefault(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop bool
	}{
		{"ANTHROPIC_API_KEY", true},
		{"OPENAI_API_KEY", true},
		{"API_KEY", true},
		{"openai_api_key", true},
		{"GITHUB_TOKEN", true},
		{"GH_TOKEN", true},
		{"TOKEN", true},
		{"github_token", true},
		{"AWS_SECRET_ACCESS_KEY", true},
		{"AWS_ACCESS_KEY_ID", true},
		{"AWS_SESSION_TOKEN", true},
		{"AWS_SECURITY_TOKEN", true},
		{"AWS_BEARER_TOKEN_BEDROCK", true},
		{"CLIENT_SECRET", true},
		{"MY_SECRET_THING", true},
		{"SECRET", true},
		{"PGPASSWORD", true},
		{"DB_PASSWORD_FILE", true},
		{"SSH_PRIVATE_KEY", true},
		{"PATH", false},
		{"HOME", false},
		{"LANG", false},
		{"LC_ALL", false},
		{"TERM", false},
		{"SSH_AUTH_SOCK", false},
		{"AWS_REGION", false},
		{"AWS_DEFAULT_REGION", false},
		{"AWS_PROFILE", false},
		{"AWS_CONFIG_FILE", false},
		{"TOKENIZERS_PARALLELISM", false},
		{"KEYBOARD_LAYOUT", false},
		{"GOPATH", false},
		{"=C:", false},
	} {
		if got := DroppedByDefault(tc.name); got != tc.drop {
			t.Errorf("DroppedByDefault(%q) = %v, want %v", tc.name, got, tc.drop)
		}
	}
}

func TestApply(t *testing.T) {
	env := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8",
		"ANTHROPIC_API_KEY=sk-ant", "OPENAI_API_KEY=sk-oa", "AWS_SECRET_ACCESS_KEY=aws", "AWS_REGION=eu-west-1",
		"GITHUB_TOKEN=ghp", "MY_LLM_KEY=k", "NPM_CONFIG_REGISTRY=r", "EMPTY=", "=C:=C:\\x", "Path=C:\\bin",
	}
	for _, tc := range []struct {
		name   string
		p      Policy
		keep   []string
		absent []string
	}{
		{"default", Policy{},
			[]string{"PATH", "HOME", "LANG", "AWS_REGION", "MY_LLM_KEY", "NPM_CONFIG_REGISTRY", "EMPTY", "=C:", "Path"},
			[]string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"}},
		{"provider key by name", Policy{ProviderKeys: []string{"MY_LLM_KEY"}},
			[]string{"PATH"}, []string{"MY_LLM_KEY", "ANTHROPIC_API_KEY"}},
		{"pass overrides the default", Policy{Pass: []string{"GITHUB_TOKEN"}},
			[]string{"GITHUB_TOKEN", "PATH"}, []string{"OPENAI_API_KEY"}},
		{"pass overrides a provider key", Policy{Pass: []string{"MY_LLM_KEY"}, ProviderKeys: []string{"MY_LLM_KEY"}},
			[]string{"MY_LLM_KEY"}, nil},
		{"extra drop", Policy{Drop: []string{"NPM_CONFIG_REGISTRY", "HOME"}},
			[]string{"PATH"}, []string{"NPM_CONFIG_REGISTRY", "HOME"}},
		{"drop wins over pass", Policy{Drop: []string{"LANG"}, Pass: []string{"LANG"}},
			nil, []string{"LANG"}},
		{"unix names are case-sensitive", Policy{Pass: []string{"github_token"}, Drop: []string{"path"}, GOOS: "linux"},
			[]string{"Path", "PATH"}, []string{"GITHUB_TOKEN"}},
		{"windows names are not", Policy{Pass: []string{"github_token"}, Drop: []string{"path"}, GOOS: "windows"},
			[]string{"GITHUB_TOKEN"}, []string{"PATH", "Path"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, dropped := tc.p.Apply(env)
			var names []string
			for _, kv := range kept {
				names = append(names, Name(kv))
			}
			for _, n := range tc.keep {
				if !slices.Contains(names, n) {
					t.Errorf("%s was dropped; kept %v", n, names)
				}
			}
			for _, n := range tc.absent {
				if slices.Contains(names, n) || !slices.Contains(dropped, n) {
					t.Errorf("%s was kept; dropped %v", n, dropped)
				}
			}
			if len(kept)+len(dropped) != len(env) {
				t.Errorf("kept %d + dropped %d != %d", len(kept), len(dropped), len(env))
			}
		})
	}
}

func TestName(t *testing.T) {
	for in, want := range map[string]string{"A=b": "A", "A=b=c": "A", "A=": "A", "=C:=C:\\x": "=C:", "NOEQ": "NOEQ", "": ""} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"A", "_", "GITHUB_TOKEN", "lower_case1", "A1"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v", ok, err)
		}
	}
	long := make([]byte, MaxNameLen+1)
	for i := range long {
		long[i] = 'A'
	}
	for _, bad := range []string{"", "1A", "A B", "A=B", "A-B", "É", "A\x00", string(long), "*_TOKEN"} {
		if err := CheckName(bad); err == nil {
			t.Errorf("CheckName(%q) accepted", bad)
		}
	}
}

func TestWithPATH(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  []string
		path string
		want []string
	}{
		{"replaces the host PATH", []string{"HOME=/h", "PATH=/usr/bin", "LANG=C"}, "/opt/bin:/usr/bin", []string{"HOME=/h", "LANG=C", "PATH=/opt/bin:/usr/bin"}},
		{"adds one when the host has none", []string{"HOME=/h"}, "/opt/bin", []string{"HOME=/h", "PATH=/opt/bin"}},
		{"an empty probe keeps the host PATH", []string{"HOME=/h", "PATH=/usr/bin"}, "", []string{"HOME=/h", "PATH=/usr/bin"}},
		{"an empty probe and no host PATH stay without", []string{"HOME=/h"}, "", []string{"HOME=/h"}},
		{"every PATH entry goes", []string{"PATH=/a", "PATH=/b"}, "/c", []string{"PATH=/c"}},
		{"a name that only starts with PATH stays", []string{"PATHEXT=.EXE", "PATH_X=1", "PATH=/a"}, "/c", []string{"PATHEXT=.EXE", "PATH_X=1", "PATH=/c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := slices.Clone(tc.env)
			if got := WithPATH(tc.env, tc.path); !slices.Equal(got, tc.want) {
				t.Errorf("WithPATH(%q, %q) = %q, want %q", tc.env, tc.path, got, tc.want)
			}
			if !slices.Equal(tc.env, before) {
				t.Errorf("env changed to %q", tc.env)
			}
		})
	}
}

package shells

import (
	"os"
	"runtime"
	"testing"
)

// TestHostEnv resolves against the real machine (Linux CI; Windows under Wine).
func TestHostEnv(t *testing.T) {
	env := HostEnv()
	if env.GOOS != runtime.GOOS {
		t.Fatalf("GOOS %q", env.GOOS)
	}
	if runtime.GOOS == "windows" {
		r, err := Resolve(Cmd, env)
		if err != nil {
			t.Fatal(err)
		}
		if env.IsAppExecLink(r.Path) {
			t.Errorf("%s reported as an app-execution alias", r.Path)
		}
		if e := Effective("nonexistent", env); e.ID == "" {
			t.Error("no effective shell")
		}
		return
	}
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	r, err := Resolve(Bash, env)
	if err != nil || r.Dialect != DialectPOSIX {
		t.Fatalf("Resolve(bash) = %+v, %v", r, err)
	}
	if e := Effective(Bash, env); e.ID != Bash {
		t.Errorf("Effective = %+v", e)
	}
}

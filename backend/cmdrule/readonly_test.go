package cmdrule

import "testing"

func TestReadOnly(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{"true", true},
		{"ls -la src | grep -v test | head -20", true},
		{"cat go.mod; wc -l main.go", true},
		{"cat f > /dev/null 2>&1", true},
		{"echo \"$(pwd)\"", true},
		{"echo hi > out.txt", false},                 // a redirection into a file
		{"echo hi | tee out.txt", false},             // tee writes
		{"cat <(rm -rf build)", false},               // a write inside a substitution
		{"echo `touch z`", false},                    // a command substitution that writes
		{"sort -o sorted.txt list.txt", false},       // sort can write through an option
		{"./ls", false},                              // a file of the workspace, not the program
		{"/tmp/x/cat f", false},                      // a path, whatever its name
		{"timeout 5 ls", false},                      // wrapped
		{"f() { ls; }; f", false},                    // a function
		{"X=1", false},                               // no program
		{"eval ls", false},                           // runs a string
		{"ls (", false},                              // does not parse
		{"git status", false},                        // git writes its index
		{"find . -name '*.go'", false},               // find can delete
		{"LS=rm; $LS -rf x", false},                  // a program only known when it runs
		{"grep -r TODO . && sed -i s/a/b/ f", false}, // sed -i edits
		{"rg --pre ./convert pattern", false},        // rg runs its --pre program
	} {
		if got := Classify(tc.script, nil).ReadOnly(); got != tc.want {
			t.Errorf("ReadOnly(%q) = %v, want %v", tc.script, got, tc.want)
		}
	}
	if ClassifyDialect("powershell", "ls", nil).ReadOnly() {
		t.Error("a PowerShell line counted as read-only")
	}
}

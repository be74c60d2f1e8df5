package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestCLI(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderrHint string
	}{
		{"version", []string{"version"}, 0, "pi-desktop " + version, ""},
		{"long help", []string{"--help"}, 0, "Usage:", ""},
		{"short help", []string{"-h"}, 0, "Usage:", ""},
		{"help command", []string{"help"}, 0, "Usage:", ""},
		{"unknown flag", []string{"--frobnicate"}, 2, "", "flag provided but not defined: --frobnicate"},
		{"unknown flag, one dash", []string{"-frobnicate=1"}, 2, "", "flag provided but not defined: -frobnicate\n"},
		{"subagents command", []string{"subagents", "--help"}, 0, "pi-desktop subagents list", ""},
		{"skills command", []string{"skills", "--help"}, 0, "pi-desktop skills list", ""},
		{"commands command", []string{"commands", "--help"}, 0, "pi-desktop commands list", ""},
		{"export command", []string{"export", "--help"}, 0, "pi-desktop export [--data-dir DIR] --session ID", ""},
		{"plugins command", []string{"plugins", "--help"}, 0, "pi-desktop plugins install", ""},
		{"unknown command", []string{"launch"}, 2, "", `unknown command "launch"`},
		{"data-dir without value", []string{"--data-dir"}, 2, "", "flag needs an argument: --data-dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(tt.args, &out, &errOut); code != tt.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tt.code, errOut.String())
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout %q lacks %q", out.String(), tt.stdout)
			}
			if tt.stderrHint != "" {
				if !strings.Contains(errOut.String(), tt.stderrHint) || !strings.Contains(errOut.String(), "Usage:") {
					t.Errorf("stderr %q lacks %q and the usage", errOut.String(), tt.stderrHint)
				}
			}
		})
	}
}

package agent

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestPromptGolden(t *testing.T) {
	got := BuildPrompt(PromptInput{
		Info: SessionInfo{Workspace: "/home/ada/proj", Scratch: "/home/ada/.local/share/pi-desktop/scratch/s1",
			Visualization: "/home/ada/.local/share/pi-desktop/visualizations/s1", OperatingMode: "agent",
			Platform: "linux", ShellID: "bash", ShellDialect: "bash"},
		Instructions: "# Project rules\n\nRun `go test ./...` before you finish.\n",
		Today:        time.Date(2026, 5, 4, 23, 30, 0, 0, time.UTC),
		OnDemand: []DeferredTool{
			{Name: "BashOutput", Summary: "Read the state, exit code and latest output of a background Bash task (runInBackground)."},
			{Name: "BashStop", Summary: "Stop a running background Bash task\nof this session."},
		},
	})
	golden.Assert(t, filepath.Join("testdata", "prompt.golden"), got)
}

func TestPromptVariants(t *testing.T) {
	plan := BuildPrompt(PromptInput{Info: SessionInfo{Workspace: `C:\proj`, Scratch: `C:\data\scratch\s1`, OperatingMode: "plan",
		Platform: "windows", ShellID: "pwsh", ShellDialect: "powershell"}, Today: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)})
	for _, want := range []string{"Platform: Windows", "pwsh (dialect: powershell)", `Workspace root: C:\proj`, "# Plan mode", "2026-01-02"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan prompt lacks %q", want)
		}
	}
	for _, absent := range []string{"Visualization folder", "# Project instructions"} {
		if strings.Contains(plan, absent) {
			t.Errorf("plan prompt has %q", absent)
		}
	}
}

func TestPromptOnDemandCatalogIsBounded(t *testing.T) {
	info := SessionInfo{Workspace: "/p", Scratch: "/s", OperatingMode: "agent", Platform: "linux"}
	if p := BuildPrompt(PromptInput{Info: info}); strings.Contains(p, "On-demand") || strings.Contains(p, "ToolSearch") {
		t.Error("an empty catalog still got a section")
	}
	var many []DeferredTool
	for i := range 45 {
		many = append(many, DeferredTool{Name: fmt.Sprintf("Tool%02d", i), Summary: strings.Repeat("does things ", 5)})
	}
	p := BuildPrompt(PromptInput{Info: info, OnDemand: many})
	if !strings.Contains(p, "- Tool29: ") || strings.Contains(p, "- Tool30") || !strings.Contains(p, "- … 15 more; search by capability with ToolSearch.") {
		t.Errorf("entry cap:\n%s", p[strings.Index(p, "# On-demand"):])
	}
	long := []DeferredTool{{Name: "Big", Summary: strings.Repeat("é", 500)}}
	for i := range 60 {
		long = append(long, DeferredTool{Name: fmt.Sprintf("Wide%02d", i), Summary: strings.Repeat("x", 150)})
	}
	p = BuildPrompt(PromptInput{Info: info, OnDemand: long})
	section := p[strings.Index(p, "# On-demand"):]
	list := section[strings.Index(section, "\n- "):]
	if len(list) > maxCatalogBytes+100 || !strings.Contains(section, "more; search by capability") {
		t.Errorf("byte cap: the list has %d bytes", len(list))
	}
	if !strings.Contains(section, "- Big: "+strings.Repeat("é", maxSummaryChars-1)+"…\n") {
		t.Error("a long summary is not clipped to one line")
	}
}

// Command server is the sample plugin's process: an MCP server over stdio
// on the official Go SDK, built by the plugin package's tests. It appends
// one line per event to the file named by --log ("start <pid>", then its
// working folder "cwd <dir>" and each "key <NAME>" of a *_API_KEY variable
// it received, and "call <tool> <action>"), so a test can tell whether it
// ran, where, with what, and what it saw.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type inspectIn struct {
	Action string `json:"action"`
	Target string `json:"target,omitempty"`
}

type deployIn struct {
	Target string `json:"target,omitempty"`
}

func main() {
	logPath := flag.String("log", "", "file to append events to")
	flag.Parse()
	note := func(format string, a ...any) {
		f, err := os.OpenFile(*logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sample: cannot write the log:", err)
			os.Exit(2)
		}
		fmt.Fprintf(f, format+"\n", a...)
		f.Close()
	}
	note("start %d", os.Getpid())
	if wd, err := os.Getwd(); err == nil {
		note("cwd %s", wd)
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasSuffix(name, "_API_KEY") {
			note("key %s", name)
		}
	}
	fmt.Fprintln(os.Stderr, "sample plugin ready")
	s := sdk.NewServer(&sdk.Implementation{Name: "sample-plugin", Version: "1.0.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "inspect", Description: "Inspect a target."},
		func(_ context.Context, _ *sdk.CallToolRequest, in inspectIn) (*sdk.CallToolResult, any, error) {
			note("call inspect %s", in.Action)
			if in.Action == "crash" {
				fmt.Fprintln(os.Stderr, "sample: crashing as asked")
				os.Exit(3)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "inspected " + in.Action + " " + in.Target}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "deploy", Description: "Deploy a target."},
		func(_ context.Context, _ *sdk.CallToolRequest, in deployIn) (*sdk.CallToolResult, any, error) {
			note("call deploy %s", in.Target)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "deployed " + in.Target}}}, nil, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "sample:", err)
		os.Exit(1)
	}
}

package mcp_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// testPidFileEnv names a file the test server writes its pid to.
const testPidFileEnv = "PI_MCP_TEST_PIDFILE"

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type spawnOut struct {
	Pid int `json:"pid"`
}

// runTestServer is the child side of the stdio tests: a real SDK server on
// this process's stdin and stdout, or a process that misbehaves in the way
// mode names.
func runTestServer(mode string) int {
	if f := os.Getenv(testPidFileEnv); f != "" {
		// Failure paths return no Conn to ask: the pid file lets the test
		// check that the process is gone anyway.
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return 1
		}
	}
	switch mode {
	case "silent": // reads nothing, answers nothing: a connect timeout
		time.Sleep(time.Hour)
		return 0
	case "exit": // dies before the handshake, saying why on stderr
		fmt.Fprintln(os.Stderr, "boom: missing configuration")
		return 3
	case "garbage": // a program that is not an MCP server
		for range 100 {
			fmt.Println("hello, this is not JSON-RPC")
		}
		time.Sleep(time.Hour)
		return 0
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "pi-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text back."},
		func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "spawn", Description: "Start a long-lived child process and return its pid."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, spawnOut, error) {
			cmd := exec.Command("sleep", "600")
			if err := cmd.Start(); err != nil {
				return nil, spawnOut{}, err
			}
			return nil, spawnOut{Pid: cmd.Process.Pid}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "fail", Description: "Always fails."},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("the failure the test asked for (pid %s)", strconv.Itoa(os.Getpid()))
		})
	if mode == "crash" {
		// Exits by itself soon after it listed its tools: the manager has
		// seen it ready, then sees it go.
		s.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
			return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
				res, err := next(ctx, method, req)
				if method == "tools/list" {
					time.AfterFunc(100*time.Millisecond, func() {
						fmt.Fprintf(os.Stderr, "fatal: lost the plot (pid %d)\n", os.Getpid())
						os.Exit(7)
					})
				}
				return res, err
			}
		})
	}
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "test server:", err)
		return 1
	}
	if mode == "noisy-exit" {
		// Output after the session ended, more than any pipe buffers:
		// nobody reads it, and closing must not hang or fail on it.
		line := strings.Repeat("x", 1023) + "\n"
		for range 1024 {
			if _, err := os.Stdout.WriteString(line); err != nil {
				break
			}
		}
		time.Sleep(time.Hour)
	}
	return 0
}

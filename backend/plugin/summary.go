package plugin

import (
	"slices"
	"strings"
)

// Summary is what a plugin contributes and asks for, as a consent card
// (and `pi-desktop plugins install`) shows it before anything runs.
type Summary struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Version     string          `json:"version"`
	Description string          `json:"description,omitempty"`
	Author      string          `json:"author,omitempty"`
	Permissions []string        `json:"permissions"`
	Command     string          `json:"command,omitempty"`
	Args        []string        `json:"args,omitempty"`
	Tools       []ToolSummary   `json:"tools"`
	Skills      []string        `json:"skills"`
	Subagents   []string        `json:"subagents"`
	Commands    []string        `json:"commands"`
	MCPServers  []ServerSummary `json:"mcpServers"`
	Warnings    []string        `json:"warnings,omitempty"`
	Files       int             `json:"files"`
	// Hash is the consent hash: a consent is given to it.
	Hash string `json:"hash"`
}

// ToolSummary is one contributed agent tool.
type ToolSummary struct {
	Name            string   `json:"name"`
	ModelName       string   `json:"modelName"`
	Risk            string   `json:"risk"`
	PlanSafeActions []string `json:"planSafeActions"`
	Description     string   `json:"description"`
}

// ServerSummary is one contributed MCP server: what it would run or reach.
type ServerSummary struct {
	ID        string   `json:"id"`
	Transport string   `json:"transport"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
}

// Describe summarises a manifest and the plugin's files: the skills/,
// subagents/ and commands/ folders' files are listed as they are.
func Describe(m Manifest, files []File, hash string) Summary {
	s := Summary{ID: m.ID, Name: m.Name, Version: m.Version, Description: m.Description, Author: m.Author,
		Permissions: slices.Clone(m.Permissions), Command: m.Command, Args: slices.Clone(m.Args),
		Tools: []ToolSummary{}, Skills: []string{}, Subagents: []string{}, Commands: []string{}, MCPServers: []ServerSummary{},
		Warnings: slices.Clone(m.Warnings), Files: len(files), Hash: hash}
	for _, t := range m.Tools {
		s.Tools = append(s.Tools, ToolSummary{Name: t.Name, ModelName: ModelName(m.ID, t.Name), Risk: string(t.Risk),
			PlanSafeActions: append([]string{}, t.PlanSafeActions...), Description: t.Description})
	}
	for _, f := range files {
		switch {
		case strings.HasPrefix(f.Path, "skills/"):
			s.Skills = append(s.Skills, f.Path)
		case strings.HasPrefix(f.Path, "subagents/"):
			s.Subagents = append(s.Subagents, f.Path)
		case strings.HasPrefix(f.Path, "commands/"):
			s.Commands = append(s.Commands, f.Path)
		}
	}
	for _, sv := range m.MCPServers {
		s.MCPServers = append(s.MCPServers, ServerSummary{ID: sv.ID, Transport: string(sv.Transport), Command: sv.Command,
			Args: slices.Clone(sv.Args), URL: sv.URL})
	}
	return s
}

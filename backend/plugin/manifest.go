package plugin

import (
	"bytes"
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// ManifestName is the manifest's file name at the plugin folder's root.
const ManifestName = "plugin.json"

// PermToolRegister is the permission a plugin asks for to contribute agent
// tools (spec §11: the user grants agent.tool.register).
const PermToolRegister = "agent.tool.register"

// Bounds of a manifest: it is shown on a consent card and its tools'
// descriptions and schemas reach the model's context.
const (
	MaxManifestBytes   = 256 << 10
	maxIDLen           = 64
	maxVersionLen      = 64
	maxNameLen         = 100
	maxDescriptionLen  = 2048
	maxTools           = 64
	maxToolSchemaBytes = 64 << 10
	maxActions         = 64
	maxActionLen       = 100
)

var (
	idPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$`)
	// semver 2.0.0, from semver.org.
	versionPattern  = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	toolNamePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// Manifest is a validated plugin.json.
type Manifest struct {
	ID          string
	Name        string
	Version     string
	Description string
	Author      string
	Permissions []string
	// Command and Args start the plugin's process (MCP over stdio), in the
	// plugin folder. Command is a program on the PATH or a path inside the
	// folder.
	Command string
	Args    []string
	Tools   []AgentTool
	// MCPServers are the MCP servers the plugin contributes, in .mcp.json's
	// shape; they are listed on the consent card.
	MCPServers []mcp.Server
	// Warnings are what was accepted with a default (a missing or invalid
	// risk): shown with the plugin, never fatal.
	Warnings []string
	// warningFields are the Warnings' field paths, in the same order.
	warningFields []string
}

// AgentTool is one tool the plugin's process serves.
type AgentTool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	// Risk is the declared risk; a missing or invalid one is medium and
	// never grants Plan/Goal access (only PlanSafeActions does).
	Risk permission.Risk
	// PlanSafeActions are the actions allowed in Plan and Goal; empty hides
	// the tool there.
	PlanSafeActions []string
	// HasAction: the input schema declares an "action" property, whose
	// value is then a call's action (else the tool's name is).
	HasAction bool
}

type rawManifest struct {
	ID          *string         `json:"id"`
	Name        *string         `json:"name"`
	Version     *string         `json:"version"`
	Description string          `json:"description"`
	Author      json.RawMessage `json:"author"`
	Permissions []string        `json:"permissions"`
	Command     string          `json:"command"`
	Args        []string        `json:"args"`
	Contributes struct {
		AgentTools []json.RawMessage `json:"agentTools"`
		MCPServers json.RawMessage   `json:"mcpServers"`
	} `json:"contributes"`
}

type rawTool struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	InputSchema     json.RawMessage `json:"inputSchema"`
	Risk            json.RawMessage `json:"risk"`
	PlanSafeActions json.RawMessage `json:"planSafeActions"`
}

// invalid is a PLUGIN_INVALID error naming the manifest field.
func invalid(field, format string, a ...any) *errs.Error {
	return errs.New(errs.PluginInvalid, "plugin.json: "+format, a...).With("field", field)
}

// ParseManifest parses and validates plugin.json. Every problem is
// PLUGIN_INVALID with the field in its details; a risk that is missing or
// not low|medium|high becomes medium with a warning. It returns the first
// problem; ValidateManifest reports them all.
func ParseManifest(data []byte) (Manifest, error) {
	m, list := validate(data)
	if len(list) > 0 {
		return Manifest{}, list[0]
	}
	return m, nil
}

// Problem is one thing wrong with a plugin: File is the file or folder in
// the plugin (slash-separated; "" for the plugin as a whole), Field the
// manifest's field path (contributes.agentTools[1].risk) when the file is
// plugin.json, and Message says what is wrong and what to change.
type Problem struct {
	File    string    `json:"file,omitempty"`
	Field   string    `json:"field"`
	Message string    `json:"message"`
	Code    errs.Code `json:"code,omitempty"`
}

// Where is the problem's place as a list shows it: "plugin.json id",
// "skills/a/SKILL.md", or "(plugin)".
func (p Problem) Where() string {
	switch {
	case p.File != "" && p.Field != "":
		return p.File + " " + p.Field
	case p.File != "":
		return p.File
	case p.Field != "":
		return p.Field
	}
	return "(plugin)"
}

// ValidateManifest validates plugin.json and reports every problem it
// finds, not only the first, so an author fixes them in one pass. The
// manifest is meaningful only when there is no problem.
func ValidateManifest(data []byte) (Manifest, []Problem) {
	m, list := validate(data)
	out := make([]Problem, 0, len(list))
	for _, err := range list {
		out = append(out, problemOf(err))
	}
	return m, out
}

// problemOf turns an install-check error into a Problem, preferring the
// precise field path over the coarse field of the error's details.
func problemOf(err error) Problem {
	p := errs.ToPayload(err)
	field, _ := p.Details["path"].(string)
	if field == "" {
		field, _ = p.Details["field"].(string)
	}
	return Problem{Field: field, Message: strings.TrimPrefix(p.Message, "plugin.json: "), Code: p.Code}
}

// checkManifest is install's manifest check: every problem of the
// manifest in one PLUGIN_INVALID error (refusal).
func checkManifest(data []byte) (Manifest, error) {
	m, list := ValidateManifest(data)
	if len(list) > 0 {
		return Manifest{}, refusal(inFile(ManifestName, list))
	}
	return m, nil
}

// inFile places problems in one of the plugin's files.
func inFile(name string, list []Problem) []Problem {
	for i := range list {
		list[i].File = name
	}
	return list
}

func validate(data []byte) (Manifest, []error) {
	one := func(err error) (Manifest, []error) { return Manifest{}, []error{err} }
	if len(data) > MaxManifestBytes {
		return one(invalid("", "the file is larger than %d bytes", MaxManifestBytes))
	}
	if !utf8.Valid(data) {
		return one(invalid("", "the file is not valid UTF-8"))
	}
	var raw rawManifest
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return one(invalid("", "not a JSON object of the plugin manifest's shape (%s); see the id, name, version, permissions, command and contributes fields", jsonProblem(err)))
	}
	if dec.More() {
		return one(invalid("", "text follows the manifest's JSON object; remove it"))
	}
	var list []error
	fail := func(err error) {
		if err != nil {
			list = append(list, err)
		}
	}
	m := Manifest{Description: strings.TrimSpace(raw.Description), Command: raw.Command, Args: raw.Args, Permissions: raw.Permissions}
	switch {
	case raw.ID == nil:
		fail(invalid("id", "\"id\" is missing; use a reverse-DNS id like dev.acme.tools or a plain name of [a-z0-9.-]"))
	case len(*raw.ID) > maxIDLen || !idPattern.MatchString(*raw.ID):
		fail(invalid("id", "id %q must be at most %d characters of a-z, 0-9, '.' and '-', each dot-separated part starting and ending with a letter or digit (like dev.acme.tools)", clip(*raw.ID), maxIDLen))
	default:
		m.ID = *raw.ID
	}
	if raw.Name == nil || strings.TrimSpace(*raw.Name) == "" || utf8.RuneCountInString(*raw.Name) > maxNameLen || hasControl(*raw.Name) {
		fail(invalid("name", "\"name\" must be a non-empty single line of at most %d characters", maxNameLen))
	} else {
		m.Name = strings.TrimSpace(*raw.Name)
	}
	if raw.Version == nil || len(*raw.Version) > maxVersionLen || !versionPattern.MatchString(*raw.Version) {
		v := ""
		if raw.Version != nil {
			v = *raw.Version
		}
		fail(invalid("version", "version %q is not a semantic version like 1.2.0 (https://semver.org)", clip(v)))
	} else {
		m.Version = *raw.Version
	}
	if len(m.Description) > maxDescriptionLen {
		fail(invalid("description", "\"description\" is longer than %d bytes", maxDescriptionLen))
	}
	author, err := parseAuthor(raw.Author)
	fail(err)
	m.Author = author
	list = append(list, checkPermissions(raw.Permissions)...)
	if len(raw.Contributes.AgentTools) > maxTools {
		fail(invalid("contributes.agentTools", "a plugin contributes at most %d agent tools, this one %d", maxTools, len(raw.Contributes.AgentTools)))
	}
	seen := map[string]bool{}
	for i, rt := range raw.Contributes.AgentTools {
		t, warn, err := parseTool(cmp.Or(m.ID, "x"), i, rt)
		if err != nil {
			fail(err)
			continue
		}
		if seen[t.Name] {
			fail(invalid("contributes.agentTools", "two agent tools are named %q; tool names must be unique", t.Name).With("path", toolPath(i, "name")))
			continue
		}
		seen[t.Name] = true
		if warn != "" {
			m.Warnings = append(m.Warnings, warn)
			m.warningFields = append(m.warningFields, toolPath(i, "risk"))
		}
		m.Tools = append(m.Tools, t)
	}
	fail(checkCommand(m, len(raw.Contributes.AgentTools) > 0))
	servers, bad := parseMCPServers(raw.Contributes.MCPServers)
	list = append(list, bad...)
	m.MCPServers = servers
	list = append(list, checkShown(m)...)
	if len(list) > 0 {
		return Manifest{}, list
	}
	return m, nil
}

// toolPath is the field path of agent tool i's key.
func toolPath(i int, key string) string {
	return "contributes.agentTools[" + strconv.Itoa(i) + "]." + key
}

func parseAuthor(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s), nil
	}
	// npm's {"name": …, "email": …} shape.
	var o struct {
		Name  string `json:"name"`
		Email string `json:"email"`
	}
	if err := json.Unmarshal(raw, &o); err != nil {
		return "", invalid("author", "\"author\" must be a string or {\"name\", \"email\"}")
	}
	if o.Email != "" {
		return strings.TrimSpace(o.Name + " <" + o.Email + ">"), nil
	}
	return strings.TrimSpace(o.Name), nil
}

// checkPermissions fails closed: a permission the host does not know could
// not be shown to the user for what it is. Each unknown one is a problem.
func checkPermissions(perms []string) []error {
	var out []error
	for i, p := range perms {
		if p != PermToolRegister {
			out = append(out, invalid("permissions", "unknown permission %q; the only one a plugin may ask for is %q: remove it", clip(p), PermToolRegister).
				With("path", "permissions["+strconv.Itoa(i)+"]"))
		}
	}
	if !slices.Contains(perms, PermToolRegister) {
		out = append(out, invalid("permissions", "\"permissions\" must include %q", PermToolRegister))
	}
	return out
}

func parseTool(pluginID string, i int, raw json.RawMessage) (AgentTool, string, error) {
	field := "contributes.agentTools"
	var rt rawTool
	if err := json.Unmarshal(raw, &rt); err != nil {
		return AgentTool{}, "", invalid(field, "agent tool %d must be an object with name, description, inputSchema and risk (%s)", i+1, jsonProblem(err)).With("path", "contributes.agentTools["+strconv.Itoa(i)+"]")
	}
	if !toolNamePattern.MatchString(rt.Name) {
		return AgentTool{}, "", invalid(field, "agent tool %d: name %q must be 1–64 characters of A-Z, a-z, 0-9, '_' and '-'", i+1, clip(rt.Name)).With("path", toolPath(i, "name"))
	}
	if n := ModelName(pluginID, rt.Name); len(n) > mcp.MaxToolNameLen {
		return AgentTool{}, "", invalid(field, "agent tool %q: the model-facing name %s is longer than %d characters; shorten the tool's name or the plugin's id", rt.Name, n, mcp.MaxToolNameLen).With("path", toolPath(i, "name"))
	}
	t := AgentTool{Name: rt.Name, Description: strings.TrimSpace(rt.Description)}
	if t.Description == "" || len(t.Description) > maxDescriptionLen {
		return AgentTool{}, "", invalid(field, "agent tool %q needs a description of at most %d bytes", rt.Name, maxDescriptionLen).With("path", toolPath(i, "description"))
	}
	schema, hasAction, err := checkSchema(rt.Name, rt.InputSchema)
	if err != nil {
		return AgentTool{}, "", withPath(err, toolPath(i, "inputSchema"))
	}
	t.InputSchema, t.HasAction = schema, hasAction
	warn := ""
	var risk string
	if json.Unmarshal(rt.Risk, &risk) == nil && (risk == "low" || risk == "medium" || risk == "high") {
		t.Risk = permission.Risk(risk)
	} else {
		t.Risk = permission.Medium
		warn = "agent tool " + rt.Name + ": risk is missing or not low, medium or high; it counts as medium"
	}
	if t.PlanSafeActions, err = parseActions(rt.Name, rt.PlanSafeActions); err != nil {
		return AgentTool{}, "", withPath(err, toolPath(i, "planSafeActions"))
	}
	return t, warn, nil
}

// checkSchema requires an object schema and reports whether it declares an
// "action" property.
func checkSchema(tool string, raw json.RawMessage) (json.RawMessage, bool, error) {
	field := "contributes.agentTools"
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return json.RawMessage(`{"type":"object"}`), false, nil
	}
	if len(raw) > maxToolSchemaBytes {
		return nil, false, invalid(field, "agent tool %q: inputSchema is larger than %d bytes", tool, maxToolSchemaBytes)
	}
	var s struct {
		Type       json.RawMessage            `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false, invalid(field, "agent tool %q: inputSchema must be a JSON Schema object (%s)", tool, jsonProblem(err))
	}
	if !bytes.Equal(bytes.TrimSpace(s.Type), []byte(`"object"`)) {
		return nil, false, invalid(field, "agent tool %q: inputSchema must have \"type\": \"object\"", tool)
	}
	_, hasAction := s.Properties["action"]
	return json.RawMessage(bytes.Clone(raw)), hasAction, nil
}

func parseActions(tool string, raw json.RawMessage) ([]string, error) {
	field := "contributes.agentTools"
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, invalid(field, "agent tool %q: planSafeActions must be an array of action strings", tool)
	}
	if len(list) > maxActions {
		return nil, invalid(field, "agent tool %q: at most %d planSafeActions", tool, maxActions)
	}
	for _, a := range list {
		if strings.TrimSpace(a) == "" || len(a) > maxActionLen || hasControl(a) {
			return nil, invalid(field, "agent tool %q: every planSafeActions entry must be a non-empty single line of at most %d bytes", tool, maxActionLen)
		}
	}
	return list, nil
}

// checkCommand: tools need a process; its command is a program on the
// PATH or a relative path inside the plugin folder, never outside it.
func checkCommand(m Manifest, needed bool) error {
	if m.Command == "" {
		if needed {
			return invalid("command", "a plugin with agent tools needs \"command\" (and \"args\"): the program serving them over MCP stdio, run in the plugin folder")
		}
		return nil
	}
	if hasNUL(m.Command) || hasControl(m.Command) {
		return invalid("command", "\"command\" must be a single line without NUL bytes")
	}
	if isAbs(m.Command) || escapes(m.Command) {
		return invalid("command", "\"command\" %q must be a program on the PATH or a path inside the plugin folder (no absolute path, no ..)", clip(m.Command))
	}
	for _, a := range m.Args {
		if hasNUL(a) {
			return invalid("args", "an argument must not contain NUL bytes")
		}
	}
	return nil
}

// parseMCPServers parses contributes.mcpServers and reports every server
// that cannot be used, each at its field path
// (contributes.mcpServers.<id>[.<key>]).
func parseMCPServers(raw json.RawMessage) ([]mcp.Server, []error) {
	const field = "contributes.mcpServers"
	if len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	cfg, err := mcp.ParseServers(raw)
	if err != nil {
		return nil, []error{invalid(field, "mcpServers must be an object of servers in .mcp.json's shape: {\"id\": {\"command\": …} or {\"type\": \"http\", \"url\": …}}")}
	}
	var out []error
	for _, p := range cfg.Problems {
		path := field
		if id, _ := p.Details["server"].(string); id != "" {
			path += "." + id
		}
		if key, _ := p.Details["field"].(string); key != "" {
			path += "." + key
		}
		out = append(out, invalid(field, "%s", p.Message).With("path", path))
	}
	return cfg.Servers, out
}

// withPath adds the precise field path to an install-check error.
func withPath(err error, path string) error {
	if e := errs.As(err); e != nil {
		return e.With("path", path)
	}
	return err
}

func hasNUL(s string) bool { return strings.IndexByte(s, 0) >= 0 }

func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0
}

// Misleading reports text that could change how the consent card reads
// on a terminal or in the window: control characters (C0 other than line
// breaks and tabs, DEL, C1, which carry terminal escapes) and the
// bidirectional overrides that reorder what is shown.
func Misleading(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		switch {
		case r == '\n' || r == '\t':
			return false
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f || r == 0x061c:
			return true
		}
		return false
	}) >= 0
}

// checkShown refuses a manifest whose displayed text could mislead: what
// the consent card shows must be what the plugin is. It reports each field
// once, in a fixed order.
func checkShown(m Manifest) []error {
	var out []error
	args := m.Args
	if slices.ContainsFunc(m.Args, hasControl) {
		out = append(out, invalid("args", "an argument must be one line without control characters"))
		args = nil // reported once
	}
	var tools, servers []string
	for _, t := range m.Tools {
		tools = append(append(tools, t.Description), t.PlanSafeActions...)
	}
	for _, sv := range m.MCPServers {
		servers = append(servers, append([]string{sv.ID, sv.Command, sv.URL}, sv.Args...)...)
	}
	for _, f := range []struct {
		field string
		texts []string
	}{
		{"description", []string{m.Description}}, {"author", []string{m.Author}}, {"command", []string{m.Command}},
		{"args", args}, {"contributes.agentTools", tools}, {"contributes.mcpServers", servers},
	} {
		if slices.ContainsFunc(f.texts, Misleading) {
			out = append(out, invalid(f.field, "%s holds control or text-direction characters that could disguise what the plugin does; remove them", f.field))
		}
	}
	return out
}

func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) >= 2 && p[1] == ':')
}

// escapes reports a path with a ".." element, in either separator.
func escapes(p string) bool {
	for _, part := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return true
		}
	}
	return false
}

func clip(s string) string { return truncate.BytesEllipsis(strings.ToValidUTF8(s, "?"), 80) }

func jsonProblem(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return "syntax error at byte " + strconv.FormatInt(e.Offset, 10)
	case *json.UnmarshalTypeError:
		f := e.Field
		if f == "" {
			f = "the value"
		}
		return f + " must be " + e.Type.String() + ", not " + e.Value
	}
	return "unreadable"
}

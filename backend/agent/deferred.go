package agent

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// On-demand (deferred) tools, spec §2.1. The host supplies each mode's
// catalog; the system prompt lists it in a bounded section; ToolSearch
// loads matches, whose schemas join the request from the next model call
// of the turn. At each new user prompt the loaded set is rebuilt only from
// successful activation evidence in the effective context. Loading is a
// schema concern only: every call still goes through Host.Execute with the
// same policy, containment, timeout and audit.

// Search bounds (the arguments' own bounds are checked with the tool's
// spec, tools.Runtime).
const (
	searchDefaultLimit = 5
	selectMax          = 20 // names in one select: query
)

// catalogNames lists the names of a catalog, in order.
func catalogNames(catalog []DeferredTool) []string {
	out := make([]string, 0, len(catalog))
	for _, d := range catalog {
		out = append(out, d.Name)
	}
	return out
}

// origin is the MCP origin of tool in the catalog (nil when none).
func (r *run) origin(tool string) *ToolOrigin {
	for _, d := range r.catalog {
		if d.Name == tool {
			return d.Origin
		}
	}
	return nil
}

func inCatalog(catalog []DeferredTool, name string) bool {
	return slices.ContainsFunc(catalog, func(d DeferredTool) bool { return d.Name == name })
}

// buildTools sets the tool list of the next request: the tools the mode
// offers up front, then the loaded on-demand tools in the order they were
// loaded, so a tool ToolSearch loads is appended after the others and the
// definitions before it (the start of the cached prompt) stay as they
// were. It also notes which of them may run in a parallel batch.
func (r *run) buildTools() {
	r.tools, r.parallel, r.exclusive = nil, map[string]bool{}, map[string]bool{}
	for _, t := range r.a.host.Tools(r.info.OperatingMode) {
		if t.Def.Name == tools.Skill && !r.offerSkill {
			continue // no skill to load (spec §2.1: offered whenever the catalog is not empty)
		}
		r.tools = append(r.tools, t.Def)
		r.parallel[t.Def.Name] = t.Parallel
		r.exclusive[t.Def.Name] = t.Exclusive
	}
	for _, name := range r.loaded {
		i := slices.IndexFunc(r.catalog, func(d DeferredTool) bool { return d.Name == name })
		if i < 0 || r.offered(name) {
			continue
		}
		d := r.catalog[i]
		r.tools = append(r.tools, d.Def)
		r.parallel[d.Name] = d.Parallel
	}
}

// load marks an on-demand tool loaded, after those loaded before it.
func (r *run) load(name string) {
	if r.active == nil {
		r.active = map[string]bool{}
	}
	if !r.active[name] {
		r.active[name] = true
		r.loaded = append(r.loaded, name)
	}
}

// setCatalog switches to mode's catalog, dropping loaded names it lacks.
func (r *run) setCatalog(catalog []DeferredTool) {
	r.catalog = catalog
	r.loaded = slices.DeleteFunc(r.loaded, func(name string) bool {
		if inCatalog(catalog, name) {
			return false
		}
		delete(r.active, name)
		return true
	})
}

// offered reports whether the request that produced the current response
// carried tool's schema (r.tools is rebuilt only after a batch).
func (r *run) offered(tool string) bool {
	return slices.ContainsFunc(r.tools, func(d provider.ToolDef) bool { return d.Name == tool })
}

// activationEvidence returns the on-demand tool names the effective
// context proves were loaded (spec §2.1): addedToolNames in the details of
// successful ToolSearch results (and the historical details.activated and
// top-level addedToolNames markers), and the names of successful calls,
// in the order they were first proven (the order they were loaded in).
// Messages before the checkpoint are gone; failed, aborted, skipped,
// interrupted and unfinished calls, and any prose, prove nothing.
func (t Transcript) activationEvidence() []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	var upto int64
	if t.Checkpoint != nil {
		upto = t.Checkpoint.UptoSeq
	}
	for _, m := range t.Messages {
		if m.Seq <= upto || m.Kind != KindModel || m.StopReason == stopFailed {
			continue // not in the context the next request is built from
		}
		inContext := map[string]bool{}
		for _, b := range m.Content {
			if b.Type == provider.BlockToolUse {
				inContext[b.ToolUseID] = true
			}
		}
		for _, c := range m.ToolCalls {
			if c.State != CallDone || len(c.Result) == 0 || !inContext[c.ToolUseID] {
				continue
			}
			var res struct {
				OK      bool `json:"ok"`
				Details struct {
					AddedToolNames []string        `json:"addedToolNames"`
					Activated      json.RawMessage `json:"activated"`
				} `json:"details"`
				AddedToolNames []string `json:"addedToolNames"`
			}
			if json.Unmarshal(c.Result, &res) != nil || !res.OK {
				continue
			}
			if c.Tool != ToolSearch {
				add(c.Tool)
				continue
			}
			names := slices.Concat(res.Details.AddedToolNames, res.AddedToolNames)
			var activated []string
			if json.Unmarshal(res.Details.Activated, &activated) == nil {
				names = append(names, activated...)
			}
			for _, n := range names {
				add(n)
			}
		}
	}
	return out
}

// restoreActive is the loaded list a new prompt starts with: the evidence
// of the effective context in its order, kept only where the mode's
// catalog still has the tool.
func restoreActive(t Transcript, catalog []DeferredTool) []string {
	var out []string
	for _, name := range t.activationEvidence() {
		if inCatalog(catalog, name) {
			out = append(out, name)
		}
	}
	return out
}

// toolSearch runs one ToolSearch call with validated args: it matches the
// catalog and loads the matches for the next request. It touches nothing
// in the workspace. mode is the session's durable mode.
func (r *run) toolSearch(args json.RawMessage, mode string, o *tools.Outcome) tools.Result {
	var in struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Failure(errs.Wrap(err, errs.InvalidArgument, "ToolSearch's arguments do not decode"))
	}
	query, limit := in.Query, searchDefaultLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	if len(r.catalog) == 0 {
		o.Decision = decisionDeny
		return tools.Failure(errs.New(errs.ToolNotFound, "there are no on-demand tools in %s mode; use the tools you have", permission.ModeName(mode)))
	}
	matches, unknown := searchCatalog(r.catalog, query, limit)
	if len(matches) == 0 {
		msg := fmt.Sprintf("no on-demand tool matches %q", strings.TrimSpace(query))
		if len(unknown) > 0 {
			msg = fmt.Sprintf("%s is not an on-demand tool of %s mode", strings.Join(unknown, ", "), permission.ModeName(mode))
		}
		return tools.Failure(errs.New(errs.ToolNotFound, "%s; the catalog has %s. Query a name, select:Name1,Name2, or words from a tool's purpose",
			msg, catalogList(r.catalog)).With("query", query))
	}
	names := catalogNames(matches)
	var b strings.Builder
	fmt.Fprintf(&b, "Loaded %d on-demand tool(s). Their schemas are in your tools from your next response on; call them then, not in this response:", len(matches))
	for _, d := range matches {
		fmt.Fprintf(&b, "\n- %s: %s", d.Name, oneLine(d.Summary, maxSummaryChars))
		r.load(d.Name)
	}
	if len(unknown) > 0 {
		fmt.Fprintf(&b, "\nNot in the catalog of %s mode: %s.", permission.ModeName(mode), strings.Join(unknown, ", "))
	}
	r.toolsChanged = true
	return tools.Result{OK: true, Content: b.String(), Details: map[string]any{"addedToolNames": names, "query": query}}
}

// catalogList names a catalog's tools for a message, bounded.
func catalogList(catalog []DeferredTool) string {
	const show = 20
	names := catalogNames(catalog)
	if len(names) > show {
		return strings.Join(names[:show], ", ") + fmt.Sprintf(" and %d more", len(names)-show)
	}
	return strings.Join(names, ", ")
}

// searchCatalog matches query against catalog: "select:A,B" selects exact
// names, a query equal to a name (any case) selects that tool, and any
// other query ranks tools by its words found in their names and
// descriptions (a name hit weighs more), ties in catalog order. unknown
// lists selected names the catalog lacks.
func searchCatalog(catalog []DeferredTool, query string, limit int) (matches []DeferredTool, unknown []string) {
	q := strings.TrimSpace(query)
	byName := func(name string) (DeferredTool, bool) {
		for _, d := range catalog {
			if strings.EqualFold(d.Name, name) {
				return d, true
			}
		}
		return DeferredTool{}, false
	}
	if len(q) >= 7 && strings.EqualFold(q[:7], "select:") {
		for _, n := range strings.Split(q[7:], ",") {
			n = strings.TrimSpace(n)
			if n == "" {
				continue
			}
			d, ok := byName(n)
			switch {
			case !ok:
				unknown = append(unknown, n)
			case !slices.ContainsFunc(matches, func(x DeferredTool) bool { return x.Name == d.Name }) && len(matches) < selectMax:
				matches = append(matches, d)
			}
		}
		return matches, unknown
	}
	if d, ok := byName(q); ok {
		return []DeferredTool{d}, nil
	}
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	type scored struct {
		d     DeferredTool
		score int
	}
	var hits []scored
	for _, d := range catalog {
		name, text := strings.ToLower(d.Name), strings.ToLower(d.Summary+" "+d.Def.Description)
		score := 0
		for _, w := range words {
			if len(w) < 2 || stopWords[w] {
				continue
			}
			if strings.Contains(name, w) {
				score += 3
			} else if strings.Contains(text, w) {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, scored{d, score})
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int { return b.score - a.score })
	for _, h := range hits[:min(len(hits), limit)] {
		matches = append(matches, h.d)
	}
	return matches, nil
}

// stopWords carry no capability: "the" would match every "weather".
var stopWords = map[string]bool{"an": true, "the": true, "to": true, "of": true, "for": true, "and": true, "or": true,
	"in": true, "on": true, "at": true, "by": true, "with": true, "from": true, "is": true, "it": true, "this": true,
	"that": true, "my": true, "me": true, "tool": true, "tools": true, "use": true, "can": true, "want": true, "need": true}

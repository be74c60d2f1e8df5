package hashline

import (
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// GuardLimit is the counted failure that terminates (contract §8).
const GuardLimit = 3

// shellPatchKey is the pseudo-path failed shell patch commands count on.
// It cannot collide with a canonical path, which never holds a NUL.
const shellPatchKey = "\x00shell-patch"

// GuardState is the "guard" object of an Edit failure result.
type GuardState struct {
	Attempt   int  `json:"attempt"`
	Grace     bool `json:"grace"`
	Limit     int  `json:"limit"`
	Terminate bool `json:"terminate"`
}

// Guard is the loop guard of one session (contract §8, spec §4d step 3):
// repair loops on one path end after three counted failures in a prompt. A
// stale tag or unseen lines is normal once (the fix is a Read or, for a
// complete reveal, the same call again), so each of those codes gets one
// free failure per path per prompt; everything else counts at once. Scopes
// are (prompt, path): a delegate run passes its own prompt id, so it cannot
// exhaust the parent's budget.
type Guard struct {
	mu      sync.Mutex
	prompts map[string]map[string]*guardPath
	order   []string // prompts by first use, to bound memory
}

// maxPrompts bounds how many prompts' counts a guard keeps; the oldest go
// first (a prompt that old is long over).
const maxPrompts = 64

type guardPath struct {
	count  int
	graces map[errs.Code]bool
}

// NewGuard returns a guard with no failures.
func NewGuard() *Guard { return &Guard{prompts: map[string]map[string]*guardPath{}} }

// graced are the codes with one free failure per path per prompt.
func graced(c errs.Code) bool {
	return c == errs.EditTagMismatch || c == errs.EditTagUnknown || c == errs.EditLinesUnseen
}

// Fail records a failed Edit/Write of key in prompt and returns the state to
// attach to the result. Terminate means the host stops after this batch and
// ends the turn with MUTATION_RETRY_BUDGET_EXHAUSTED.
func (g *Guard) Fail(prompt, key string, code errs.Code) GuardState {
	g.mu.Lock()
	defer g.mu.Unlock()
	p := g.path(prompt, key)
	st := GuardState{Limit: GuardLimit}
	if graced(code) && !p.graces[code] {
		p.graces[code] = true
		st.Grace = true
	} else {
		p.count++
	}
	st.Attempt = p.count
	st.Terminate = p.count >= GuardLimit
	return st
}

// Succeed clears key's count and graces in prompt after a successful write.
func (g *Guard) Succeed(prompt, key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m := g.prompts[prompt]; m != nil {
		delete(m, key)
		if len(m) == 0 {
			delete(g.prompts, prompt)
		}
	}
}

// FailShellPatch counts a failed apply_patch, git apply or patch command run
// through Bash. Those have no path key the host trusts, so they share one
// per-prompt pseudo-path and never get a grace.
func (g *Guard) FailShellPatch(prompt string) GuardState {
	return g.Fail(prompt, shellPatchKey, errs.ToolFailed)
}

// EndPrompt forgets prompt's counts once its turn or delegate run is over.
func (g *Guard) EndPrompt(prompt string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.prompts, prompt)
}

// Exhausted reports whether some path of prompt reached the limit: the turn
// must end, and the host refuses further mutations in it.
func (g *Guard) Exhausted(prompt string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, p := range g.prompts[prompt] {
		if p.count >= GuardLimit {
			return true
		}
	}
	return false
}

// State returns key's current state in prompt without recording anything.
func (g *Guard) State(prompt, key string) GuardState {
	g.mu.Lock()
	defer g.mu.Unlock()
	st := GuardState{Limit: GuardLimit}
	if p := g.prompts[prompt][key]; p != nil {
		st.Attempt, st.Terminate = p.count, p.count >= GuardLimit
	}
	return st
}

func (g *Guard) path(prompt, key string) *guardPath {
	m := g.prompts[prompt]
	if m == nil {
		m = map[string]*guardPath{}
		g.prompts[prompt] = m
		g.order = append(g.order, prompt)
		for len(g.order) > maxPrompts {
			delete(g.prompts, g.order[0])
			g.order = g.order[1:]
		}
	}
	p := m[key]
	if p == nil {
		p = &guardPath{graces: map[errs.Code]bool{}}
		m[key] = p
	}
	return p
}

// RecoveryHint is the error-specific advice of a terminating result: what to
// report instead of retrying again.
func RecoveryHint(code errs.Code) string {
	switch code {
	case errs.EditTagMismatch, errs.EditTagUnknown:
		return "The file keeps changing under the edit or the tag is stale. Stop editing it: report the exact mismatch (expected and live tag) and let the user decide."
	case errs.EditLinesUnseen:
		return "The edit keeps anchoring lines this session has not displayed in full. Stop: report which lines, and whether they are too long to display (those need Write)."
	case errs.EditParseFailed:
		return "The ops keep failing to parse. Stop: report the exact ops line and the corrected header the error named (for example `PUT 48.=48:`)."
	case errs.EditRangeInvalid:
		return "The ops keep overlapping or pointing outside the file. Stop: report the conflicting ops lines; use one body per gap and never consume a line twice."
	case errs.EditBlockUnresolved:
		return "Block locations keep failing. Stop: report the line and use an explicit `PUT N.=M:` range next turn."
	case errs.EditRegisterEmpty, errs.EditRegisterAmbiguous:
		return "Register moves keep failing. Stop: report the register problem; capture with a named register (`CUT N.=M @name`) before pasting."
	case errs.EditNoChange:
		return "The edits keep producing no change. Stop: the file may already contain the change; report what is there."
	case errs.ToolFailed:
		return "Shell patch commands keep failing. Stop: do not hand-edit old unified-diff hunk headers; report the failing hunk and switch to Read + Edit."
	}
	return "Mutations of this path keep failing. Stop and report the exact error instead of retrying."
}

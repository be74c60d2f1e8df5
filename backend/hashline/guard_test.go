package hashline

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// The loop-guard examples of edit-contract.md §8.
func TestGuardExamples(t *testing.T) {
	t.Run("mismatch then unseen: count 0", func(t *testing.T) {
		g := NewGuard()
		g.Fail("p", "f", errs.EditTagMismatch)
		if st := g.Fail("p", "f", errs.EditLinesUnseen); st.Attempt != 0 || !st.Grace || st.Terminate {
			t.Fatal(st)
		}
	})
	t.Run("mismatch twice: count 1", func(t *testing.T) {
		g := NewGuard()
		g.Fail("p", "f", errs.EditTagMismatch)
		if st := g.Fail("p", "f", errs.EditTagMismatch); st.Attempt != 1 || st.Grace {
			t.Fatal(st)
		}
	})
	t.Run("parse three times terminates", func(t *testing.T) {
		g := NewGuard()
		for i := 1; i <= 3; i++ {
			st := g.Fail("p", "f", errs.EditParseFailed)
			if st.Attempt != i || st.Terminate != (i == 3) || st.Limit != 3 {
				t.Fatal(i, st)
			}
		}
	})
	t.Run("failure, success, failure: count 1", func(t *testing.T) {
		g := NewGuard()
		g.Fail("p", "f", errs.EditParseFailed)
		g.Succeed("p", "f")
		if st := g.Fail("p", "f", errs.EditParseFailed); st.Attempt != 1 {
			t.Fatal(st)
		}
	})
	t.Run("success resets graces", func(t *testing.T) {
		g := NewGuard()
		g.Fail("p", "f", errs.EditTagMismatch)
		g.Succeed("p", "f")
		if st := g.Fail("p", "f", errs.EditTagMismatch); !st.Grace {
			t.Fatal(st)
		}
	})
	t.Run("complete unseen retry uses the grace; a second unseen counts", func(t *testing.T) {
		g := NewGuard()
		if st := g.Fail("p", "f", errs.EditLinesUnseen); !st.Grace {
			t.Fatal(st)
		}
		if st := g.Fail("p", "f", errs.EditLinesUnseen); st.Grace || st.Attempt != 1 {
			t.Fatal(st)
		}
	})
	t.Run("scopes: per path and per prompt", func(t *testing.T) {
		g := NewGuard()
		g.Fail("p", "f", errs.EditParseFailed)
		g.Fail("p", "f", errs.EditParseFailed)
		if st := g.Fail("p", "other", errs.EditParseFailed); st.Attempt != 1 {
			t.Fatal(st)
		}
		if st := g.Fail("delegate", "f", errs.EditParseFailed); st.Attempt != 1 {
			t.Fatal(st)
		}
		if st := g.Fail("p", "f", errs.EditParseFailed); !st.Terminate {
			t.Fatal(st)
		}
		g.EndPrompt("p")
		if st := g.State("p", "f"); st.Attempt != 0 {
			t.Fatal(st)
		}
	})
	t.Run("shell patches count on a per-prompt pseudo-path", func(t *testing.T) {
		g := NewGuard()
		g.FailShellPatch("p")
		g.FailShellPatch("p")
		g.Fail("p", "f", errs.EditParseFailed) // does not add to the shell count
		if st := g.FailShellPatch("p"); !st.Terminate || st.Attempt != 3 {
			t.Fatal(st)
		}
	})
}

func TestRecoveryHints(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range []errs.Code{errs.EditTagMismatch, errs.EditLinesUnseen, errs.EditParseFailed, errs.EditRangeInvalid,
		errs.EditBlockUnresolved, errs.EditRegisterEmpty, errs.EditNoChange, errs.ToolFailed, errs.Internal} {
		h := RecoveryHint(c)
		if h == "" || seen[h] {
			t.Errorf("%s: hint %q missing or shared", c, h)
		}
		seen[h] = true
	}
}

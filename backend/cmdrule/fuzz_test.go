package cmdrule

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzClassify: the classifier never panics, and it answers allow only when
// an independent walk of the parse finds that every simple command's words
// (some of its leading words may be wrappers) begin with an allow rule's
// words, all plain literals, and nothing that always asks is in the script.
func FuzzClassify(f *testing.F) {
	for _, s := range []string{
		"git status", "git status; rm -rf /", "echo $(git status)", "timeout 5 git status -s | head",
		"f() { git status; }", "cat <<EOF\n$(ls)\nEOF", "env A=1 git status > out", "\\g\\i\\t status",
		"bash -c 'eval \"rm -rf /\"'", "for x in a; do git log; done", "git log `ls`", "ls >(cat)",
		"echo ${x:-$(ls)}", "echo $((1+$(ls)))", "[[ $(ls) ]]", "sed -e 's/a/b/w x'", "{ ls; } > $f",
	} {
		f.Add(s)
	}
	rules := append([]Rule(nil), corpusRules...)
	f.Fuzz(func(t *testing.T, src string) {
		r := Classify(src, rules)
		checkConsistent(t, src, r)
		if r.Decision != Allow {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatalf("%q: allowed but does not parse: %v", src, err)
		}
		calls := 0
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CallExpr:
				if len(n.Args) == 0 {
					t.Errorf("%q: allowed with a bare assignment", src)
					return true
				}
				calls++
				if !coveredByAllowRule(n.Args, rules) {
					t.Errorf("%q: allowed, but no allow rule covers %q", src, sourceOf(src, n))
				}
			case *syntax.FuncDecl, *syntax.CoprocClause:
				t.Errorf("%q: allowed with a function or coproc", src)
			case *syntax.Redirect:
				if isWriteOp(n.Op) && !plainWord(n.Word) {
					t.Errorf("%q: allowed with a write to a computed path", src)
				}
			}
			return true
		})
		if calls > len(r.Commands) {
			t.Errorf("%q: %d simple commands parsed, %d decided", src, calls, len(r.Commands))
		}
	})
}

// coveredByAllowRule: from some position whose earlier words are plain
// literals (wrappers), the words are an allow rule's words exactly.
func coveredByAllowRule(args []*syntax.Word, rules []Rule) bool {
	vals := make([]string, len(args))
	for i, a := range args {
		if !plainWord(a) {
			vals[i] = "\x00" // never equal to a rule word
			continue
		}
		vals[i] = plainValue(a)
	}
	for p := range vals {
		for _, r := range rules {
			if r.Decision != Allow || len(vals)-p < len(r.Args)+1 || vals[p] != r.Program {
				continue
			}
			ok := true
			for i, a := range r.Args {
				ok = ok && vals[p+1+i] == a
			}
			if ok {
				return true
			}
		}
		if vals[p] == "\x00" {
			return false
		}
	}
	return false
}

// plainWord and plainValue are a second, simpler reading of literal words:
// unquoted text without glob, brace, tilde or escapes, single quotes, and
// double quotes holding only text without backslashes.
func plainWord(w *syntax.Word) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[{~") {
				return false
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok || p.Dollar {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

func plainValue(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			unquoteLit(&b, p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				unquoteDouble(&b, q.(*syntax.Lit).Value)
			}
		}
	}
	return b.String()
}

func isWriteOp(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob,
		syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
		return true
	}
	return false
}

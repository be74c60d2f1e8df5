package cmdrule

import (
	"mvdan.cc/sh/v3/syntax"
)

// Bash evaluates the text of a variable used in arithmetic ($((x)),
// ((x)), let, [[ x -eq y ]], ${a[x]}, ${s:x}) as an arithmetic expression,
// and an array subscript in that text runs command substitutions:
// x='a[$(id)]'; echo $((x)) runs id. Indirect (${!x}) and @-operator
// (${x@P}) expansions do the same. Where such a variable could come from
// (a for loop, read, the environment) is beyond a static look, so these
// always ask.

const arithReason = "bash evaluates this variable's text as code (arithmetic or indirect expansion), which can run commands"

// expansionRisk is the reason n always asks, or "".
func expansionRisk(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.ArithmExp:
		return arithVarIn(n.X)
	case *syntax.ArithmCmd:
		return arithVarIn(n.X)
	case *syntax.LetClause:
		for _, x := range n.Exprs {
			if why := arithVarIn(x); why != "" {
				return why
			}
		}
	case *syntax.ParamExp:
		if n.Excl || (n.Exp != nil && n.Exp.Op == syntax.OtherParamOps) {
			return arithReason
		}
		if n.Index != nil {
			if why := arithVarIn(n.Index); why != "" {
				return why
			}
		}
		if n.Slice != nil {
			if why := arithVarIn(n.Slice.Offset); why != "" {
				return why
			}
			if why := arithVarIn(n.Slice.Length); why != "" {
				return why
			}
		}
	case *syntax.BinaryTest:
		switch n.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, side := range []syntax.TestExpr{n.X, n.Y} {
				if w, ok := side.(*syntax.Word); !ok || !numericWord(w) {
					return arithReason
				}
			}
		}
	}
	return ""
}

// arithVarIn reports arithReason when x names a variable anywhere.
func arithVarIn(x syntax.ArithmExpr) string {
	if x == nil {
		return ""
	}
	why := ""
	syntax.Walk(x, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		if w, ok := n.(*syntax.Word); ok {
			if !numericWord(w) {
				why = arithReason
			}
			return false
		}
		return true
	})
	return why
}

// numericWord: a number (42, 0x1f, 16#ff) or a special parameter ($#, $?,
// $$, $!) whose value the script cannot make into code.
func numericWord(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.Lit:
		v := p.Value
		if v == "" || v[0] < '0' || v[0] > '9' {
			return false
		}
		for i := 0; i < len(v); i++ {
			c := v[i]
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '#' || c == '_' || c == '@') {
				return false
			}
		}
		return true
	case *syntax.ParamExp:
		if p.Param == nil || p.Excl || p.Exp != nil || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Names != 0 {
			return false
		}
		// $1… are left out: set -- can make them anything.
		switch p.Param.Value {
		case "#", "?", "$", "!":
			return true
		}
	}
	return false
}

package hashline

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		ops  string
		want []op
	}{
		{"PUT 6.=7:\n+a\n+\n++b", []op{{kind: opPut, loc: locSpan, a: 6, b: 7, hasBody: true, body: []string{"a", "", "+b"}}}},
		{"PUT 4*:\n+x", []op{{kind: opPut, loc: locBlock, a: 4, b: 4, hasBody: true, body: []string{"x"}}}},
		{"PUT <1:\n+x\r\r", []op{{kind: opPut, loc: locBefore, a: 1, b: 1, hasBody: true, body: []string{"x"}}}},
		{"PUT >3:\n+x", []op{{kind: opPut, loc: locAfter, a: 3, b: 3, hasBody: true, body: []string{"x"}}}},
		{"PUT >$:\n+x\n", []op{{kind: opPut, loc: locEnd, hasBody: true, body: []string{"x"}}}},
		{"PUT >3*:\n+x", []op{{kind: opPut, loc: locAfterBlock, a: 3, b: 3, hasBody: true, body: []string{"x"}}}},
		{"CUT 1.=2\nCUT 5* @fn\nPUT <9 @\nPUT 3.=3 @fn", []op{
			{kind: opCut, loc: locSpan, a: 1, b: 2},
			{kind: opCut, loc: locBlock, a: 5, b: 5, hasReg: true, reg: "fn"},
			{kind: opPut, loc: locBefore, a: 9, b: 9, hasReg: true},
			{kind: opPut, loc: locSpan, a: 3, b: 3, hasReg: true, reg: "fn"},
		}},
		{"REM", []op{{kind: opRem}}},
		{"PUT 1.=1:\n+x\n\nMV dir/new name.go", []op{{kind: opPut, loc: locSpan, a: 1, b: 1, hasBody: true, body: []string{"x"}}, {kind: opMv, dest: "dir/new name.go"}}},
		{"[a/b.go#a0f3]\nCUT 1.=1", []op{{kind: opCut, loc: locSpan, a: 1, b: 1}}},
		{"CUT 1.=1  \r\n", []op{{kind: opCut, loc: locSpan, a: 1, b: 1}}},
	}
	for _, tt := range tests {
		p, err := parseOps(tt.ops, defaultOpsLimits())
		if err != nil {
			t.Fatalf("%q: %v", tt.ops, err)
		}
		// opsLine and src are the header's position and text, checked by the
		// rejection tests; an empty body equals no body.
		diff := cmp.Diff(tt.want, p.ops, cmp.AllowUnexported(op{}),
			cmpopts.IgnoreFields(op{}, "opsLine", "src"), cmpopts.EquateEmpty())
		if diff != "" {
			t.Errorf("%q ops (-want +got):\n%s", tt.ops, diff)
		}
	}
}

func TestParseRejectsWithCorrectedForm(t *testing.T) {
	tests := []struct{ ops, expected, msg string }{
		{"PUT 48.=48\n+x", "PUT 48.=48:", "`PUT 48.=48` lacks `:` before + rows; use `PUT 48.=48:`"},
		{"PUT 48..50:\n+x", "PUT 48.=50:", "use `PUT 48.=50:`"},
		{"PUT 48-50:\n+x", "PUT 48.=50:", "use `PUT 48.=50:`"},
		{"PUT 48=50:\n+x", "PUT 48.=50:", "use `PUT 48.=50:`"},
		{"PUT 48:\n+x", "PUT 48.=48:", "use `PUT 48.=48:`"},
		{"PUT 48\n+x", "PUT 48.=48:", "use `PUT 48.=48:`"},
		{"CUT 3..4", "CUT 3.=4", "use `CUT 3.=4`"},
		{"CUT 3..4 @r", "CUT 3.=4 @r", "use `CUT 3.=4 @r`"},
		{"put 3.=3:\n+x", "PUT 3.=3:", "upper case"},
		{"PUT >3\n+x", "PUT >3:", "lacks `:`"},
		{"PUT >3 :\n+x", "PUT >3:", "no space before"},
		{"PUT 3.=3:", "PUT 3.=3:\n+…", "has no + rows"},
		{"PUT 3.=3", "PUT 3.=3:", "needs `:`"},
		{"PUT 3.=3:\n+a\n-b", "+text", "no -old rows"},
		{"PUT 3.=3:\n+a\n\n+b", "+", "blank inside the body"},
		{"+x", "PUT loc:", "outside a body"},
		{"CUT <3", "CUT N.=M", "not a gap"},
		{"CUT 3.=3:", "CUT 3.=3", "CUT takes no body"},
		{"PUT 03.=3:\n+x", "PUT 3.=3:", "use `PUT 3.=3:`"},
		{"PUT 3.=3 @a b", "PUT 3.=3 @name", "register is"},
		{"PUT 3.=3 @r\n+x", "PUT 3.=3:", "pastes a register but + rows follow"},
		{"REM now", "REM", "takes no arguments"},
		{"MV", "MV DEST", "MV DEST"},
		{"MV  x", "MV DEST", "exactly one space"},
		{"MV a\nMV b", "MV DEST", "more than one MV"},
		{"REM\nCUT 1.=1", "REM", "only op"},
		{"DEL 3", "PUT|CUT|REM|MV", "not an op"},
		{"", "PUT loc:", "ops is empty"},
		{"[greet.go]\nCUT 1.=1", "[path#TAG]", "header"},
		{"PUT 1234567890.=1234567890:\n+x", "PUT N.=M", "location"},
	}
	for _, tt := range tests {
		_, err := parseOps(tt.ops, defaultOpsLimits())
		if err == nil {
			t.Errorf("%q parsed", tt.ops)
			continue
		}
		if err.Code != "EDIT_PARSE_FAILED" || err.Retry != RetryFixOps {
			t.Errorf("%q: %s", tt.ops, err.Code)
		}
		if err.Details["expected"] != tt.expected || !strings.Contains(err.Message, tt.msg) {
			t.Errorf("%q: expected %q message %q", tt.ops, err.Details["expected"], err.Message)
		}
		if _, ok := err.Details["opsLine"].(int); !ok {
			t.Errorf("%q: no opsLine", tt.ops)
		}
	}
}

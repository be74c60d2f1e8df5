package viz

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		frag     string
		scripts  int
		ids      []string
		problems []string // "line:kind:substring"
	}{
		{
			name:    "clean chart with helpers and lookups",
			frag:    "<div id=\"chart\"></div>\n<p id='note'></p>\n<script>\nviz.bar('chart', [{x:'a', y:1}]);\ndocument.getElementById(\"note\").textContent = `ok`;\ndocument.querySelector('#chart svg');\nd3.select('#note');\n</script>\n",
			scripts: 1, ids: []string{"chart", "note"},
		},
		{
			name:    "modern syntax compiles",
			frag:    "<div id=a></div><script>\nconst f = async () => { const r = await Promise.resolve({v: 1}); return r?.v ?? 0; };\nclass C { #p = 1; get p() { return this.#p; } }\nconst {x, ...rest} = {x: 1, y: 2};\nviz.render(\"a\", (sel, {width}) => sel.append('svg').attr('width', width));\n</script>",
			scripts: 1, ids: []string{"a"},
		},
		{
			name:     "syntax error is reported on its file line",
			frag:     "<div id=\"c\"></div>\n\n<script>\nconst data = [1, 2;\n</script>",
			scripts:  1,
			problems: []string{"4:syntax:script does not compile"},
		},
		{
			name:     "missing ids are reported with the line of their use, once each",
			frag:     "<div id=\"chart\"></div>\n<script>\nviz.chart(\"chrt\", {type: 'bar', data: []});\nviz.line('legend', []);\nviz.line('legend', []);\ndocument.querySelectorAll('#rows > tr');\n</script>",
			scripts:  1,
			ids:      []string{"chrt", "legend", "rows"},
			problems: []string{"3:missing-id:viz.chart(\"chrt\") targets id \"chrt\"", "4:missing-id:\"legend\"", "6:missing-id:\"rows\""},
		},
		{
			name:    "ids created by scripts count",
			frag:    "<script>\nconst d = document.createElement('div'); d.id = 'made'; document.body.append(d);\nd3.select('body').append('div').attr('id', 'd3made');\nconst e = document.createElement('p'); e.setAttribute(\"id\", \"attr\");\nviz.bar('made', []); viz.line('d3made', []); document.getElementById('attr');\n</script>",
			scripts: 1, ids: []string{"attr", "d3made", "made"},
		},
		{
			name:    "non-literal ids and escaped literals are not guessed",
			frag:    "<script>\nconst id = 'x'; viz.bar(id, []); viz.bar('a\\u0062', []); document.querySelector('.cls');\n</script>",
			scripts: 1, ids: []string{},
		},
		{
			name:     "full document",
			frag:     "<!DOCTYPE html>\n<html><head></head><body><div id=x></div></body></html>",
			problems: []string{"1:full-document:<!DOCTYPE>", "2:full-document:<html>", "2:full-document:<head>", "2:full-document:<body>"},
			ids:      []string{},
		},
		{
			name:     "blocked assets; own D3 tag is fine",
			frag:     "<script src=\"https://cdn.jsdelivr.net/npm/d3@7/dist/d3.min.js\"></script>\n<script src=\"https://example.com/chart.js\"></script>\n<img src=\"https://example.com/a.png\"><img src=\"data:image/png;base64,AA==\">\n<link rel=stylesheet href=\"x.css\">\n<iframe></iframe><form></form>",
			problems: []string{"2:blocked:<script src=\"https://example.com/chart.js\">", "3:blocked:<img src=", "4:blocked:<link href=", "5:blocked:<iframe>", "5:blocked:<form>"},
			ids:      []string{},
		},
		{
			name:    "json and template scripts are not compiled",
			frag:    "<script type=\"application/json\">{\"a\": </script><script type=\"text/template\"><b>{{x}}</b></script>",
			scripts: 0, ids: []string{},
		},
		{
			name:     "every inline script is compiled",
			frag:     "<script>let a = 1;</script>\n<script type=\"module\">\nimport x from 'y';\nlet = ;\n</script>",
			scripts:  2,
			problems: []string{"4:syntax:"},
			ids:      []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Check([]byte(tt.frag))
			if r.Scripts != tt.scripts {
				t.Errorf("scripts = %d, want %d", r.Scripts, tt.scripts)
			}
			if tt.ids == nil {
				tt.ids = []string{}
			}
			if strings.Join(r.IDs, ",") != strings.Join(tt.ids, ",") {
				t.Errorf("ids = %q, want %q", r.IDs, tt.ids)
			}
			if len(r.Problems) != len(tt.problems) {
				t.Fatalf("problems = %+v, want %d: %q", r.Problems, len(tt.problems), tt.problems)
			}
			for i, want := range tt.problems {
				parts := strings.SplitN(want, ":", 3)
				got := r.Problems[i]
				if parts[0] != strconv.Itoa(got.Line) || parts[1] != got.Kind || !strings.Contains(got.Message, parts[2]) {
					t.Errorf("problem %d = %d:%s:%s, want %s", i, got.Line, got.Kind, got.Message, want)
				}
			}
		})
	}
}

func TestCheckBoundsProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString("<script>\n")
	for i := 0; i < 50; i++ {
		b.WriteString("viz.bar('missing" + strconv.Itoa(i) + "', []);\n")
	}
	b.WriteString("</script>")
	if r := Check([]byte(b.String())); len(r.Problems) != maxProblems {
		t.Fatalf("problems = %d, want %d", len(r.Problems), maxProblems)
	}
}

// The model reads this text in the Write result.
func TestReportTextGolden(t *testing.T) {
	const path = "/home/ada/.local/share/pi-desktop/visualizations/s1/sales.html"
	ok := Check([]byte("<div id=\"chart\"></div>\n<script>\nviz.bar('chart', [{label: 'a', value: 3}]);\n</script>\n"))
	bad := Check([]byte("<div id=\"chart\"></div>\n<script>\nviz.bar('chrt', [{label: 'a', value: 3}]);\n</script>\n<script>\nconst x = ;\n</script>\n<script src=\"https://example.com/lib.js\"></script>\n"))
	got := "--- ok ---\n" + ok.Text(path) + "\n--- problems ---\n" + bad.Text(path) + "\n--- windows path ---\n" + ok.Text(`C:\Users\Ada\AppData\Roaming\pi-desktop\visualizations\s1\<a&b>.html`) + "\n"
	golden.Assert(t, filepath.Join("testdata", "report.golden"), got)
}

package skills_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/internal/golden"
)

func TestCatalogGolden(t *testing.T) {
	list := []skills.Skill{
		{Name: skills.VisualizeName, Description: "Show data as an inline chart."},
		{Name: "pdf", Description: "Fill and read PDF forms.\n  Use it for   any .pdf file."},
		{Name: "deploy", Description: "Deploys production.", DisableModelInvocation: true},
		{Name: "review", Description: "Review a change the way this team does."},
	}
	c := skills.BuildCatalog(list, skills.CatalogBudget(200_000))
	if c.Listed != 3 || c.LeftOut != 0 {
		t.Fatalf("catalog = %+v", c)
	}
	if strings.Contains(c.Text, "deploy") {
		t.Fatal("a disable-model-invocation skill is in the model's catalog")
	}
	golden.Assert(t, filepath.Join("testdata", "catalog.golden"), c.Text)
}

func TestCatalogBounded(t *testing.T) {
	var list []skills.Skill
	for i := range skills.MaxSkills {
		list = append(list, skills.Skill{Name: fmt.Sprintf("skill-%02d", i), Description: strings.Repeat("word ", 200)})
	}
	for _, window := range []int{8_000, 32_768, 200_000, 1_000_000} {
		budget := skills.CatalogBudget(window)
		c := skills.BuildCatalog(list, budget)
		if len(c.Text) > budget*skills.CharsPerToken {
			t.Errorf("window %d: %d bytes over the budget of %d tokens", window, len(c.Text), budget)
		}
		if c.Listed+c.LeftOut != len(list) {
			t.Errorf("window %d: %+v", window, c)
		}
		if c.LeftOut > 0 && !strings.Contains(c.Text, fmt.Sprintf("… %d more skills", c.LeftOut)) {
			t.Errorf("window %d: the left-out count is not said:\n%s", window, c.Text)
		}
	}
	if c := skills.BuildCatalog(list, skills.CatalogBudget(32_768)); c.LeftOut == 0 || c.Listed == 0 {
		t.Errorf("a 32k window should list some and leave some out: %+v", c)
	}
	golden.Assert(t, filepath.Join("testdata", "catalog_left_out.golden"),
		skills.BuildCatalog(list[:5], 700).Text)
}

func TestCatalogEmpty(t *testing.T) {
	for _, list := range [][]skills.Skill{nil, {{Name: "x", Description: "d", DisableModelInvocation: true}}} {
		if c := skills.BuildCatalog(list, 1000); c != (skills.Catalog{}) {
			t.Errorf("catalog = %+v", c)
		}
	}
}

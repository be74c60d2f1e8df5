package providers_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// "Supports images" is kept as the user chose it (unset, on or off), the
// family's default is filled on every read, and the provider config
// carries the choice.
func TestSupportsImagesIsSavedAndReadBack(t *testing.T) {
	f := newFixture(t, nil)
	on, off := true, false
	for _, tt := range []struct {
		name, api, model, url string
		choice                *bool
		wantDefault           bool
		wantEffective         bool
	}{
		{"claude unset", provider.APIAnthropic, "claude-sonnet-4-5", "", nil, true, true},
		{"claude off", provider.APIAnthropic, "claude-opus-4-5", "", &off, true, false},
		{"local unset", provider.APIOpenAICompatible, "qwen2.5-coder:7b", "http://localhost:11434/v1", nil, false, false},
		{"local on", provider.APIOpenAICompatible, "my-finetune", "http://localhost:11434/v1", &on, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			saved := f.save(t, providers.Profile{Name: tt.name, API: tt.api, Model: tt.model, BaseURL: tt.url, SupportsImages: tt.choice}, "sk-test")
			got, err := f.svc.Get(t.Context(), saved.ID)
			if err != nil {
				t.Fatal(err)
			}
			if (got.SupportsImages == nil) != (tt.choice == nil) || (tt.choice != nil && *got.SupportsImages != *tt.choice) {
				t.Errorf("SupportsImages = %v, want %v", got.SupportsImages, tt.choice)
			}
			if got.ImagesByDefault != tt.wantDefault {
				t.Errorf("ImagesByDefault = %v, want %v", got.ImagesByDefault, tt.wantDefault)
			}
			cfg, err := f.svc.Config(t.Context(), got)
			if err != nil {
				t.Fatal(err)
			}
			p, err := provider.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if p.Info().SupportsImages != tt.wantEffective {
				t.Errorf("effective = %v, want %v", p.Info().SupportsImages, tt.wantEffective)
			}
			// Saving again with the choice cleared goes back to the default.
			got.SupportsImages = nil
			again := f.save(t, got, "")
			if again.SupportsImages != nil {
				t.Errorf("cleared choice read back as %v", *again.SupportsImages)
			}
		})
	}
}

package hostcore_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

// "Test connection" also says what the server lists, and the picker's
// list uses the saved key when the form leaves the key empty.
func TestProviderModelsBesideTheConnectionTest(t *testing.T) {
	core, _ := providerHost(t, providertest.NewKeychain())
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "pong"})
	srv.SetModels(providertest.ListedModel{ID: "gpt-5"}, providertest.ListedModel{ID: "gpt-4o"})
	saved, err := core.SaveProvider(t.Context(), providers.Profile{Name: "GPT", API: "openai", BaseURL: srv.URL + "/v1", Model: "gpt-5", OpenAIAPI: "chat"}, providertest.Key)
	if err != nil {
		t.Fatal(err)
	}
	res := core.TestProvider(t.Context(), saved, "", 5*time.Second)
	if !res.OK || len(res.Models) != 2 || res.Models[0].ID != "gpt-5" || res.ModelsCode != "" {
		t.Fatalf("TestProvider = %+v", res)
	}
	list := core.ListProviderModels(t.Context(), providers.Profile{ID: saved.ID, API: "openai", BaseURL: srv.URL + "/v1"}, "", 5*time.Second)
	if !list.OK || len(list.Models) != 2 || list.Message != "The server lists 2 models." {
		t.Fatalf("ListProviderModels = %+v", list)
	}
	for _, r := range srv.Requests() {
		if r.Header.Get("Authorization") != "Bearer "+providertest.Key {
			t.Errorf("%s %s went without the saved key", r.Method, r.Path)
		}
	}
	raw, _ := json.Marshal(list)
	if strings.Contains(string(raw), providertest.Key) {
		t.Errorf("the list carries the key: %s", raw)
	}
}

// A server without a list still passes the test: the model answered, and
// the result says the model id is typed.
func TestProviderModelsUnavailableIsNotAFailedTest(t *testing.T) {
	core, _ := providerHost(t, providertest.NewKeychain())
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "pong"})
	in := providers.Profile{API: provider.APIOpenAICompatible, BaseURL: srv.URL + "/v1", Model: "local"}
	res := core.TestProvider(t.Context(), in, "", 5*time.Second)
	if !res.OK || res.ModelsCode != string(errs.ModelListUnavailable) || res.Models == nil || len(res.Models) != 0 || res.ModelsMessage == "" {
		t.Fatalf("TestProvider = %+v", res)
	}
	list := core.ListProviderModels(t.Context(), providers.Profile{API: provider.APIOpenAICompatible, BaseURL: "http://127.0.0.1:1/v1"}, "", time.Second)
	if list.OK || list.Code != string(errs.ProviderUnreachable) || list.Models == nil {
		t.Fatalf("ListProviderModels unreachable = %+v", list)
	}
}

// Package providers keeps the saved model providers of Settings → Models
// (named configurations, one of them the default) and each session's choice
// among them. API keys go to a provider.KeyStore under the provider's id,
// never to the database; a Profile says only whether a key is saved and
// where.
package providers

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// Profile is one saved provider configuration as the UI sees it.
type Profile struct {
	ID              string   `json:"id"`
	Name            string   `json:"name"`
	API             string   `json:"api"` // anthropic | openai | openai-compatible
	BaseURL         string   `json:"baseUrl"`
	Model           string   `json:"model"`
	ContextWindow   int      `json:"contextWindow"`   // 0 = the API's default
	MaxOutputTokens int      `json:"maxOutputTokens"` // 0 = the API's default
	Temperature     *float64 `json:"temperature,omitempty"`
	Thinking        bool     `json:"thinking"` // Anthropic only
	// SupportsImages is the user's explicit choice; nil follows
	// ImagesByDefault, which is known for the model's family.
	SupportsImages  *bool `json:"supportsImages,omitempty"`
	ImagesByDefault bool  `json:"imagesByDefault"`
	// PromptCacheKey is whether OpenAI's prompt_cache_key (the session id)
	// is sent; nil sends it to the openai API only, since many compatible
	// servers reject fields they do not know.
	PromptCacheKey *bool `json:"promptCacheKey,omitempty"`
	// OpenAIAPI is the OpenAI wire API the user chose, "responses" or
	// "chat"; "" follows provider.OpenAIWireAPI's default. Anthropic: "".
	OpenAIAPI string `json:"openaiApi"`
	// EffectiveContextWindow and EffectiveMaxOutput are the limits turns
	// run with (provider.LimitsFor): the values above when set, else the
	// built-in table's for a known model (LimitsKnown), else the API's
	// defaults. Derived on every read, never saved.
	EffectiveContextWindow int  `json:"effectiveContextWindow"`
	EffectiveMaxOutput     int  `json:"effectiveMaxOutput"`
	LimitsKnown            bool `json:"limitsKnown"`
	IsDefault              bool `json:"isDefault"`
	// HasKey and KeyStorage describe the saved key without revealing it:
	// KeyStorage is "keychain", the key file's path, or "" with no key.
	HasKey     bool   `json:"hasKey"`
	KeyStorage string `json:"keyStorage"`
	CreatedAt  int64  `json:"createdAt"`
	UpdatedAt  int64  `json:"updatedAt"`
	// PriceOverrides are this provider's own prices, field by field over
	// the built-in table; BuiltinPrice is the table's price of the model
	// (nil: unknown, or a server on this machine) and Price what a turn
	// costs now (nil: unknown, shown as "—"). Both are derived on read.
	PriceOverrides PriceOverrides `json:"priceOverrides"`
	BuiltinPrice   *ModelPrice    `json:"builtinPrice,omitempty"`
	Price          *ModelPrice    `json:"price,omitempty"`
}

// Config is the profile's provider config without its key.
func (p Profile) Config() provider.Config {
	return provider.Config{API: p.API, BaseURL: p.BaseURL, Model: p.Model, ContextWindow: p.ContextWindow,
		MaxOutputTokens: p.MaxOutputTokens, Temperature: p.Temperature, Thinking: p.Thinking, SupportsImages: p.SupportsImages,
		PromptCacheKey: p.PromptCacheKey, OpenAIAPI: p.OpenAIAPI, Price: p.EffectivePrice(), ProfileID: p.ID}
}

const (
	maxNameRunes   = 80
	maxModelRunes  = 200
	maxURLLength   = 2048
	maxTemperature = 2.0
)

// Service reads and writes the saved providers.
type Service struct {
	db   *sql.DB
	keys provider.KeyStore
	now  func() time.Time
}

// New returns the Service over db; keys holds the API keys. now may be nil.
func New(db *sql.DB, keys provider.KeyStore, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{db: db, keys: keys, now: now}
}

// KeyStorage is where a key saved now would go: "keychain" or the file.
func (s *Service) KeyStorage() string { return s.keys.Where() }

func storageErr(err error, doing string) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s: the database did not answer; check free disk space and restart PI-Desktop", doing)
}

func notFound(id string) error {
	return errs.New(errs.NotFound, "no saved provider has the id %q; it may have been removed: reopen Settings → Models", id).With("field", "id")
}

const columns = "id, name, api, base_url, model, context_window, max_output_tokens, temperature, thinking, supports_images, prompt_cache_key, is_default, created_at, updated_at" +
	", openai_api" +
	", price_input, price_output, price_cache_write, price_cache_read"

type scanner interface{ Scan(...any) error }

func scanProfile(r scanner) (Profile, error) {
	var p Profile
	var temp sql.NullFloat64
	var images, cacheKey sql.NullBool
	var prices [4]sql.NullInt64
	err := r.Scan(&p.ID, &p.Name, &p.API, &p.BaseURL, &p.Model, &p.ContextWindow, &p.MaxOutputTokens, &temp, &p.Thinking, &images, &cacheKey,
		&p.IsDefault, &p.CreatedAt, &p.UpdatedAt,
		&p.OpenAIAPI, &prices[0], &prices[1], &prices[2], &prices[3])
	p.PriceOverrides = overridesFromColumns(prices)
	if temp.Valid {
		v := temp.Float64
		p.Temperature = &v
	}
	if images.Valid {
		v := images.Bool
		p.SupportsImages = &v
	}
	if cacheKey.Valid {
		v := cacheKey.Bool
		p.PromptCacheKey = &v
	}
	p.ImagesByDefault = provider.ImagesByDefault(p.API, p.Model)
	p = withLimits(p)
	p.BuiltinPrice, p.Price = p.prices()
	return p, err
}

// withLimits fills the derived limits.
func withLimits(p Profile) Profile {
	l := provider.LimitsFor(p.Config())
	p.EffectiveContextWindow, p.EffectiveMaxOutput, p.LimitsKnown = l.ContextWindow, l.MaxOutput, l.Known
	return p
}

// withKey fills HasKey and KeyStorage.
func (s *Service) withKey(p Profile) (Profile, error) {
	where, err := s.keys.Locate(provider.Account(p.ID))
	if err != nil {
		return p, err
	}
	p.HasKey, p.KeyStorage = where != "", where
	return p, nil
}

// List returns the saved providers, oldest first.
func (s *Service) List(ctx context.Context) ([]Profile, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+columns+" FROM providers ORDER BY created_at, id")
	if err != nil {
		return nil, storageErr(err, "list the providers")
	}
	defer rows.Close()
	var out []Profile
	for rows.Next() {
		p, err := scanProfile(rows)
		if err != nil {
			return nil, storageErr(err, "list the providers")
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, storageErr(err, "list the providers")
	}
	for i := range out {
		if out[i], err = s.withKey(out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Get returns one saved provider (NOT_FOUND when there is none).
func (s *Service) Get(ctx context.Context, id string) (Profile, error) {
	p, err := scanProfile(s.db.QueryRowContext(ctx, "SELECT "+columns+" FROM providers WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, notFound(id)
	}
	if err != nil {
		return Profile{}, storageErr(err, "read the provider")
	}
	return s.withKey(p)
}

// Default returns the default provider; ok is false when none is saved.
func (s *Service) Default(ctx context.Context) (Profile, bool, error) {
	p, err := scanProfile(s.db.QueryRowContext(ctx, "SELECT "+columns+" FROM providers WHERE is_default = 1"))
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, false, nil
	}
	if err != nil {
		return Profile{}, false, storageErr(err, "read the default provider")
	}
	p, err = s.withKey(p)
	return p, err == nil, err
}

// Config returns the provider config of a saved provider, key included.
func (s *Service) Config(ctx context.Context, p Profile) (provider.Config, error) {
	cfg := p.Config()
	key, err := s.keys.Get(provider.Account(p.ID))
	if err != nil {
		return provider.Config{}, err
	}
	cfg.APIKey = key
	return cfg, nil
}

// normalize trims and checks in; it never looks at the key.
func normalize(in Profile) (Profile, error) {
	in.Name = strings.TrimSpace(in.Name)
	in.API = strings.ToLower(strings.TrimSpace(in.API))
	in.BaseURL = strings.TrimSpace(in.BaseURL)
	in.Model = strings.TrimSpace(in.Model)
	field := func(name, format string, args ...any) error {
		return errs.New(errs.InvalidArgument, format, args...).With("field", name)
	}
	switch in.API {
	case provider.APIAnthropic, provider.APIOpenAI, provider.APIOpenAICompatible:
	default:
		return in, field("api", "choose the API style: anthropic, openai or openai-compatible (not %q)", in.API)
	}
	if in.Model == "" {
		return in, errs.New(errs.ModelNotConfigured, "enter the model id this provider should use, e.g. claude-sonnet-4-5, gpt-5 or llama3.1:8b").With("field", "model")
	}
	if utf8.RuneCountInString(in.Model) > maxModelRunes {
		return in, field("model", "the model id is longer than %d characters", maxModelRunes)
	}
	if in.Name == "" {
		in.Name = in.Model
	}
	if utf8.RuneCountInString(in.Name) > maxNameRunes {
		return in, field("name", "the name is longer than %d characters; shorten it", maxNameRunes)
	}
	if in.BaseURL != "" {
		u, err := url.Parse(in.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(in.BaseURL) > maxURLLength {
			return in, field("baseUrl", "the base URL must be an http:// or https:// address, e.g. http://localhost:11434/v1")
		}
		if u.User != nil {
			return in, field("baseUrl", "put the API key in the key field, not in the base URL")
		}
	} else if in.API == provider.APIOpenAICompatible {
		return in, errs.New(errs.ModelNotConfigured, "an OpenAI-compatible provider needs its base URL, e.g. http://localhost:11434/v1 for Ollama").With("field", "baseUrl")
	}
	if in.ContextWindow < 0 {
		return in, field("contextWindow", "the context window is a number of tokens, 0 or more (0 = the default)")
	}
	if in.MaxOutputTokens < 0 {
		return in, field("maxOutputTokens", "max output tokens is a number of tokens, 0 or more (0 = the default)")
	}
	if t := in.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > maxTemperature) {
		return in, field("temperature", "the temperature goes from 0 to %g; leave it empty for the model's default", maxTemperature)
	}
	if in.API != provider.APIAnthropic {
		in.Thinking = false // extended thinking is an Anthropic option
	}
	switch in.OpenAIAPI = strings.ToLower(strings.TrimSpace(in.OpenAIAPI)); {
	case in.API == provider.APIAnthropic:
		in.OpenAIAPI = "" // the choice is between OpenAI's two APIs
	case in.OpenAIAPI != "" && in.OpenAIAPI != provider.OpenAIResponses && in.OpenAIAPI != provider.OpenAIChat:
		return in, field("openaiApi", "choose the OpenAI API: responses, chat, or empty for the default (not %q)", in.OpenAIAPI)
	}
	if err := in.PriceOverrides.check(); err != nil {
		return in, err
	}
	in.BuiltinPrice, in.Price = in.prices()
	return in, nil
}

// Save adds (ID "") or updates a provider. apiKey "" keeps the saved key.
// The first provider becomes the default; IsDefault true makes this one the
// default. A provider that could not start a turn (no key for anthropic or
// openai) is refused with MODEL_NOT_CONFIGURED, before anything is written.
func (s *Service) Save(ctx context.Context, in Profile, apiKey string) (Profile, error) {
	in, err := normalize(in)
	if err != nil {
		return Profile{}, err
	}
	apiKey = strings.TrimSpace(apiKey)
	adding := in.ID == ""
	var old Profile
	if adding {
		in.ID = uuid.Must(uuid.NewV7()).String()
	} else if old, err = s.Get(ctx, in.ID); err != nil {
		return Profile{}, err
	}
	cfg := in.Config()
	cfg.APIKey = apiKey
	if cfg.APIKey == "" && !adding {
		if cfg.APIKey, err = s.keys.Get(provider.Account(in.ID)); err != nil {
			return Profile{}, err
		}
	}
	if _, err := provider.New(cfg); err != nil {
		return Profile{}, err // MODEL_NOT_CONFIGURED naming what is missing
	}
	// The key first: a new row never exists without the key it was saved
	// with; a failed row write takes a new key back out.
	account := provider.Account(in.ID)
	oldKey := ""
	if apiKey != "" {
		if !adding {
			oldKey, _ = s.keys.Get(account)
		}
		if err := s.keys.Set(account, apiKey); err != nil {
			return Profile{}, err
		}
	}
	if err := s.write(ctx, in, adding, old); err != nil {
		if apiKey != "" {
			_ = s.keys.Set(account, oldKey)
		}
		return Profile{}, err
	}
	return s.Get(ctx, in.ID)
}

func (s *Service) write(ctx context.Context, in Profile, adding bool, old Profile) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "save the provider")
	}
	defer func() { _ = tx.Rollback() }()
	var taken int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM providers WHERE name = ? COLLATE NOCASE AND id <> ?", in.Name, in.ID).Scan(&taken); err != nil {
		return storageErr(err, "save the provider")
	}
	if taken > 0 {
		return errs.New(errs.Conflict, "a provider named %q is already saved; choose another name", in.Name).With("field", "name")
	}
	var others int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM providers WHERE id <> ?", in.ID).Scan(&others); err != nil {
		return storageErr(err, "save the provider")
	}
	// There is always exactly one default while any provider exists.
	isDefault := in.IsDefault || others == 0 || old.IsDefault
	if isDefault {
		if _, err := tx.ExecContext(ctx, "UPDATE providers SET is_default = 0 WHERE is_default = 1 AND id <> ?", in.ID); err != nil {
			return storageErr(err, "save the provider")
		}
	}
	now := s.now().UnixMilli()
	var temp, images, cacheKey any
	if in.Temperature != nil {
		temp = *in.Temperature
	}
	if in.SupportsImages != nil {
		images = *in.SupportsImages
	}
	if in.PromptCacheKey != nil {
		cacheKey = *in.PromptCacheKey
	}
	prices := in.PriceOverrides.columns()
	if adding {
		_, err = tx.ExecContext(ctx, "INSERT INTO providers ("+columns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			in.ID, in.Name, in.API, in.BaseURL, in.Model, in.ContextWindow, in.MaxOutputTokens, temp, in.Thinking, images, cacheKey, isDefault, now, now,
			in.OpenAIAPI, prices[0], prices[1], prices[2], prices[3])
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE providers SET name = ?, api = ?, base_url = ?, model = ?, context_window = ?,
			max_output_tokens = ?, temperature = ?, thinking = ?, supports_images = ?, prompt_cache_key = ?, is_default = ?, updated_at = ?,
			openai_api = ?, price_input = ?, price_output = ?, price_cache_write = ?, price_cache_read = ? WHERE id = ?`,
			in.Name, in.API, in.BaseURL, in.Model, in.ContextWindow, in.MaxOutputTokens, temp, in.Thinking, images, cacheKey, isDefault, now,
			in.OpenAIAPI, prices[0], prices[1], prices[2], prices[3], in.ID)
	}
	if err != nil {
		return storageErr(err, "save the provider")
	}
	if err := tx.Commit(); err != nil {
		return storageErr(err, "save the provider")
	}
	return nil
}

// SetDefault makes id the default provider (new sessions and sessions that
// never chose one use it).
func (s *Service) SetDefault(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "change the default provider")
	}
	defer func() { _ = tx.Rollback() }()
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM providers WHERE id = ?", id).Scan(&n); err != nil {
		return storageErr(err, "change the default provider")
	}
	if n == 0 {
		return notFound(id)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE providers SET is_default = 0 WHERE is_default = 1 AND id <> ?", id); err != nil {
		return storageErr(err, "change the default provider")
	}
	if _, err := tx.ExecContext(ctx, "UPDATE providers SET is_default = 1 WHERE id = ?", id); err != nil {
		return storageErr(err, "change the default provider")
	}
	if err := tx.Commit(); err != nil {
		return storageErr(err, "change the default provider")
	}
	return nil
}

// Remove deletes a provider and its key. Its sessions go back to the
// default; when it was the default, the oldest remaining provider is.
func (s *Service) Remove(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "remove the provider")
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, "DELETE FROM providers WHERE id = ?", id) // session choices cascade
	if err != nil {
		return storageErr(err, "remove the provider")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return notFound(id)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE providers SET is_default = 1 WHERE id = (SELECT id FROM providers ORDER BY created_at, id LIMIT 1)
		AND NOT EXISTS (SELECT 1 FROM providers WHERE is_default = 1)`); err != nil {
		return storageErr(err, "remove the provider")
	}
	if err := tx.Commit(); err != nil {
		return storageErr(err, "remove the provider")
	}
	if err := s.keys.Set(provider.Account(id), ""); err != nil {
		return fmt.Errorf("the provider is removed but its key is not: %w", err)
	}
	return nil
}

// Test sends one minimal request with in's settings. apiKey "" uses the key
// saved for in.ID (when in is a saved provider). The outcome is an error
// with the turn's codes (see provider.Check), nil when the model answered.
func (s *Service) Test(ctx context.Context, in Profile, apiKey string, timeout time.Duration, opts ...provider.Option) error {
	in, err := normalize(in)
	if err != nil {
		return err
	}
	cfg := in.Config()
	cfg.APIKey = strings.TrimSpace(apiKey)
	if cfg.APIKey == "" && in.ID != "" {
		if cfg.APIKey, err = s.keys.Get(provider.Account(in.ID)); err != nil {
			return err
		}
	}
	return provider.Check(ctx, cfg, timeout, opts...)
}

// ListModels asks the server of in which models it lists (provider.ListModels);
// in's model may still be empty. apiKey "" uses the key saved for in.ID.
func (s *Service) ListModels(ctx context.Context, in Profile, apiKey string, timeout time.Duration, opts ...provider.Option) ([]provider.ListedModel, error) {
	cfg := in.Config()
	cfg.APIKey = strings.TrimSpace(apiKey)
	if cfg.APIKey == "" && in.ID != "" {
		var err error
		if cfg.APIKey, err = s.keys.Get(provider.Account(in.ID)); err != nil {
			return nil, err
		}
	}
	return provider.ListModels(ctx, cfg, timeout, opts...)
}

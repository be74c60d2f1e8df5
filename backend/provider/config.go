package provider

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// API styles.
const (
	APIAnthropic        = "anthropic"
	APIOpenAI           = "openai"
	APIOpenAICompatible = "openai-compatible"
)

// The two OpenAI wire APIs (Config.OpenAIAPI).
const (
	OpenAIResponses = "responses"
	OpenAIChat      = "chat"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvProvider     = "PI_DESKTOP_PROVIDER"
	EnvModel        = "PI_DESKTOP_MODEL"
	EnvBaseURL      = "PI_DESKTOP_BASE_URL"
	EnvAnthropicKey = "ANTHROPIC_API_KEY"
	EnvOpenAIKey    = "OPENAI_API_KEY"
	EnvOpenAIAPI    = "PI_DESKTOP_OPENAI_API"
)

// Defaults applied by New when the config leaves a value at zero.
const (
	DefaultContextWindow           = 200_000
	DefaultAnthropicMaxOutput      = 8192
	DefaultThinkingBudget          = 4096 // Anthropic extended thinking, when Thinking is on
	minAnthropicThinkingBudget     = 1024
	DefaultMaxRetries              = 5
	defaultBackoffBase             = 500 * time.Millisecond
	defaultBackoffMax              = 8 * time.Second
	maxHonouredRetryAfter          = 60 * time.Second
	maxProviderMessage             = 600
	defaultOpenAIContextWindow     = 128_000
	defaultCompatibleContextWindow = 32_768
)

// Config selects and tunes a model. APIKey is a secret: it never appears in
// String, GoString, slog or JSON output of the config.
type Config struct {
	API             string   // anthropic | openai | openai-compatible
	BaseURL         string   // optional for anthropic/openai; required for openai-compatible
	Model           string   // free-form model id
	APIKey          string   `json:"-"`
	ContextWindow   int      // tokens; 0 = LimitsFor's (the model's, else the API's default)
	MaxOutputTokens int      // tokens; 0 = LimitsFor's (the model's, else the API's default)
	Temperature     *float64 // nil = the provider's default
	Thinking        bool     // extended thinking where supported (Anthropic)
	// ThinkingBudget is the Anthropic thinking budget in tokens (0 =
	// DefaultThinkingBudget; at least 1024).
	ThinkingBudget int
	// SupportsImages is the user's explicit choice (nil = ImagesByDefault
	// for the API and model).
	SupportsImages *bool
	// PromptCacheKey is whether Request.CacheKey goes out as OpenAI's
	// prompt_cache_key (nil = sent to the openai API, not to compatible
	// servers, many of which reject fields they do not know).
	PromptCacheKey *bool
	// OpenAIAPI is the OpenAI wire API, responses or chat ("" = the
	// default of OpenAIWireAPI); anthropic ignores it.
	OpenAIAPI string
	// Price is what the model's usage costs (nil = unknown: a local
	// server, a model without a known price); each response's cost is
	// recorded at this price. ProfileID names the saved provider the
	// config came from ("" for one from the environment).
	Price     *Price
	ProfileID string
}

// String describes the config without its key.
func (c Config) String() string {
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("provider.Config{API:%q BaseURL:%q Model:%q APIKey:%s ContextWindow:%d MaxOutputTokens:%d Thinking:%t}",
		c.API, c.BaseURL, c.Model, key, c.ContextWindow, c.MaxOutputTokens, c.Thinking)
}

// GoString is String, so %#v does not print the key either.
func (c Config) GoString() string { return c.String() }

// LogValue keeps the key out of structured logs.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("api", c.API), slog.String("baseURL", c.BaseURL), slog.String("model", c.Model),
		slog.Bool("keySet", c.APIKey != ""), slog.Int("contextWindow", c.ContextWindow),
		slog.Int("maxOutputTokens", c.MaxOutputTokens), slog.Bool("thinking", c.Thinking))
}

// KeyEnv names the environment variable that carries the key for api.
func KeyEnv(api string) string {
	if api == APIAnthropic {
		return EnvAnthropicKey
	}
	return EnvOpenAIKey
}

// ConfigFromEnv reads PI_DESKTOP_PROVIDER, PI_DESKTOP_MODEL,
// PI_DESKTOP_BASE_URL and ANTHROPIC_API_KEY / OPENAI_API_KEY. ok is false
// when PI_DESKTOP_PROVIDER is unset (nothing configured through the
// environment); the config is returned as read and New validates it.
func ConfigFromEnv(getenv func(string) string) (Config, bool) {
	api := strings.ToLower(strings.TrimSpace(getenv(EnvProvider)))
	if api == "" {
		return Config{}, false
	}
	cfg := Config{
		API:       api,
		Model:     strings.TrimSpace(getenv(EnvModel)),
		BaseURL:   strings.TrimSpace(getenv(EnvBaseURL)),
		OpenAIAPI: strings.ToLower(strings.TrimSpace(getenv(EnvOpenAIAPI))),
	}
	switch api {
	case APIAnthropic:
		cfg.APIKey = strings.TrimSpace(getenv(EnvAnthropicKey))
	case APIOpenAI, APIOpenAICompatible:
		cfg.APIKey = strings.TrimSpace(getenv(EnvOpenAIKey))
	}
	if p, ok := BuiltinPrice(cfg.BaseURL, cfg.Model); ok {
		cfg.Price = &p
	}
	return cfg, true
}

// WithStoredKey fills an empty APIKey from ks (keyed by the API style).
func (c Config) WithStoredKey(ks KeyStore) (Config, error) {
	if c.APIKey != "" || ks == nil {
		return c, nil
	}
	k, err := ks.Get(c.API)
	if err != nil {
		return c, err
	}
	c.APIKey = k
	return c, nil
}

// Sleeper waits d or until ctx is done (then it returns ctx's error).
type Sleeper func(ctx context.Context, d time.Duration) error

func realSleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type options struct {
	httpClient *http.Client
	sleep      Sleeper
	now        func() time.Time
	maxRetries int
}

// Option tunes New.
type Option func(*options)

// WithHTTPClient sets the HTTP client (default: a client without a
// timeout, since responses stream).
func WithHTTPClient(c *http.Client) Option { return func(o *options) { o.httpClient = c } }

// WithSleeper replaces the retry backoff wait (tests pass one that records
// and returns at once).
func WithSleeper(s Sleeper) Option { return func(o *options) { o.sleep = s } }

// WithClock sets the clock used to read an HTTP-date Retry-After.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithMaxRetries sets how many silent retries a rate-limited or overloaded
// request gets (default and maximum 5; 0 disables them).
func WithMaxRetries(n int) Option {
	return func(o *options) {
		if n >= 0 && n <= DefaultMaxRetries {
			o.maxRetries = n
		}
	}
}

// New builds the provider for cfg. A missing model, a missing key (anthropic
// and openai), or a missing base URL (openai-compatible) is
// MODEL_NOT_CONFIGURED, before any request is made.
func New(cfg Config, opts ...Option) (Provider, error) {
	o := options{sleep: realSleep, now: time.Now, maxRetries: DefaultMaxRetries}
	for _, opt := range opts {
		opt(&o)
	}
	if o.httpClient == nil {
		o.httpClient = &http.Client{}
	}
	cfg.API = strings.ToLower(strings.TrimSpace(cfg.API))
	cfg.Model = strings.TrimSpace(cfg.Model)
	cfg.BaseURL = strings.TrimSpace(cfg.BaseURL)
	cfg.APIKey = strings.TrimSpace(cfg.APIKey)
	switch cfg.API {
	case APIAnthropic, APIOpenAI, APIOpenAICompatible:
	case "":
		return nil, notConfigured("No model provider is configured. Choose one in Settings → Models, or set %s (anthropic, openai or openai-compatible) and %s.", EnvProvider, EnvModel)
	default:
		return nil, notConfigured("Unknown provider API %q. Choose anthropic, openai or openai-compatible in Settings → Models, or in %s.", cfg.API, EnvProvider)
	}
	if cfg.Model == "" {
		return nil, notConfigured("No model is set for the %s provider. Enter a model id in Settings → Models, or set %s.", cfg.API, EnvModel)
	}
	if cfg.APIKey == "" && cfg.API != APIOpenAICompatible {
		return nil, notConfigured("No API key is set for %s. Add it in Settings → Models, or set %s.", cfg.API, KeyEnv(cfg.API))
	}
	switch cfg.OpenAIAPI = strings.ToLower(strings.TrimSpace(cfg.OpenAIAPI)); cfg.OpenAIAPI {
	case "", OpenAIResponses, OpenAIChat:
	default:
		return nil, notConfigured("Unknown OpenAI API %q. Choose responses or chat in %s, or leave it empty for the default.", cfg.OpenAIAPI, EnvOpenAIAPI)
	}
	if cfg.API == APIOpenAICompatible && cfg.BaseURL == "" {
		return nil, notConfigured("An OpenAI-compatible provider needs a base URL (for example http://localhost:11434/v1 for Ollama). Set it in Settings → Models, or in %s.", EnvBaseURL)
	}
	limits := LimitsFor(cfg)
	cfg.ContextWindow, cfg.MaxOutputTokens = limits.ContextWindow, limits.MaxOutput
	b := base{cfg: cfg, opts: o}
	if cfg.API == APIAnthropic {
		return newAnthropic(b), nil
	}
	if OpenAIWireAPI(cfg) == OpenAIResponses {
		return newResponses(b), nil
	}
	return newOpenAI(b), nil
}

func notConfigured(format string, args ...any) error {
	return errs.New(errs.ModelNotConfigured, format, args...)
}

// base is what both implementations share.
type base struct {
	cfg  Config
	opts options
}

func (b base) Info() ModelInfo {
	return ModelInfo{API: b.cfg.API, Model: b.cfg.Model, ContextWindow: b.cfg.ContextWindow, MaxOutputTokens: b.cfg.MaxOutputTokens,
		SupportsImages: b.cfg.imagesOn(), Price: b.cfg.Price, ProfileID: b.cfg.ProfileID}
}

// cacheKeyOn is whether the config sends prompt_cache_key.
func (c Config) cacheKeyOn() bool {
	if c.PromptCacheKey != nil {
		return *c.PromptCacheKey
	}
	return c.API == APIOpenAI
}

// imagesOn is the effective image support: the explicit choice, else the
// model family's.
func (c Config) imagesOn() bool {
	if c.SupportsImages != nil {
		return *c.SupportsImages
	}
	return ImagesByDefault(c.API, c.Model)
}

func (b base) maxTokens(req Request) int {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	return b.cfg.MaxOutputTokens
}

func (b base) temperature(req Request) *float64 {
	if req.Temperature != nil {
		return req.Temperature
	}
	return b.cfg.Temperature
}

// label is the provider's name in messages.
func (b base) label() string {
	switch b.cfg.API {
	case APIAnthropic:
		return "Anthropic"
	case APIOpenAI:
		return "OpenAI"
	}
	return "The model server"
}

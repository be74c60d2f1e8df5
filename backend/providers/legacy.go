package providers

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// LegacySettingsKey is the settings row of the single model that came
// before saved providers: a provider.Config as JSON (without its key, which
// the key store held under the API style's name).
const LegacySettingsKey = "model"

// UpgradeLegacy turns the single saved model of earlier versions into the
// first (default) provider and moves its key to the provider's name. It
// does nothing when that model is absent or providers exist already.
func (s *Service) UpgradeLegacy(ctx context.Context) error {
	var raw string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", LegacySettingsKey).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return storageErr(err, "read the saved model")
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM providers").Scan(&n); err != nil {
		return storageErr(err, "read the providers")
	}
	var old provider.Config
	usable := json.Unmarshal([]byte(raw), &old) == nil
	in, nerr := normalize(Profile{API: old.API, BaseURL: old.BaseURL, Model: old.Model, ContextWindow: old.ContextWindow,
		MaxOutputTokens: old.MaxOutputTokens, Temperature: old.Temperature, Thinking: old.Thinking})
	usable = usable && nerr == nil
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return storageErr(err, "upgrade the saved model")
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.ExecContext(ctx, "DELETE FROM settings WHERE key = ?", LegacySettingsKey); err != nil {
		return storageErr(err, "upgrade the saved model")
	}
	if n > 0 || !usable {
		// Providers were saved since, or the old model was unusable:
		// nothing to carry over.
		return tx.Commit()
	}
	in.ID = uuid.Must(uuid.NewV7()).String()
	legacyKey, err := s.keys.Get(in.API)
	if err != nil {
		return err
	}
	if legacyKey != "" {
		if err := s.keys.Set(provider.Account(in.ID), legacyKey); err != nil {
			return err
		}
	}
	now := s.now().UnixMilli()
	var temp any
	if in.Temperature != nil {
		temp = *in.Temperature
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO providers ("+columns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 1, ?, ?, '', NULL, NULL, NULL, NULL)",
		in.ID, in.Name, in.API, in.BaseURL, in.Model, in.ContextWindow, in.MaxOutputTokens, temp, in.Thinking, now, now); err != nil {
		return storageErr(err, "upgrade the saved model")
	}
	if err := tx.Commit(); err != nil {
		_ = s.keys.Set(provider.Account(in.ID), "")
		return storageErr(err, "upgrade the saved model")
	}
	if legacyKey != "" {
		return s.keys.Set(in.API, "")
	}
	return nil
}

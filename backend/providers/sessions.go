package providers

import (
	"context"
	"database/sql"
	"errors"
)

// SessionChoice is the provider a session chose ("" = it follows the
// default).
func (s *Service) SessionChoice(ctx context.Context, sessionID string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, "SELECT provider_id FROM session_providers WHERE session_id = ?", sessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", storageErr(err, "read the session's model")
	}
	return id, nil
}

// SetSessionChoice stores the provider a session uses; "" makes it follow
// the default again. The caller checks that the session exists.
func (s *Service) SetSessionChoice(ctx context.Context, sessionID, providerID string) error {
	if providerID == "" {
		if _, err := s.db.ExecContext(ctx, "DELETE FROM session_providers WHERE session_id = ?", sessionID); err != nil {
			return storageErr(err, "change the session's model")
		}
		return nil
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM providers WHERE id = ?", providerID).Scan(&n); err != nil {
		return storageErr(err, "change the session's model")
	}
	if n == 0 {
		return notFound(providerID)
	}
	if _, err := s.db.ExecContext(ctx,
		"INSERT INTO session_providers (session_id, provider_id) VALUES (?, ?) ON CONFLICT (session_id) DO UPDATE SET provider_id = excluded.provider_id",
		sessionID, providerID); err != nil {
		return storageErr(err, "change the session's model")
	}
	return nil
}

// ForSession returns the provider a session's turns use: its choice, else
// the default. ok is false when no provider is saved.
func (s *Service) ForSession(ctx context.Context, sessionID string) (Profile, bool, error) {
	id, err := s.SessionChoice(ctx, sessionID)
	if err != nil {
		return Profile{}, false, err
	}
	if id != "" {
		p, err := s.Get(ctx, id)
		return p, err == nil, err
	}
	return s.Default(ctx)
}

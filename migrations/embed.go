// Package migrations embeds the numbered SQL migrations (NNNN_name.sql) that
// build PI-Desktop's database. Never edit a released migration: add one.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS

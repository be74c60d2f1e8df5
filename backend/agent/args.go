package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Argument checks of the runtime-owned tools: every refusal is
// INVALID_ARGUMENT naming the field ("todos[2].status") and saying what to
// send instead.

func invalid(field, format string, args ...any) error {
	return errs.New(errs.InvalidArgument, format, args...).With("field", field)
}

func fieldPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// object decodes raw as a JSON object with only the allowed keys.
func object(raw json.RawMessage, path, what string, allowed ...string) (map[string]json.RawMessage, error) {
	if isNull(raw) && path == "" {
		raw = json.RawMessage("{}")
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, invalid(path, "%s must be a JSON object", what)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			if len(allowed) == 0 {
				return nil, invalid(fieldPath(path, k), "%s takes no parameters; call it with an empty object {}", what)
			}
			return nil, invalid(fieldPath(path, k), "%s has no field %q; its fields are %s", what, k, strings.Join(allowed, ", "))
		}
	}
	return obj, nil
}

// str reads a string field; a missing or null field is "" (an error when
// required). Strings are trimmed for the emptiness check only.
func str(obj map[string]json.RawMessage, parent, key string, required bool, maxChars int) (string, error) {
	path := fieldPath(parent, key)
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		if required {
			return "", invalid(path, "%s is required", path)
		}
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", invalid(path, "%s must be a string", path)
	}
	if required && strings.TrimSpace(s) == "" {
		return "", invalid(path, "%s must not be empty", path)
	}
	if n := utf8.RuneCountInString(s); maxChars > 0 && n > maxChars {
		return "", invalid(path, "%s is %d characters long; at most %d are allowed", path, n, maxChars)
	}
	return s, nil
}

func boolean(obj map[string]json.RawMessage, parent, key string) (bool, error) {
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		return false, nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		return false, invalid(fieldPath(parent, key), "%s must be true or false", fieldPath(parent, key))
	}
	return b, nil
}

// array reads a JSON array field of at most maxItems elements.
func array(obj map[string]json.RawMessage, parent, key string, required bool, minItems, maxItems int) ([]json.RawMessage, error) {
	path := fieldPath(parent, key)
	raw, ok := obj[key]
	if !ok || isNull(raw) {
		if required {
			return nil, invalid(path, "%s is required", path)
		}
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalid(path, "%s must be an array", path)
	}
	if len(items) < minItems {
		return nil, invalid(path, "%s needs at least %d item(s)", path, minItems)
	}
	if len(items) > maxItems {
		return nil, invalid(path, "%s has %d items; at most %d are allowed", path, len(items), maxItems)
	}
	return items, nil
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

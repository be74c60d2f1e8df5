package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Argument checks of the runtime tools: every refusal is INVALID_ARGUMENT
// naming the field ("todos[2].status") and saying what to send instead.

// Bounds of the runtime tools' arguments.
const (
	MaxTodos       = 100
	MaxTodoChars   = 1000
	MaxQuestions   = 8
	MaxOptions     = 12
	MaxQuestionLen = 2000
	MaxLabelLen    = 200
	MaxDescLen     = 1000
	MaxTitleLen    = 200
	MaxMarkdown    = 512 << 10 // bytes
	MaxQueryChars  = 500
	SearchMaxLimit = 10
)

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

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

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

// checkTodos checks TodoWrite's arguments: the whole ordered checklist,
// each item with content and a status, at most one in progress.
func checkTodos(args json.RawMessage) error {
	obj, err := object(args, "", "TodoWrite's arguments", "todos")
	if err != nil {
		return err
	}
	items, err := array(obj, "", "todos", true, 0, MaxTodos)
	if err != nil {
		return err
	}
	active := -1
	for i, raw := range items {
		p := index("todos", i)
		it, err := object(raw, p, p, "content", "status", "activeForm")
		if err != nil {
			return err
		}
		if _, err := str(it, p, "content", true, MaxTodoChars); err != nil {
			return err
		}
		status, err := str(it, p, "status", true, 0)
		if err != nil {
			return err
		}
		switch status {
		case "pending", "completed":
		case "in_progress":
			if active >= 0 {
				return invalid(p+".status", "todos[%d] and todos[%d] are both in_progress; keep exactly one item in_progress and the others pending or completed", active, i)
			}
			active = i
		default:
			return invalid(p+".status", "%s.status must be pending, in_progress or completed, not %q", p, status)
		}
		if _, err := str(it, p, "activeForm", false, MaxTodoChars); err != nil {
			return err
		}
	}
	return nil
}

// checkQuestions checks asktool's arguments. Options may be strings or
// {label, description?} objects; labels must be unique within a question.
func checkQuestions(args json.RawMessage) error {
	obj, err := object(args, "", "asktool's arguments", "questions")
	if err != nil {
		return err
	}
	items, err := array(obj, "", "questions", true, 1, MaxQuestions)
	if err != nil {
		return err
	}
	for i, raw := range items {
		p := index("questions", i)
		it, err := object(raw, p, p, "question", "options", "multiSelect")
		if err != nil {
			return err
		}
		if _, err := str(it, p, "question", true, MaxQuestionLen); err != nil {
			return err
		}
		multi, err := boolean(it, p, "multiSelect")
		if err != nil {
			return err
		}
		opts, err := array(it, p, "options", false, 0, MaxOptions)
		if err != nil {
			return err
		}
		var labels []string
		for j, oraw := range opts {
			op := index(p+".options", j)
			var label string
			if json.Unmarshal(oraw, &label) == nil {
				if strings.TrimSpace(label) == "" || utf8.RuneCountInString(label) > MaxLabelLen {
					return invalid(op, "%s must be a non-empty label of at most %d characters", op, MaxLabelLen)
				}
			} else {
				ob, err := object(oraw, op, op+" (a string or {label, description})", "label", "description")
				if err != nil {
					return err
				}
				if label, err = str(ob, op, "label", true, MaxLabelLen); err != nil {
					return err
				}
				if _, err := str(ob, op, "description", false, MaxDescLen); err != nil {
					return err
				}
			}
			if slices.Contains(labels, label) {
				return invalid(op, "%s repeats the label %q; every option needs its own label", op, label)
			}
			labels = append(labels, label)
		}
		if multi && len(labels) == 0 {
			return invalid(p+".multiSelect", "%s.multiSelect needs options to choose from", p)
		}
	}
	return nil
}

// checkSubmit checks SubmitPlan's and SubmitGoal's arguments.
func checkSubmit(tool string, args json.RawMessage) error {
	obj, err := object(args, "", tool+"'s arguments", "title", "markdown", "question")
	if err != nil {
		return err
	}
	if _, err := str(obj, "", "title", true, MaxTitleLen); err != nil {
		return err
	}
	markdown, err := str(obj, "", "markdown", true, 0)
	if err != nil {
		return err
	}
	if len(markdown) > MaxMarkdown {
		return invalid("markdown", "markdown is %d bytes; at most %d are allowed, so shorten the document", len(markdown), MaxMarkdown)
	}
	_, err = str(obj, "", "question", false, MaxQuestionLen)
	return err
}

// checkToolSearch checks ToolSearch's arguments.
func checkToolSearch(args json.RawMessage) error {
	obj, err := object(args, "", "ToolSearch's arguments", "query", "limit")
	if err != nil {
		return err
	}
	if _, err := str(obj, "", "query", true, MaxQueryChars); err != nil {
		return err
	}
	if raw, ok := obj["limit"]; ok && !isNull(raw) {
		var limit int
		if json.Unmarshal(raw, &limit) != nil || limit < 1 || limit > SearchMaxLimit {
			return invalid("limit", "limit must be a whole number from 1 to %d", SearchMaxLimit)
		}
	}
	return nil
}

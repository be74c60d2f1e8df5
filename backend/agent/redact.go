package agent

import (
	"bytes"
	"encoding/json"

	"github.com/pi-desktop/pi-desktop/backend/redact"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// shown is a settled call as it is stored and shown (spec §8): the result
// and the model's text with secrets redacted. The live turn keeps the raw
// text (the model needs the real output to work); a later turn, rebuilt
// from the stored transcript, sees the redacted form.
func shown(c *prepared) *prepared {
	s := *c
	s.modelText = redact.String(c.modelText)
	s.result = redactResult(c.result)
	return &s
}

// redactResult redacts every string of a result, structured fields (Bash's
// stdout and stderr, details) included.
func redactResult(r tools.Result) tools.Result {
	r.Message = redact.String(r.Message)
	r.Content = redact.String(r.Content)
	r.Notice = redact.String(r.Notice)
	if d, ok := redactValue(r.Details); ok {
		r.Details = d.(map[string]any)
	}
	if f, ok := redactValue(r.Fields); ok {
		r.Fields = f.(map[string]any)
	}
	return r
}

// redactValue returns v with its strings redacted, and whether anything
// changed; maps and slices are copied only then. A value of another type
// (a struct such as a review record) is redacted through its JSON form.
func redactValue(v any) (any, bool) {
	switch t := v.(type) {
	case nil, bool, int, int64, float64, json.Number:
		return v, false
	case string:
		s := redact.String(t)
		return s, s != t
	case map[string]any:
		var out map[string]any
		for k, val := range t {
			if nv, ok := redactValue(val); ok {
				if out == nil {
					out = make(map[string]any, len(t))
					for k2, v2 := range t {
						out[k2] = v2
					}
				}
				out[k] = nv
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, val := range t {
			if nv, ok := redactValue(val); ok {
				if out == nil {
					out = append([]any(nil), t...)
				}
				out[i] = nv
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var g any
	if dec.Decode(&g) != nil {
		return v, false
	}
	if nv, ok := redactValue(g); ok {
		b, err := json.Marshal(nv)
		if err == nil {
			return json.RawMessage(b), true
		}
	}
	return v, false
}

package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

type compiledSchema struct {
	resolved *jsonschema.Resolved
	required []string // canonical names the runtime requires after folding
	props    map[string]bool
}

func compileSchema(s Spec) (*compiledSchema, error) {
	var sch jsonschema.Schema
	if err := json.Unmarshal(s.Schema, &sch); err != nil {
		return nil, fmt.Errorf("tool %s: schema: %w", s.Name, err)
	}
	res, err := sch.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("tool %s: resolve schema: %w", s.Name, err)
	}
	cs := &compiledSchema{resolved: res, props: map[string]bool{}}
	for name := range sch.Properties {
		cs.props[name] = true
	}
	// An aliased argument is optional in the schema (either spelling may be
	// used) but its canonical name is required once folded.
	seen := map[string]bool{}
	for _, canonical := range s.Aliases {
		if !seen[canonical] {
			cs.required = append(cs.required, canonical)
			seen[canonical] = true
		}
	}
	sort.Strings(cs.required)
	return cs, nil
}

// Validate folds aliases and checks raw against the tool's schema. It returns
// the canonical arguments, encoded and decoded, or INVALID_ARGUMENT naming
// the field.
func (r *Registry) Validate(name string, raw json.RawMessage) (json.RawMessage, map[string]any, error) {
	t, ok := r.tools[name]
	if !ok {
		return nil, nil, errs.New(errs.ToolNotFound, "there is no tool named %q; use one of %s", name, strings.Join(r.order, ", ")).With("tool", name)
	}
	return validateArgs(t, r.schemas[name], raw)
}

// Schema is a compiled input schema for a tool outside the registry (an
// MCP server's tool): its calls are checked by the same validator as the
// builtins'.
type Schema struct{ cs *compiledSchema }

// CompileSchema compiles s.Schema; an error means the schema is unusable.
func CompileSchema(s Spec) (*Schema, error) {
	cs, err := compileSchema(s)
	if err != nil {
		return nil, err
	}
	return &Schema{cs: cs}, nil
}

// Validate checks raw against the schema for t, as Registry.Validate does.
func (s *Schema) Validate(t Tool, raw json.RawMessage) (json.RawMessage, map[string]any, error) {
	return validateArgs(t, s.cs, raw)
}

func validateArgs(t Tool, cs *compiledSchema, raw json.RawMessage) (json.RawMessage, map[string]any, error) {
	spec := t.Spec()
	name := spec.Name
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	checker, custom := t.(ArgChecker)
	if custom {
		if err := checker.CheckArgs(raw); err != nil {
			return nil, nil, err
		}
	}
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil {
		return nil, nil, errs.New(errs.InvalidArgument, "%s arguments must be a JSON object", name).With("field", "")
	}
	for alias, canonical := range spec.Aliases {
		v, has := args[alias]
		if !has {
			continue
		}
		if _, both := args[canonical]; !both {
			args[canonical] = v // canonical wins when both are given
		}
		delete(args, alias)
	}
	for _, req := range cs.required {
		if _, ok := args[req]; !ok {
			return nil, nil, errs.New(errs.InvalidArgument, "%s needs %q", name, req).With("field", req)
		}
	}
	// The canonical bytes are encoded from the tree, numbers as written;
	// then the tree itself becomes what decoding those bytes would give
	// (numbers as float64, as the validator and the tools expect), without
	// decoding them again (issue #15: a third JSON pass per call).
	folded, err := json.Marshal(args)
	if err != nil {
		return nil, nil, errs.Wrap(err, errs.InvalidArgument, "%s arguments cannot be encoded", name)
	}
	if err := floatNumbers(args); err != nil {
		return nil, nil, errs.Wrap(err, errs.InvalidArgument, "%s arguments cannot be decoded", name)
	}
	if custom {
		return folded, args, nil
	}
	if err := cs.resolved.Validate(args); err != nil {
		field := fieldOf(err.Error(), cs.props, args)
		return nil, nil, errs.New(errs.InvalidArgument, "invalid %s arguments: %s", name, cleanMessage(err.Error())).With("field", field)
	}
	return folded, args, nil
}

// floatNumbers replaces, in place, every json.Number in v (a tree
// decoded with UseNumber) by its float64, as json.Unmarshal into any would
// decode it, and fails where it would: a number out of float64's range.
func floatNumbers(v any) error {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			f, err := floatNumber(e)
			if err != nil {
				return err
			}
			t[k] = f
		}
	case []any:
		for i, e := range t {
			f, err := floatNumber(e)
			if err != nil {
				return err
			}
			t[i] = f
		}
	}
	return nil
}

// floatNumber is e with its numbers as float64: a number converted, a
// container converted in place.
func floatNumber(e any) (any, error) {
	if n, ok := e.(json.Number); ok {
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return nil, fmt.Errorf("number %s does not fit a float64", n)
		}
		return f, nil
	}
	return e, floatNumbers(e)
}

var propertyInMessage = regexp.MustCompile(`/properties/([A-Za-z_][A-Za-z0-9_]*)`)

// fieldOf names the offending argument from a validator message: a property
// path when given, otherwise an unknown argument, otherwise "".
func fieldOf(msg string, props map[string]bool, args map[string]any) string {
	if m := propertyInMessage.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	var unknown []string
	for k := range args {
		if !props[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return unknown[0]
	}
	for k := range props {
		if strings.Contains(msg, `"`+k+`"`) {
			return k
		}
	}
	return ""
}

func cleanMessage(msg string) string {
	msg = strings.TrimPrefix(msg, "validating root: ")
	return strings.ReplaceAll(msg, "validating /properties/", "")
}

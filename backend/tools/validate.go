package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
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
	// Validate the decoded JSON value tree, with numbers as float64 as the
	// validator expects.
	folded, err := json.Marshal(args)
	if err != nil {
		return nil, nil, errs.Wrap(err, errs.InvalidArgument, "%s arguments cannot be encoded", name)
	}
	var instance any
	if err := json.Unmarshal(folded, &instance); err != nil {
		return nil, nil, errs.Wrap(err, errs.InvalidArgument, "%s arguments cannot be decoded", name)
	}
	if custom {
		return folded, instance.(map[string]any), nil
	}
	if err := cs.resolved.Validate(instance); err != nil {
		field := fieldOf(err.Error(), cs.props, args)
		return nil, nil, errs.New(errs.InvalidArgument, "invalid %s arguments: %s", name, cleanMessage(err.Error())).With("field", field)
	}
	return folded, instance.(map[string]any), nil
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

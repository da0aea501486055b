// Package kubeschema validates Kubernetes objects against the strict
// Kubernetes v1.30 JSON Schema subset in deploy/testdata (draft-04, as
// yannh/kubernetes-json-schema's standalone-strict files), for tests of
// every package that writes manifests.
package kubeschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validator compiles the schema of each kind once.
type Validator struct {
	c       *jsonschema.Compiler
	schemas map[string]*jsonschema.Schema
}

const url = "file:///kubernetes-v1.30-subset.json"

// Load reads the schema subset at path (deploy/testdata/kubernetes-v1.30-subset.json).
func Load(path string) (*Validator, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return &Validator{c: c, schemas: map[string]*jsonschema.Schema{}}, nil
}

// Key names an object's definition in the schema file: GROUP.VERSION.KIND,
// group "core" for the legacy v1 API.
func Key(apiVersion, kind string) string {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "core", apiVersion
	}
	return group + "." + version + "." + kind
}

// Schema returns the compiled schema of key (see Key).
func (v *Validator) Schema(key string) (*jsonschema.Schema, error) {
	if s, ok := v.schemas[key]; ok {
		return s, nil
	}
	s, err := v.c.Compile(url + "#/definitions/" + key)
	if err != nil {
		return nil, err
	}
	v.schemas[key] = s
	return s, nil
}

// Validate checks one decoded object (from YAML or JSON) against the
// schema of its apiVersion and kind.
func (v *Validator) Validate(obj map[string]any) error {
	api, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	s, err := v.Schema(Key(api, kind))
	if err != nil {
		return fmt.Errorf("no schema for %s %s: %w", api, kind, err)
	}
	inst, err := JSON(obj)
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// JSON round-trips v through encoding/json into the values the validator
// takes (json.Number for numbers).
func JSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

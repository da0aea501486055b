package server

import (
	"embed"
	"encoding"
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpupick/gpupick/internal/apperr"
	"github.com/gpupick/gpupick/internal/autoscale"
	"github.com/gpupick/gpupick/internal/schema"
	"github.com/gpupick/gpupick/internal/workload"
)

func errNoRoute(r *http.Request) error {
	return apperr.NotFoundf("", "no endpoint %s %s (see /openapi.json)", r.Method, r.URL.Path)
}

// docsFiles is the API docs page: HTML, with its script and style in
// files of their own so that the page runs under the server's CSP, which
// allows no inline script.
//
//go:embed docs.html docs.js docs.css
var docsFiles embed.FS

// docsFile serves one of docsFiles with its content type.
func docsFile(name, contentType string) http.HandlerFunc {
	b, err := docsFiles.ReadFile(name)
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(b)
	}
}

var (
	openAPIOnce sync.Once
	openAPIDoc  []byte
	openAPIErr  error
)

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	openAPIOnce.Do(func() {
		openAPIDoc, openAPIErr = json.MarshalIndent(buildOpenAPI(s.routes), "", "  ")
	})
	if openAPIErr != nil { // never an empty 200
		s.writeError(w, r, apperr.Wrap(apperr.Internal, "encode the OpenAPI document", openAPIErr))
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(openAPIDoc)
}

type schemaSet struct {
	defs map[string]any
}

var (
	timeType = reflect.TypeFor[time.Time]()
	textType = reflect.TypeFor[encoding.TextMarshaler]()
	jsonType = reflect.TypeFor[json.Marshaler]()
)

// schema describes t as a JSON Schema (OpenAPI 3.1 flavour); named structs
// go to components and are referenced.
func (ss *schemaSet) schema(t reflect.Type) map[string]any {
	if t.Kind() == reflect.Pointer {
		return ss.schema(t.Elem())
	}
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t.Implements(textType) || reflect.PointerTo(t).Implements(textType):
		return map[string]any{"type": "string"}
	case t.Implements(jsonType) || reflect.PointerTo(t).Implements(jsonType):
		return map[string]any{} // custom encoding: any JSON value
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return map[string]any{"type": "string", "contentEncoding": "base64"}
		}
		return map[string]any{"type": "array", "items": ss.schema(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": ss.schema(t.Elem())}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		name := schemaName(t)
		if name == "" {
			return ss.object(t)
		}
		if _, ok := ss.defs[name]; !ok {
			ss.defs[name] = map[string]any{} // breaks cycles
			ss.defs[name] = ss.object(t)
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	return map[string]any{}
}

var nonWord = regexp.MustCompile(`[^A-Za-z0-9_]`)

func schemaName(t reflect.Type) string {
	if t.Name() == "" {
		return ""
	}
	pkg := t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:]
	if pkg == "server" {
		return nonWord.ReplaceAllString(t.Name(), "_")
	}
	return nonWord.ReplaceAllString(pkg+"."+t.Name(), "_")
}

func (ss *schemaSet) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	var required []string
	ss.fields(t, props, &required)
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func (ss *schemaSet) fields(t reflect.Type, props map[string]any, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				ss.fields(ft, props, required)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if f.Type == documentType {
			props[name] = ss.document(f.Tag.Get("schema"))
		} else {
			props[name] = ss.schema(f.Type)
		}
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") && f.Type.Kind() != reflect.Pointer {
			*required = append(*required, name)
		}
	}
}

// fileSchemas are the JSON Schemas of the files a Document may hold, by
// the schema tag of its field; the OpenAPI document carries them whole.
var fileSchemas = map[string]struct {
	name string
	gen  func() schema.Node
}{
	"workload": {"Workload", workload.JSONSchema},
	"service":  {"Service", autoscale.JSONSchema},
}

// document describes a Document field: the file as a JSON object (its
// full schema, in components) or its text.
func (ss *schemaSet) document(kind string) map[string]any {
	fs, ok := fileSchemas[kind]
	if !ok {
		panic("server: a Document field needs a schema tag: workload or service") // caught by TestOpenAPI
	}
	if _, done := ss.defs[fs.name]; !done {
		n := fs.gen()
		delete(n, "$schema") // the dialect is the document's (OpenAPI 3.1 is JSON Schema 2020-12)
		delete(n, "$id")     // a base URI of its own would move the references
		ss.defs[fs.name] = n
	}
	return map[string]any{"oneOf": []any{
		map[string]any{"$ref": "#/components/schemas/" + fs.name},
		map[string]any{"type": "string", "description": "the " + kind + " file's YAML or JSON text, as on disk (errors then carry its lines)"},
	}}
}

var pathParam = regexp.MustCompile(`\{(\w+)\}`)

// buildOpenAPI writes the OpenAPI 3.1 document of the routes from their
// request and response types.
func buildOpenAPI(routes []*route) map[string]any {
	ss := &schemaSet{defs: map[string]any{}}
	errRef := ss.schema(reflect.TypeFor[ErrorJSON]())
	paths := map[string]any{}
	for _, rt := range routes {
		var params []any
		for _, m := range pathParam.FindAllStringSubmatch(rt.path, -1) {
			params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		for _, p := range rt.params {
			params = append(params, map[string]any{"name": p.name, "in": "query", "description": p.doc, "schema": map[string]any{"type": p.typ}})
		}
		content := map[string]any{"application/json": map[string]any{"schema": ss.schema(rt.out)}}
		for _, ct := range rt.alt {
			content[ct] = map[string]any{"schema": map[string]any{"type": "string"}}
		}
		errResp := map[string]any{"description": "error", "content": map[string]any{"application/json": map[string]any{"schema": errRef}}}
		responses := map[string]any{
			strconv.Itoa(rt.status): map[string]any{"description": http.StatusText(rt.status), "content": content},
			"default":               errResp,
		}
		o := map[string]any{
			"operationId": operationID(rt),
			"summary":     rt.summary,
			"tags":        []string{rt.tag},
			"responses":   responses,
		}
		if len(params) > 0 {
			o["parameters"] = params
		}
		if rt.in != reflect.TypeFor[noBody]() {
			o["requestBody"] = map[string]any{"required": true, "content": map[string]any{
				"application/json": map[string]any{"schema": ss.schema(rt.in)}}}
		}
		if rt.auth {
			o["security"] = []any{map[string]any{"bearer": []string{}}}
		}
		item, _ := paths[rt.path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[rt.path] = item
		}
		item[strings.ToLower(rt.method)] = o
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "gpupick API", "version": "1",
			"description": "Choose a GPU cloud server for a concrete job, and see why. Responses carry the same JSON as the CLI's -o json. " +
				"Errors have one shape: {\"error\": {\"code\", \"message\", \"field\", \"line\"}}. Reads are open; writes need Authorization: Bearer TOKEN. " +
				"Request bodies are JSON, sent with Content-Type: application/json (else 415). A browser request from another origin " +
				"that writes or starts a job is refused (403), as is a Host the server does not answer to (421). " +
				"A workload, a service file and an export's policy are sent as JSON objects (schemas Workload and Service, as gpupick schema prints them) " +
				"or as the file's YAML or JSON text; both are parsed alike, and an object's errors name the field without a line. " +
				"Routes that answer with sentences take lang: en (default) or zh. Responses of 1400 bytes or more are gzipped for remote clients that accept it."},
		"paths": paths,
		"components": map[string]any{
			"schemas":         ss.defs,
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}},
		},
	}
}

func operationID(rt *route) string {
	parts := []string{strings.ToLower(rt.method)}
	for _, p := range strings.Split(strings.TrimPrefix(rt.path, "/api/v1/"), "/") {
		if strings.HasPrefix(p, "{") {
			p = "by_" + strings.Trim(p, "{}")
		}
		parts = append(parts, strings.ReplaceAll(p, "-", "_"))
	}
	return strings.Join(parts, "_")
}

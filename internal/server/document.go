package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/gpupick/gpupick/internal/apperr"
)

// Document is a workload or service file in a request body: YAML or JSON
// text in a string, as the file would be, or the document itself as a JSON
// object. Both go through the same strict parser, so an object with an
// unknown key or a number out of range is refused naming the field's path,
// as the text would be. Errors about an object carry no line: the object
// has none of its own.
type Document struct {
	text   string
	object bool
}

// Text is a Document holding YAML or JSON text.
func Text(s string) Document { return Document{text: s} }

// Bytes is what the parser reads: the text, or the object one key per line
// (the parser names the field of a type error by its line, so the keys
// must not share one).
func (d Document) Bytes() []byte { return []byte(d.text) }

// IsObject reports whether the request gave the document as a JSON object.
func (d Document) IsObject() bool { return d.object }

// IsZero reports whether the document is absent (or null, or "").
func (d Document) IsZero() bool { return d.text == "" }

var documentType = reflect.TypeFor[Document]()

// UnmarshalJSON takes a string (the file's text), an object (the document)
// or null (absent); anything else is a type error naming the field.
func (d *Document) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*d = Document{}
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*d = Document{text: s}
	case b[0] == '{':
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", "  "); err != nil {
			return err
		}
		*d = Document{text: out.String(), object: true}
	default:
		kind := map[byte]string{'[': "array", 't': "bool", 'f': "bool"}[b[0]]
		if kind == "" {
			kind = "number"
		}
		return &json.UnmarshalTypeError{Value: kind, Type: documentType}
	}
	return nil
}

// MarshalJSON writes the object as an object and text as a string.
func (d Document) MarshalJSON() ([]byte, error) {
	if d.object {
		var out bytes.Buffer
		if err := json.Compact(&out, []byte(d.text)); err != nil {
			return nil, err
		}
		return out.Bytes(), nil
	}
	return json.Marshal(d.text)
}

// parsed adapts the errors of parsing d: an object's errors lose their
// lines (they count the lines of the object as the server laid it out,
// not anything the client sent).
func (d Document) parsed(err error) error {
	if err == nil || !d.object {
		return err
	}
	var l apperr.List
	if errors.As(err, &l) {
		for _, e := range l {
			dropLines(e)
		}
		return err
	}
	var e *apperr.Error
	if errors.As(err, &e) {
		dropLines(e)
	}
	return err
}

func dropLines(e *apperr.Error) {
	for e != nil {
		e.Line = 0
		var l apperr.List
		if errors.As(e.Err, &l) {
			for _, x := range l {
				dropLines(x)
			}
			return
		}
		var next *apperr.Error
		if !errors.As(e.Err, &next) {
			return
		}
		e = next
	}
}

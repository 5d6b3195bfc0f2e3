package adapters

import (
	"errors"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// parseTOML parses the bytes of a TOML config file. Errors carry the line and
// column where the parser gave up.
func parseTOML(b []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(b, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return nil, fmt.Errorf("invalid TOML at line %d, column %d: %s", row, col, de.Error())
		}
		return nil, fmt.Errorf("invalid TOML: %v", err)
	}
	return doc, nil
}

// TOMLGet follows path through nested tables of a decoded TOML document.
func TOMLGet(doc map[string]any, path ...string) (any, bool) {
	var cur any = doc
	for _, k := range path {
		t, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = t[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// TOMLBool returns the boolean at path, and whether there is one.
func TOMLBool(doc map[string]any, path ...string) (val, ok bool) {
	v, found := TOMLGet(doc, path...)
	b, isBool := v.(bool)
	return b, found && isBool
}

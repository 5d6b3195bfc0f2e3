package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Schema is the version of the manifest format this code writes.
const Schema = 1

// FileName is the manifest's name inside the hooks dir.
const FileName = "manifest.json"

// A Manifest records one agent install: what was written, and what it
// replaced, so that removal can be exact. Paths are relative to the home the
// install was made in, so a manifest stays true when the home is mounted
// elsewhere (Docker).
type Manifest struct {
	Schema      int       `json:"schema"`
	ToolVersion string    `json:"tool_version"`
	Namespace   string    `json:"namespace"`
	Agent       string    `json:"agent"`
	Base        string    `json:"base"`
	AsHome      string    `json:"as_home"`
	InstalledAt time.Time `json:"installed_at"`
	// CreatedDirs are folders the install created (besides the hooks
	// dir), outermost first; removal deletes them when they are empty.
	CreatedDirs []string `json:"created_dirs,omitempty"`
	Files       []File   `json:"files"`
	Scripts     []Script `json:"scripts"`
}

// A File is one config file the install changed.
type File struct {
	Path    string `json:"path"`
	Created bool   `json:"created"` // the file did not exist before the install
	// PreSHA256 is the hash of the file before the first install; empty
	// when Created.
	PreSHA256 string `json:"pre_sha256,omitempty"`
	// PostSHA256 is the hash of the file as hookinstall wrote it from the
	// original. A later add keeps it when someone else has changed the
	// file since, so removal restores the backup (or deletes a file we
	// created) only while the file holds nothing but our edits.
	PostSHA256 string `json:"post_sha256"`
	// Backup is the copy of the original, relative to the hooks dir; empty
	// when Created.
	Backup string `json:"backup,omitempty"`
	// Entries are our entries per event, as compact JSON.
	Entries map[string][]string `json:"entries,omitempty"`
	// Containers are the objects and arrays the install created inside
	// the file ("hooks", "hooks/Stop").
	Containers []string `json:"containers,omitempty"`
	// Emptied are the user's containers that were empty before the
	// install put ours in, with the white space they held between their
	// brackets, by path ("" is the root object): removal puts it back
	// when it empties them again ("{\n  }" stays "{\n  }").
	Emptied map[string]string `json:"emptied,omitempty"`
}

// A Script is one generated hook script.
type Script struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Load decodes a manifest, refusing unknown schemas and anything that is not
// one whole JSON object.
func Load(data []byte) (*Manifest, error) {
	var m Manifest
	// Unmarshal, not a Decoder: one whole document, nothing after it (a
	// manifest with trailing bytes is not one hookinstall wrote).
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("invalid manifest: %w", err)
	}
	if m.Schema < 1 || m.Schema > Schema {
		return nil, fmt.Errorf("manifest schema %d is not supported (this version reads %d)", m.Schema, Schema)
	}
	return &m, nil
}

// Marshal encodes m, indented, with a final newline.
func (m *Manifest) Marshal() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // only plain types: cannot fail
	}
	return append(b, '\n')
}

// File returns the record of the file at path, or nil.
func (m *Manifest) File(path string) *File {
	if m == nil {
		return nil
	}
	if i := slices.IndexFunc(m.Files, func(f File) bool { return f.Path == path }); i >= 0 {
		return &m.Files[i]
	}
	return nil
}

// Script returns the record of the script at path, or nil.
func (m *Manifest) Script(path string) *Script {
	if m == nil {
		return nil
	}
	if i := slices.IndexFunc(m.Scripts, func(s Script) bool { return s.Path == path }); i >= 0 {
		return &m.Scripts[i]
	}
	return nil
}

// Sum returns the hex sha256 of b.
func Sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

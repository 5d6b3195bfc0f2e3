package adapters

import "github.com/hookinstall/hookinstall/adapters/jsonedit"

// An Edit is the planned new content of one file (jsonedit makes those of
// JSON configs; TOML and plugin agents make their own).
type Edit = jsonedit.Edit

// A Record is what an earlier install wrote into one file, from the
// manifest.
type Record = jsonedit.Record

// MaxDocSize is the largest config file hookinstall reads and edits.
const MaxDocSize = jsonedit.MaxDocSize

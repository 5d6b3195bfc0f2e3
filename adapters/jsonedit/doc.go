// Package jsonedit edits JSON config files byte for byte: it validates a
// document strictly, finds values by their byte offsets (gjson), and
// splices new text in or old text out, never re-marshalling the file. Its
// MapEdit adds and removes our entries in an event map of hook entries
// ({"<Event>": [entry, ...]} at one key of the root).
//
// It knows no agent: what to install (MapEdit.Want), where (MapEdit.Key)
// and what is ours (MapEdit.Prefix) come from the caller, package adapters.
//
// Invariants:
//   - Byte preservation: an edit changes only the span it inserts or
//     deletes; every other byte of the document stays as it was.
//   - Format matching: inserted text copies the document's indent unit
//     (tabs, 2 or 4 spaces), newline style (LF or CRLF) and nesting depth
//     (DetectFormat); a one-line document stays one line; a new document
//     uses DefaultFormat.
//   - Round trip: MapEdit.Remove(MapEdit.Add(x)) == x for every strict JSON
//     object x that holds no entry of ours, and Add(Add(x)) == Add(x). An
//     empty container that Add filled gets its inner white space back
//     (Edit.Emptied, Record.Emptied) when Remove empties it again; a
//     container Add created (Edit.Created) goes when it becomes empty.
//   - Ownership: an entry is ours exactly when every command in it (a
//     handler's "command", or its "bash" where it has no "command") starts
//     with Prefix. Entries that mix ours with others, or that were edited
//     by hand (neither what Want holds nor what the Record says was
//     written), are left alone and reported in Edit.Notes, unless Force.
//   - Strict input: only RFC 8259 JSON objects (no BOM, no comments, valid
//     UTF-8, nothing after the value, nesting at most 10000, at most
//     MaxDocSize bytes) are edited. Duplicate keys and wrong types on the
//     path an edit takes are errors; every error is a *SyntaxError that
//     carries the byte offset, line and column.
//   - Immutable input: the caller's bytes are never changed. The edits
//     work on a string copy, so gjson results (which point into it) stay
//     valid across edits; where one pass suffices (add appends, remove
//     deletes one entry per event) the edits are all read from that copy
//     and the result is made in one splice of the caller's bytes, once
//     the copy is collected (spliceLarge): a large config has at most two
//     copies of its size alive then.
//   - Comments (MapEdit.Comments, for agents that read JSONC): // and /* */
//     comments are allowed, and nothing else is relaxed (trailing commas
//     and a /* never closed are errors). No edit deletes, moves or cuts a
//     comment; a comment on the rest of the line after which ours go stays
//     on that line, after the comma; Round trip holds for every JSONC
//     object (jsonc.go).
//   - Pure: no file, process or environment access (but spliceLarge's
//     call of the collector).
package jsonedit

package adapters

// A Query is a question a plan puts to the agent's own binary, which the
// writer asks by running it: Argv[0] found on the caller's PATH, bounded in
// time, with a minimal environment (the caller's PATH, TERM=dumb, NO_COLOR=1)
// plus Env, Input written to its stdin, and its stdout read until Done says
// the answer is complete (then stdin is closed and its process group
// stopped).
//
// With Files, the writer first makes a scratch directory holding them (by
// name), runs the binary in it, and deletes it afterwards; "$SCRATCH" in a
// value of Env stands for that directory. Without Files the binary runs in
// Dir.
type Query struct {
	Argv  []string
	Env   []string
	Files map[string][]byte
	Dir   string
	Input []byte
	Done  func(stdout []byte) bool
}

// A Reply is what the binary said to a Query: its stdout up to the complete
// answer, or why there is none. Scratch is the scratch directory it ran in,
// with its symlinks resolved ("" without Files): the agent puts that path
// into what it reports.
type Reply struct {
	Out     []byte
	Err     error
	Scratch string
}

// A Verify is asked of the agent's binary after an add is written: when
// Judge finds fault with the reply, the writer rolls the whole add back
// (every file as it was) and reports Judge's error.
type Verify struct {
	Query Query
	Judge func(Reply) error
}

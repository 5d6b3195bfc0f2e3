package adapters

// A Query is a question a plan puts to the agent's own binary, which the
// writer asks by running it as internal/agentexec runs every agent program:
// Argv[0] found on the caller's PATH, bounded in time, with a fixed minimal
// environment and a scratch HOME, plus Env. It is a JSON-RPC server on
// stdio: Input is written to its stdin, and its answer is the line of
// stdout whose id is ReplyID.
//
// Files are written into the scratch folder (by name) first; "$SCRATCH" in
// a value of Env stands for it. It runs in Dir, or there.
type Query struct {
	Argv    []string
	Env     []string
	Files   map[string][]byte
	Dir     string
	Input   []byte
	ReplyID int
}

// A Reply is what the binary said to a Query: the reply line, or why there
// is none. Scratch is the scratch folder it ran with, its symlinks
// resolved: the agent puts that path into what it reports.
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

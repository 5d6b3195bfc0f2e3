package adapters

import (
	"bytes"
	"encoding/json"
	"time"
)

// The vocabulary of verdicts, stated once for every layer: the adapters'
// own checks, doctor's, the writer's outcomes, and package hookinstall's
// API and --json output, which use these types as they are.

// A CheckResult is the outcome of one check. Only Fail means the install
// will not do what it promises.
type CheckResult string

// The check results.
const (
	Pass CheckResult = "pass" // the agent will do what the install promises here
	Fail CheckResult = "fail" // it will not: Hint says how to fix it
	Info CheckResult = "info" // worth knowing, not a fault
	Skip CheckResult = "skip" // could not be checked (Verdict says why)
)

// A Check is one finding about one agent.
type Check struct {
	ID      string      `json:"id"` // stable: "config.parse", "switch.disableAllHooks", "fire.Stop", ...
	Result  CheckResult `json:"result"`
	File    string      `json:"file,omitempty"`
	Verdict string      `json:"verdict"`
	Hint    string      `json:"hint,omitempty"`
	// Took is how long the script or program the check ran took, to the
	// microsecond; 0 when it ran none. JSON has it as "ms".
	Took time.Duration `json:"-"`
	// Timed marks a check of an agent's program run (an ask), which the
	// run's time is added to.
	Timed bool `json:"-"`
	// Off says the agent's hooks are switched off, so an install would
	// never fire: add refuses with this check's words (exit 3), as doctor
	// fails with them. Each switch is stated once, in Switches.
	Off bool `json:"-"`
}

// MarshalJSON writes c with Took as "ms", in milliseconds to the
// microsecond, when it ran something.
func (c Check) MarshalJSON() ([]byte, error) {
	type plain Check
	v := struct {
		plain
		MS *float64 `json:"ms,omitempty"`
	}{plain: plain(c)}
	if c.Took != 0 {
		ms := float64(c.Took.Microseconds()) / 1000
		v.MS = &ms
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// A Status is the one-word verdict on one agent's install: what status and
// doctor find, and what add and remove did.
type Status string

// The statuses status and doctor report.
const (
	StatusInstalled    Status = "installed"     // ours are in place and will run (add: files were written)
	StatusNotInstalled Status = "not-installed" // the agent is here; nothing of ours is (remove: nothing to remove)
	StatusDisabled     Status = "disabled"      // the agent's hooks are off (add: nothing written)
	StatusDrifted      Status = "drifted"       // ours are in place but wrong: a script missing or changed, an entry edited, ...
	StatusOutdated     Status = "outdated"      // ours are as an older hookinstall wrote them; add brings them up to date
	StatusUntrusted    Status = "untrusted"     // ours are in place; the agent skips them until the user trusts them
	StatusNotDetected  Status = "not-detected"  // the agent is not on this machine
)

// The statuses add and remove report besides StatusInstalled,
// StatusNotInstalled and StatusDisabled.
const (
	StatusUnchanged     Status = "unchanged"      // already installed: nothing written
	StatusWouldInstall  Status = "would-install"  // dry run: the changes say what an install writes
	StatusPrinted       Status = "printed"        // add --print: scripts written; the entries are for the user's own config
	StatusRemoved       Status = "removed"        // every trace of ours is gone
	StatusPartlyRemoved Status = "partly-removed" // gone, except entries edited by hand (see the notes)
	StatusWouldRemove   Status = "would-remove"   // dry run: the changes say what a removal writes
	StatusFailed        Status = "error"          // see the error
)

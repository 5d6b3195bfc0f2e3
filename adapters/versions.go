package adapters

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// A Range is the agent versions whose binaries were run with our hooks
// (docs/agents.md has each run): Oldest and Newest were run with every
// event we write, the user's own hook still firing and the config given
// back byte for byte after remove. Older versions get what Older says.
type Range struct {
	// Program is the binary asked for its version (`Program --version`).
	Program string `json:"program"`
	Oldest  string `json:"oldest"`
	Newest  string `json:"newest"`
	// Floor is the oldest version run at all, with what Older writes for
	// it; below it hookinstall knows nothing (it installs what Floor gets,
	// and says so). Oldest when the agent's file leaves it out.
	Floor string `json:"floor"`
	// Older are what older versions get, each for every version below its
	// Below; they add up (a version below two gets both). A Below above
	// Oldest writes an event Oldest knows in another form (Qwen Code 0.21.2
	// has every event, and reads timeouts in milliseconds).
	Older  []Older `json:"older"`
	Silent []Gap   `json:"silent"` // when Newest sends its hooks nothing (measured)
}

// A Gap: At, an agent sends its hooks nothing, so State shows until Until.
type Gap struct {
	At    string         `json:"at"`
	State terminal.State `json:"state"`
	Until string         `json:"until"`
}

// The gaps measured (docs/agents.md); an exit ends each at the shell's prompt.
var (
	Approved = Gap{"an approved tool runs", terminal.Attention, "the tool ends"}
	EscAsk   = Gap{"Esc at a permission prompt", terminal.Attention, "the next prompt"}
	EscTurn  = Gap{"Esc mid-turn", terminal.Working, "the next prompt"}
)

// Unsure reports whether state s of agent a (nil: not one of ours) may be
// out of date: a gap of a leaves s on, or no binary of a was measured.
func (a *Agent) Unsure(s terminal.State) bool {
	return (s == terminal.Attention || s == terminal.Working) &&
		(a == nil || a.Range == nil || slices.ContainsFunc(a.Range.Silent, func(g Gap) bool { return g.State == s }))
}

// Older is what hookinstall writes for the versions below Below.
type Older struct {
	Below string `json:"below"`
	// Drop are events those versions do not know: not written.
	Drop []string `json:"drop"`
	// TimeoutMS: those versions read a handler's timeout in milliseconds.
	TimeoutMS bool `json:"timeout_ms"`
	// Refuse, when set, says why nothing useful and safe can be written
	// for those versions: add writes nothing and exits 3.
	Refuse string `json:"refused,omitempty"`
	// Why is what was measured (one sentence, for messages and docs).
	Why string `json:"why"`
}

// A Gate is what one agent version gets, from its Range: Version is what
// its binary said; an adapter leaves out the Drop events and writes
// timeouts in milliseconds when TimeoutMS.
type Gate struct {
	Version   string
	Binary    string // the program that said it
	Drop      []string
	TimeoutMS bool
	// Refuse, when set: nothing is written (see Older.Refuse).
	Refuse string
	// Newer: the version is newer than the newest measured.
	Newer bool
	// Unmeasured: the version is older than any measured (Range.Floor).
	Unmeasured bool
	// Why are the measurements behind Drop, TimeoutMS and Refuse.
	Why []string
	// Unknown says why the program's version could not be told (Version
	// is then "", and the gate writes as measured).
	Unknown string
}

var (
	// x.y.z, and a pre-release's suffix: "0.171.0-alpha" is not 0.171.0
	versionRx = regexp.MustCompile(`\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b`)
	// a line that says a version: "0.61.0", "2.1.332 (Claude Code)",
	// "codex-cli 0.171.0", "GitHub Copilot CLI 1.0.39."
	versionLineRx = regexp.MustCompile(`^(?:[A-Za-z][\w.,-]*(?: [A-Za-z][\w.,-]*)* )?v?(` + versionRx.String() + `)`)
)

// ParseVersion finds the version in what `--version` printed: on the first
// line that says one (a warning naming a path or another program's version
// may come first), else the first x.y.z anywhere; "" when there is none.
func ParseVersion(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if m := versionLineRx.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			return m[1]
		}
	}
	return versionRx.FindString(out)
}

// CompareVersions compares two x.y.z versions numerically: -1, 0 or 1 (a
// pre-release's suffix is not compared).
func CompareVersions(a, b string) int {
	a, _, _ = strings.Cut(a, "-")
	b, _, _ = strings.Cut(b, "-")
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	}
	return 0
}

// Judge says what version v gets.
func (r *Range) Judge(v string) Gate {
	if r == nil || v == "" {
		return Gate{Version: v}
	}
	g := Gate{Version: v, Newer: CompareVersions(v, r.Newest) > 0, Unmeasured: CompareVersions(v, r.Floor) < 0}
	for _, o := range r.Older {
		if CompareVersions(v, o.Below) >= 0 {
			continue
		}
		for _, e := range o.Drop {
			if !slices.Contains(g.Drop, e) {
				g.Drop = append(g.Drop, e)
			}
		}
		g.TimeoutMS = g.TimeoutMS || o.TimeoutMS
		if o.Refuse != "" && g.Refuse == "" {
			g.Refuse = o.Refuse
		}
		g.Why = append(g.Why, o.Why)
	}
	return g
}

// drops reports whether the target's gate leaves event out.
func (t Target) drops(event string) bool {
	return t.Gate != nil && slices.Contains(t.Gate.Drop, event)
}

// gated are the events of evs the target's agent version knows.
func gated(t Target, evs []Hook) []Hook {
	if t.Gate == nil || len(t.Gate.Drop) == 0 {
		return evs
	}
	var out []Hook
	for _, e := range evs {
		if !t.drops(e.Event) {
			out = append(out, e)
		}
	}
	return out
}

// Text renders a range for people: "0.20.0 to 2.1.0 (below 0.20.0: no
// Interrupt)".
func (r *Range) Text() string {
	if r == nil {
		return ""
	}
	s := r.Oldest + " to " + r.Newest
	var below []string
	for _, o := range r.Older {
		below = append(below, "below "+o.Below+": "+o.Effect())
	}
	if len(below) > 0 {
		s += " (" + strings.Join(below, "; ") + ")"
	}
	return s
}

// Effect says what Older does, in a few words.
func (o Older) Effect() string {
	var parts []string
	if o.Refuse != "" {
		return "refused"
	}
	if len(o.Drop) > 0 {
		parts = append(parts, "no "+strings.Join(o.Drop, ", "))
	}
	if o.TimeoutMS {
		parts = append(parts, "timeout in ms")
	}
	return strings.Join(parts, ", ")
}

// ErrAgentVersion says that the agent's program on PATH is a version for
// which nothing useful and safe can be written (measured: its hooks would
// report nothing, or it would reject the config).
var ErrAgentVersion = errors.New("the agent's version cannot run these hooks")

// A VersionError is add's refusal for the agent version on PATH.
type VersionError struct{ Agent, Product, Binary, Version, Reason string }

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s: %s %s (%s) %s; nothing written", e.Agent, e.Product, e.Version, e.Binary, e.Reason)
}

func (e *VersionError) Unwrap() error { return ErrAgentVersion }

// Gated is t with the gate of the version its agent's program said: path
// is where the program was found ("" when it is not on PATH: no gate, as
// measured), out what it printed to --version, err why asking it failed.
// Only a target on this machine is gated (a Docker home's agent is not the
// one on PATH).
func (t Target) Gated(path, out string, err error) Target {
	r := t.Adapter.Range
	if r == nil || path == "" || t.AsHome != t.Home {
		return t
	}
	t.Gate = &Gate{Binary: path}
	if v := ParseVersion(out); v != "" {
		*t.Gate = r.Judge(v)
		t.Gate.Binary = path
	} else if err != nil {
		t.Gate.Unknown = err.Error()
	} else {
		t.Gate.Unknown = "it printed no version"
	}
	return t
}

// Refused is the *VersionError of a gate that refuses, or nil.
func (t Target) Refused() error {
	if g := t.Gate; g != nil && g.Refuse != "" {
		return &VersionError{Agent: t.ID, Product: t.Adapter.Product, Binary: g.Binary, Version: g.Version, Reason: g.Refuse}
	}
	return nil
}

// GateNotes say what t's gate means for its hooks, as add says it after
// writing and doctor's version check: a version it could not tell, events
// left out and the states not reported, timeouts in milliseconds, a
// version beyond what was measured; none within the range.
func (t Target) GateNotes() []string {
	g, r, product := t.Gate, t.Adapter.Range, t.Adapter.Product
	if g == nil || r == nil {
		return nil
	}
	if g.Unknown != "" {
		return []string{fmt.Sprintf("could not tell the version of %s (%s); installed as for %s", g.Binary, g.Unknown, r.Newest)}
	}
	var notes []string
	if len(g.Drop) > 0 {
		var lost []string
		for _, e := range g.Drop {
			for _, h := range t.Adapter.Hooks {
				if h.Event == e {
					lost = append(lost, string(h.State))
				}
			}
		}
		n := fmt.Sprintf("%s %s does not know %s: left out", product, g.Version, strings.Join(g.Drop, ", "))
		if len(lost) > 0 {
			n += ", so " + strings.Join(lost, ", ") + " will not be reported"
		}
		notes = append(notes, n+" (upgrade to "+r.Oldest+" or newer for every state)")
	}
	if g.TimeoutMS {
		notes = append(notes, fmt.Sprintf("%s %s reads a hook's timeout in milliseconds: ours are written as %d", product, g.Version, HookTimeout*1000))
	}
	if g.Newer {
		notes = append(notes, fmt.Sprintf("%s %s is newer than the newest version measured with these hooks (%s); installed as for %s: '%s' checks whether ours still run", product, g.Version, r.Newest, r.Newest, t.Command("doctor")))
	}
	if g.Unmeasured {
		notes = append(notes, fmt.Sprintf("%s %s is older than the oldest version measured with these hooks (%s); installed as for %s", product, g.Version, r.Floor, r.Floor))
	}
	return notes
}

package adapters

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hookinstall/hookinstall/internal/agenttest"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// agentFacts loads the facts the tests pin about agent, from its
// adapters/testdata/agents/<agent>.json.
func agentFacts(t testing.TB, agent string) *agenttest.Facts {
	t.Helper()
	f, err := agenttest.Load(agent)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestAgentTestdata: every agent of the registry, and only those, has its
// adapters/testdata/agents/<agent>.json, holding what the tests that
// iterate the registry need from it: its paths (TestResolvePaths), for an
// agent that shares its file with the user the crash matrix's configs
// (writer's TestCrashSafety), and for an agent whose scripts write to the
// pty a payload for each event it installs (TestPTYScriptsWriteExactOSC);
// and its testscript, testdata/script/add_<agent>.txtar (or
// add_<agent>_*.txtar). A new agent without them fails here, by name.
func TestAgentTestdata(t *testing.T) {
	have, err := agenttest.Agents()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(have, Names()) {
		t.Errorf("%s holds files for %v; the registry has %v: one file per agent, named after its ID", agenttest.Dir(), have, Names())
	}
	for _, a := range All() {
		f, err := agenttest.Load(a.ID)
		if err != nil {
			t.Error(err)
			continue
		}
		path := agenttest.Path(a.ID)
		scriptsOf, _ := filepath.Glob(filepath.Join("..", "testdata", "script", "add_"+a.ID+".txtar"))
		more, _ := filepath.Glob(filepath.Join("..", "testdata", "script", "add_"+a.ID+"_*.txtar"))
		if len(scriptsOf)+len(more) == 0 {
			t.Errorf("%s has no testscript testdata/script/add_%s.txtar (add, remove, bad input, its switches, byte for byte)", a.ID, a.ID)
		}
		if f.Config == "" || f.Clone == "" {
			t.Errorf("%s: no \"config\" or \"clone\": where %s's hooks go with the home at /h, plain and as the clone %s-2", path, a.ID, a.ID)
		}
		switch shared := !a.Own; {
		case shared && (f.Crash == nil || f.Crash.Existing == "" || f.Crash.Linked == ""):
			t.Errorf("%s: no \"crash\" (\"existing\" and \"linked\"): %s shares its file with the user, so the crash matrix starts from a user's file", path, a.ID)
		case !shared && f.Crash != nil:
			t.Errorf("%s: \"crash\" for an agent that owns its file (the crash matrix starts it with no file)", path)
		}
		switch module := a.Plugin != nil; {
		case !module && f.BOM == "":
			t.Errorf("%s: no \"bom\": the error add gives for a config of %s's that starts with a UTF-8 byte order mark", path, a.ID)
		case module && f.BOM != "":
			t.Errorf("%s: \"bom\" for an agent whose file is a module of ours", path)
		}
		tg := testTarget(t, a.ID, "/home/u")
		ss, err := a.Scripts(tg)
		if err != nil {
			t.Fatal(err)
		}
		pty := a.Transport == scripts.PTY && len(ss) > 0
		if !pty {
			if len(f.PTY) > 0 {
				t.Errorf("%s: \"pty\" cases for an agent whose scripts do not write to the pty", path)
			}
			continue
		}
		events := map[string]bool{}
		for _, s := range ss {
			events[s.Event] = true
		}
		covered := map[string]bool{}
		for _, c := range f.PTY {
			if !events[c.Event] {
				t.Errorf("%s: a \"pty\" case for %s, which %s does not install", path, c.Event, a.ID)
			}
			switch terminal.State(c.Want) {
			case terminal.Working, terminal.Attention, terminal.Done, terminal.Interrupted, agenttest.Silent:
			default:
				t.Errorf("%s: \"want\": %q is no state (working, attention, done, interrupted) nor %q", path, c.Want, agenttest.Silent)
			}
			covered[c.Event] = true
		}
		for _, s := range ss {
			if !covered[s.Event] && s.Name != scripts.RuntimeName { // the runtime runs in the hooks' terminal mode
				t.Errorf("%s: no \"pty\" case for %s's %s: a payload and the state its script must write", path, a.ID, s.Event)
			}
		}
	}
}

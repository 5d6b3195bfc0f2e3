package adapters

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/hookinstall/hookinstall/adapters/jsonedit"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// gemini is Gemini CLI (measured on 0.61.0): ~/.gemini/settings.json,
// shared with the user and rewritten by Gemini itself, holds Claude-like
// groups whose handlers carry a name and a timeout in MILLISECONDS. Its hooks
// inherit the environment and must print nothing but JSON on stdout, so our
// scripts write to the host's pty and print nothing.
//
// ~/.gemini is also Antigravity's, so our hooks dir there is
// <NS>-gemini-hooks (Antigravity's is <NS>-hooks), and Gemini CLI is
// detected by its settings.json or its program, never by the folder alone.
func init() {
	register(&Agent{
		ID: "gemini", Product: "Gemini CLI", Programs: []string{"gemini"}, WindowsHooks: "with PowerShell",
		// ~/.gemini; $GEMINI_CLI_HOME replaces the home (not the folder):
		// Gemini CLI then reads $GEMINI_CLI_HOME/.gemini/settings.json.
		Dir: func(home string, getenv func(string) string) (string, string) {
			h, from := envDir(getenv, "GEMINI_CLI_HOME", home)
			return filepath.Join(h, ".gemini"), from
		},
		File:      geminiSettings,
		SharesDir: true,
		Detect:    func(t Target) []string { return []string{geminiSettings(t)} },
		// The system settings (which can switch hooks off for every user)
		// and the folders the user trusted, which doctor reports.
		Reads: func(t Target) []string {
			return append(geminiSystemFiles(t), geminiTrustedFolders(t))
		},
		Hooks: []Hook{
			{Event: "BeforeAgent", State: terminal.Working},
			{Event: "Notification", State: terminal.Attention, Rule: scripts.FieldEquals,
				Field: "notification_type", Value: "ToolPermission", Note: "only when notification_type is ToolPermission"},
			{Event: "AfterTool", State: terminal.Working, Note: "after each tool: the first event after an approval"},
			{Event: "AfterAgent", State: terminal.Done},
		},
		Transport:     scripts.PTY,
		Format:        HookMap{Key: "hooks", Named: true, Timeout: geminiTimeout},
		ReadsComments: true, RewritesInPlace: true,
		check:          geminiCheck,
		Switches:       geminiSwitches,
		Payloads:       "gemini",
		Range:          geminiRange,
		ProjectConfigs: []string{".gemini/settings.json"},
	})
}

// geminiTimeout is our handlers' timeout: 5 s, in Gemini CLI's milliseconds
// (a 5 there would kill every hook after 5 ms; measured: a handler with
// 1000 is killed after one second, "Hook timed out after 1000ms").
const geminiTimeout = HookTimeout * 1000

// geminiSystem is the machine-wide settings file (getSystemSettingsPath in
// Gemini CLI's code), which overrides the user's.
var geminiSystem = OSPath{Linux: "/etc/gemini-cli/settings.json", Darwin: "/Library/Application Support/GeminiCli/settings.json"}

func geminiSystemFiles(t Target) []string {
	return systemSettings(t, geminiSystem, "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH")
}

func geminiSettings(t Target) string { return filepath.Join(t.Dir, "settings.json") }

func geminiTrustedFolders(t Target) string { return filepath.Join(t.Dir, "trustedFolders.json") }

// geminiOff says why Gemini CLI would run none of our hooks, from the root
// of a settings file of a layer: hooksConfig.enabled false (in the system
// defaults only while the user's own settings, user, do not set it true),
// or one of our hooks named (by name or by command) in
// hooksConfig.disabled, a list Gemini CLI joins across the files.
func geminiOff(file string, layer int, root, user gjson.Result, ours map[string]bool) *OffError {
	where := layerWhere[layer]
	fix := []string{"set it to true or remove it, then run add again", "ask whoever manages this machine",
		"set hooksConfig.enabled to true in your own settings, then run add again"}[layer]
	hc := root.Get("hooksConfig")
	if hc.Get("enabled").Type == gjson.False && (layer != layerDefaults || user.Get("hooksConfig.enabled").Type != gjson.True) {
		return &OffError{File: file, Key: "hooksConfig.enabled", Reason: "is false" + where + ", so Gemini CLI runs no hooks at all; " + fix}
	}
	fix = "ask whoever manages this machine"
	if layer == layerUser {
		fix = "take it out of the list (or /hooks enable it), then run add again"
	}
	for _, d := range hc.Get("disabled").Array() {
		if ours[d.String()] {
			return &OffError{File: file, Key: "hooksConfig.disabled", Reason: fmt.Sprintf("lists %q%s, so Gemini CLI never runs that hook of ours; %s", d.String(), where, fix)}
		}
	}
	return nil
}

// geminiNames are the names and commands Gemini CLI knows our hooks by.
func geminiNames(a *Agent, t Target) map[string]bool {
	m := map[string]bool{}
	for _, h := range a.Hooks {
		m[HookName(t, h.Event)] = true
		m[t.ScriptPath(scripts.FileName(h.Event))] = true
	}
	return m
}

func geminiCheck(a *Agent, t Target, cur []byte, files map[string][]byte) ([]string, error) {
	var notes []string
	if _, _, trusted := geminiTrusted(t.Cwd, files[geminiTrustedFolders(t)]); !trusted {
		notes = append(notes, geminiTrustNote(a.File(t)))
	}
	if jsonedit.IsBlank(cur) {
		return notes, nil
	}
	if _, err := a.parseShared(t, cur); err != nil {
		return nil, err
	}
	return notes, nil
}

// geminiTrustNote is what add says about folder trust, which only the user
// can give.
func geminiTrustNote(config string) string {
	return fmt.Sprintf("%s: Gemini CLI runs no hooks at all, ours included, in a folder the user has not trusted (folder trust is on by default): trust the folder when Gemini asks, or run it with --skip-trust", config)
}

// geminiTrusted reports whether folder cwd is trusted by tf, the user's
// trustedFolders.json ({"/path": "TRUST_FOLDER" | "TRUST_PARENT" |
// "DO_NOT_TRUST"}), as Gemini CLI 0.61.0 decides (isPathTrusted, read in
// its bundle): of the rules whose folder (the rule path's parent, for
// TRUST_PARENT) is cwd or holds it, the one with the longest path wins;
// DO_NOT_TRUST, or no rule, is not trusted. rule and level name the rule
// that decided. cwd "" (not known) is not trusted. Gemini resolves the
// symlinks of each rule's path too; a rule written through a symlink is
// taken as written here.
func geminiTrusted(cwd string, tf []byte) (rule, level string, trusted bool) {
	if cwd == "" || len(tf) == 0 {
		return "", "", false
	}
	data := jsonedit.Blank(tf)
	if !gjson.ValidBytes(data) {
		return "", "", false
	}
	best := -1
	for _, m := range jsonedit.Members(gjson.ParseBytes(data)) {
		lv := m.Val.String()
		folder := m.Key
		if lv == "TRUST_PARENT" {
			folder = filepath.Dir(folder)
		}
		folder = filepath.Clean(folder)
		if !filepath.IsAbs(folder) || (cwd != folder && !strings.HasPrefix(cwd, strings.TrimSuffix(folder, "/")+"/")) {
			continue
		}
		if len(m.Key) > best {
			best, rule, level = len(m.Key), m.Key, lv
		}
	}
	return rule, level, level == "TRUST_FOLDER" || level == "TRUST_PARENT"
}

// geminiSwitches checks hooksConfig in the user's and the system settings,
// and says what folder trust does to every hook.
func geminiSwitches(in Input) []Check {
	var fs []Check
	ours := geminiNames(in.T.Adapter, in.T)
	off := false
	for layer, f := range settingsLayers(in, geminiSystemFiles(in.T)) {
		if o := geminiOff(f.Path, layer, jsoncRoot(f), jsoncRoot(in.Config), ours); o != nil {
			fs = append(fs, switchOff(fail("switch."+o.Key, o.File, fmt.Sprintf("%s: %s %s", o.File, o.Key, o.Reason), "")))
			off = true
		}
	}
	if !off {
		fs = append(fs, pass("switch.hooksConfig", in.Config.Path, "hooksConfig neither switches hooks off nor disables one of ours"))
	}
	// Folder trust: on unless security.folderTrust.enabled is false.
	ft := jsoncRoot(in.Config).Get("security.folderTrust.enabled")
	if ft.Type == gjson.False {
		fs = append(fs, info("trust.folder", in.Config.Path, "folder trust is off (security.folderTrust.enabled is false): Gemini CLI runs hooks in every folder", ""))
		return fs
	}
	tf := in.File(geminiTrustedFolders(in.T))
	n := 0
	for _, m := range jsonedit.Members(jsoncRoot(tf)) {
		if v := m.Val.String(); v == "TRUST_FOLDER" || v == "TRUST_PARENT" {
			n++
		}
	}
	fs = append(fs, geminiRedaction(in, jsoncRoot(in.Config))...)
	if rule, level, ok := geminiTrusted(in.T.Cwd, tf.Data); ok {
		fs = append(fs, pass("trust.folder", tf.Path, fmt.Sprintf("folder trust is on, and %s is trusted (%q: %s in %s)", in.T.Cwd, rule, level, tf.Path)))
		return fs
	}
	here := ""
	if in.T.Cwd != "" {
		here = fmt.Sprintf(", as %s is not", in.T.Cwd)
	}
	fs = append(fs, info("trust.folder", tf.Path, fmt.Sprintf("folder trust is on: Gemini CLI runs no hooks at all, ours included, in a folder the user has not trusted%s (%d trusted in %s)", here, n, tf.Path),
		"trust the folder when Gemini asks (or run it with --skip-trust); only the user can"))
	return fs
}

// geminiRedacted is the name pattern of the variables Gemini CLI keeps from
// its hooks when it redacts their environment (0.61.0's
// shouldRedactEnvironmentVariable; GEMINI_CLI_* are always kept).
var geminiRedacted = regexp.MustCompile(`(?i)TOKEN|SECRET|PASSWORD|PASSWD|KEY|AUTH|CREDENTIAL|CREDS|PRIVATE|CERT`)

// geminiRedaction checks that our hooks get the host's variables: with
// security.environmentVariableRedaction.enabled, Gemini CLI drops names that
// look like secrets (a namespace "monkey" gives MONKEY_PTY) unless they are
// listed in .allowed, and always drops those in .blocked.
func geminiRedaction(in Input, root gjson.Result) []Check {
	r := root.Get("security.environmentVariableRedaction")
	list := func(key string) map[string]bool {
		m := map[string]bool{}
		for _, v := range r.Get(key).Array() {
			m[strings.ToUpper(v.String())] = true
		}
		return m
	}
	allowed, blocked := list("allowed"), list("blocked")
	var lost []string
	for _, v := range []string{terminal.TaskVar(in.T.NS), terminal.PTYVar(in.T.NS)} {
		switch {
		case allowed[v]:
		case blocked[v], r.Get("enabled").Type == gjson.True && geminiRedacted.MatchString(v):
			lost = append(lost, v)
		}
	}
	if len(lost) > 0 {
		return []Check{fail("env.redaction", in.Config.Path, fmt.Sprintf("%s: security.environmentVariableRedaction keeps %s from Gemini CLI's hooks, so ours stay silent", in.Config.Path, strings.Join(lost, " and ")),
			"add them to security.environmentVariableRedaction.allowed (or use another --namespace)")}
	}
	return []Check{pass("env.redaction", in.Config.Path, fmt.Sprintf("Gemini CLI passes %s and %s to its hooks", terminal.TaskVar(in.T.NS), terminal.PTYVar(in.T.NS)))}
}

// geminiRange: the versions measured with our hooks (docs/agents.md "Versions").
var geminiRange = &Range{Program: "gemini", Oldest: "0.34.0", Newest: "0.61.0", Silent: []Gap{Approved, EscAsk, EscTurn}}

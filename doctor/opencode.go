package doctor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/agentexec"
	"github.com/hookinstall/hookinstall/internal/terminal"
	"github.com/hookinstall/hookinstall/scripts"
)

// pluginProfile is an agent that loads a module of ours (opencode's and
// Kilo's plugins/<NS>.js, Pi's extensions/<NS>.ts) and runs it in-process.
// There is no entry to find and no script to run: the file is the install.
type pluginProfile struct{ f *adapters.Agent }

// kind is what the agent calls our module.
func (p pluginProfile) kind() string {
	if p.f.Plugin.OnAPI {
		return "extension"
	}
	return "plugin"
}

// config checks the plugin file: there, ours, as installed, gated, with one
// export.
func (p pluginProfile) config(r *run) {
	cfg := r.cfg
	file := cfg.Path
	switch {
	case cfg.Err != nil:
		r.fail("entries.present", file, fmt.Sprintf("%s: cannot be read: %v", file, cfg.Err), r.addHint())
		return
	case !cfg.Exists:
		r.fail("entries.present", file, fmt.Sprintf("%s is missing, so %s loads no %s of ours", file, p.f.Product, p.kind()), r.addHint())
		return
	case !bytes.HasPrefix(cfg.Data, []byte(p.f.Plugin.Header(r.t.NS))):
		r.fail("entries.present", file, fmt.Sprintf("%s is not the %s hookinstall writes (its first line is not our header)", file, p.kind()), "move it away, then run '"+r.t.Command("add")+"'")
		return
	}
	r.pass("entries.present", file, fmt.Sprintf("%s is our %s, where %s loads it (%s/)", file, p.kind(), p.f.Product, filepath.Base(filepath.Dir(file))))
	want, err := p.f.Plugin.Render(r.t.Install())
	if err != nil {
		r.fail("script.hash", file, fmt.Sprintf("cannot render our %s: %v", p.kind(), err), "")
		return
	}
	rel, _ := filepath.Rel(r.t.Home, file)
	var recorded *string
	if rec := r.man.File(rel); rec != nil && rec.PostSHA256 != "" {
		recorded = &rec.PostSHA256
	}
	r.hashCheck(file, cfg.Data, want, recorded, "outdated.plugin", " (--force replaces an edited "+p.kind()+")")
	var miss []string
	for _, g := range []struct{ text, what string }{
		{"if (!process.env." + terminal.TaskVar(r.t.NS) + ") return;", "the task gate (silent outside the host: no " + terminal.TaskVar(r.t.NS) + ")"},
		{".isCharacterDevice()) return;", "the pty gate (writes only to a character device)"},
	} {
		if !bytes.Contains(cfg.Data, []byte(g.text)) {
			miss = append(miss, g.what)
		}
	}
	r.gatesCheck(file, miss)
	n, def := 0, 0
	for _, l := range strings.Split(string(cfg.Data), "\n") {
		if strings.HasPrefix(l, "export ") {
			n++
		}
		if strings.HasPrefix(l, "export default function") {
			def++
		}
	}
	switch {
	case p.f.Plugin.OnAPI && (n != 1 || def != 1):
		r.fail("script.exports", file, fmt.Sprintf("%s has %d export statements: %s runs the default export, which must be the extension function, and nothing else", file, n, p.f.Product), r.addHint())
	case p.f.Plugin.OnAPI:
		r.pass("script.exports", file, fmt.Sprintf("%s exports one extension function, as its default", file))
	case n != 1:
		r.fail("script.exports", file, fmt.Sprintf("%s has %d export statements: %s calls every export as a plugin, so it must export exactly one", file, n, p.f.Product), r.addHint())
	default:
		r.pass("script.exports", file, fmt.Sprintf("%s exports one plugin function", file))
	}
}

func (p pluginProfile) switches(r *run) { r.apply(p.f.Switches) }
func (pluginProfile) trust(*run)        {}
func (pluginProfile) ask(*run)          {}

func (p pluginProfile) projectFiles() []string { return p.f.ProjectConfigs }

func (p pluginProfile) deadPaths(r *run) { r.apply(p.f.CheckDeadPaths) }

// pluginDriver loads the installed plugin the way opencode does (every
// export is called as a plugin function, with a context), or, for Pi's API,
// the way Pi does (the default export registers handlers with on), then calls, case
// by case, one hook with a recorded argument, with the task and pty
// variables of that case set in process.env (the plugin reads them at each
// call). The module is imported from a data: URL of the file's bytes, so no
// package.json is needed beside it. It prints the export names and, per
// case, whether the hook was missing or threw, and how long it took.
const pluginDriver = `import { readFileSync } from "node:fs";
const plugin = process.argv[process.argv.length - 1];
const job = JSON.parse(readFileSync(0, "utf8"));
const src = readFileSync(plugin, "utf8");
const mod = await import("data:text/javascript;base64," + Buffer.from(src).toString("base64"));
const names = Object.keys(mod);
const plugins = [];
let threw = "";
if (job.on) {
  const on = {};
  try {
    await mod.default({ on: (name, fn) => { (on[name] ||= []).push(fn); } });
  } catch (e) { threw = String((e && e.stack) || e); }
  const hooks = {};
  for (const [name, fns] of Object.entries(on)) {
    hooks[name] = async (event) => { for (const fn of fns) await fn(event, { hasUI: true, cwd: process.cwd() }); };
  }
  plugins.push(hooks);
} else {
  for (const name of names) {
    try {
      plugins.push(await mod[name]({ directory: process.cwd(), worktree: process.cwd(), project: {}, client: {}, $: null }));
    } catch (e) { threw = String((e && e.stack) || e); }
  }
}
const cases = [];
for (const c of job.cases) {
  for (const [k, v] of Object.entries(c.env)) {
    if (v === null) delete process.env[k]; else process.env[k] = v;
  }
  let missing = false, err = "";
  const t0 = performance.now();
  for (const hooks of plugins) {
    const h = hooks && hooks[c.hook];
    if (typeof h !== "function") { missing = true; continue; }
    try { await h(c.input, c.output); } catch (e) { err = String((e && e.stack) || e); }
  }
  cases.push({ missing, threw: err, ms: performance.now() - t0 });
}
process.stdout.write(JSON.stringify({ exports: names, threw, cases }) + "\n");
`

// jsRuntime finds what runs the plugin: the agent's own runtime (opencode's
// binary with BUN_BE_BUN=1 is Bun), else node.
func (p pluginProfile) jsRuntime(r *run) (argv, env []string, name string) {
	if rt := p.f.Plugin.Runtime; rt != "" {
		if path, err := agentexec.LookPath(r.d.Getenv, rt); err == nil {
			return []string{path, "-e", pluginDriver}, p.f.Plugin.RuntimeEnv, p.f.Plugin.RuntimeName
		}
	}
	if p, err := agentexec.LookPath(r.d.Getenv, "node"); err == nil {
		return []string{p, "--input-type=module", "-e", pluginDriver}, nil, "node"
	}
	return nil, nil, ""
}

// fire loads the plugin once in a JavaScript runtime and calls each hook
// with its recorded argument, each call against its own pty, with the task
// env and then without it.
func (p pluginProfile) fire(r *run) {
	file := r.cfg.Path
	argv, renv, name := p.jsRuntime(r)
	if argv == nil {
		r.skip("fire.working", file, fmt.Sprintf("%s was not run: neither %s nor node is on PATH", file, p.f.Plugin.Runtime))
		return
	}
	argv = append(argv, file)
	ns := r.t.NS
	type jcase struct {
		Hook   string             `json:"hook"`
		Input  json.RawMessage    `json:"input"`
		Output json.RawMessage    `json:"output,omitempty"`
		Env    map[string]*string `json:"env"`
	}
	type fcase struct {
		id, why string
		want    []byte
		cap     *capture
	}
	var job struct {
		OnAPI bool    `json:"on"`
		Cases []jcase `json:"cases"`
	}
	job.OnAPI = p.f.Plugin.OnAPI
	var fs []fcase
	defer func() {
		for _, f := range fs {
			f.cap.close()
		}
	}()
	task := "hookinstall-doctor"
	for _, withTask := range []bool{true, false} {
		for _, c := range p.f.Plugin.Cases {
			cap, err := openCapture()
			if err != nil {
				r.skip(c.ID, file, fmt.Sprintf("%s was not run: %v", file, err))
				return
			}
			pname := p.f.Payloads + "." + c.Event
			var jc jcase
			if err := json.Unmarshal(payload(pname), &jc); err != nil {
				r.skip(c.ID, file, fmt.Sprintf("%s was not run: payload %s: %v", file, pname, err))
				return
			}
			path := cap.Path
			jc.Env = map[string]*string{terminal.PTYVar(ns): &path, terminal.TaskVar(ns): nil}
			f := fcase{id: c.ID, why: "the recorded " + c.Event + " call", cap: cap}
			if withTask {
				jc.Env[terminal.TaskVar(ns)] = &task
				if c.State != "" { // a call that must stay silent
					f.want = scripts.OSC(ns, c.State)
				}
			} else {
				f.id, f.why = "fire.silent", f.why+" and no "+terminal.TaskVar(ns)+" (outside the host)"
			}
			job.Cases = append(job.Cases, jc)
			fs = append(fs, f)
		}
	}
	stdin, _ := json.Marshal(job)
	res := r.exec(argv, stdin, append([]string{"HOME=" + r.t.Home}, renv...), r.d.FireTimeout+5*time.Second)
	var out struct {
		Exports []string `json:"exports"`
		Threw   string   `json:"threw"`
		Cases   []struct {
			Missing bool    `json:"missing"`
			Threw   string  `json:"threw"`
			Ms      float64 `json:"ms"`
		} `json:"cases"`
	}
	var common []string
	switch {
	case res.Err != nil:
		common = append(common, res.Err.Error())
	case res.Exit != 0:
		common = append(common, fmt.Sprintf("%s exited %d: %s", name, res.Exit, show(res.Stderr)))
	case json.Unmarshal(res.Stdout, &out) != nil || len(out.Cases) != len(fs):
		common = append(common, fmt.Sprintf("%s printed %s", name, show(res.Stdout)))
	default:
		if len(out.Exports) != 1 {
			common = append(common, fmt.Sprintf("the module exports %d functions (%s); %s calls each as a plugin", len(out.Exports), strings.Join(out.Exports, ", "), p.f.Product))
		}
		if out.Threw != "" {
			common = append(common, "the plugin function threw: "+firstLine(out.Threw))
		}
	}
	for i := range fs {
		f := &fs[i]
		got, unread := f.cap.read(r.ctx, r.d.FireTimeout)
		faults := append([]string(nil), common...)
		d := took(res.Dur)
		if i < len(out.Cases) {
			oc := out.Cases[i]
			// the runner measured the hook itself, in milliseconds
			d = took(time.Duration(oc.Ms * float64(time.Millisecond)))
			if oc.Missing {
				faults = append(faults, "the plugin has no such hook")
			}
			if oc.Threw != "" {
				faults = append(faults, "the hook threw: "+firstLine(oc.Threw))
			}
		}
		if unread == nil && !bytes.Equal(got, f.want) {
			faults = append(faults, fmt.Sprintf("wrote %s to the pty, want %s", show(got), show(f.want)))
		}
		base := fmt.Sprintf("%s with %s, in %s,", file, f.why, name)
		if len(faults) > 0 {
			r.add(Check{ID: f.id, Result: adapters.Fail, File: file, Took: d, Verdict: strings.TrimSuffix(base, ",") + ": " + strings.Join(faults, "; "), Hint: r.addHint()})
			continue
		}
		if unread != nil {
			r.skip(f.id, file, fmt.Sprintf("%s %v, so what it wrote there is not known (run doctor again)", base, unread))
			continue
		}
		what := "stayed silent (nothing on the pty)"
		if f.want != nil {
			what = "wrote " + show(f.want) + " to the pty"
		}
		r.add(Check{ID: f.id, Result: adapters.Pass, File: file, Took: d, Verdict: fmt.Sprintf("%s %s in %s (the runtime took %.0fms in all)", base, what, ms(d), float64(res.Dur)/float64(time.Millisecond))})
	}
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

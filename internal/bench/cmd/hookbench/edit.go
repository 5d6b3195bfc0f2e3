//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookinstall/hookinstall/adapters"
	"github.com/hookinstall/hookinstall/internal/bench"
	"github.com/hookinstall/hookinstall/internal/terminal"
)

// The usual way, with the durability hookinstall promises for the file:
// write a temp file, sync it, rename it over the original. One jq
// one-liner appends our three entries, another deletes them.
const (
	jqAdd = `jq --arg p "$P" '.hooks.UserPromptSubmit += [{"hooks":[{"type":"command","command":($p+"user-prompt-submit.sh"),"timeout":5}]}]` +
		` | .hooks.PermissionRequest += [{"hooks":[{"type":"command","command":($p+"permission-request.sh"),"timeout":5}]}]` +
		` | .hooks.Stop += [{"hooks":[{"type":"command","command":($p+"stop.sh"),"timeout":5}]}]'` +
		` settings.json > settings.json.tmp && sync settings.json.tmp && mv settings.json.tmp settings.json`
	jqDel = `jq --arg p "$P" 'del(.hooks[][] | select(any(.hooks[]?; (.command // "") | startswith($p))))'` +
		` settings.json > settings.json.tmp && sync settings.json.tmp && mv settings.json.tmp settings.json`
	// copyFloor is the floor of any safe rewrite of the file: its bytes
	// copied to a temp file, synced, renamed over it. No edit can cost
	// less than one of these.
	copyFloor = `cat settings.json > settings.json.tmp && sync settings.json.tmp && mv settings.json.tmp settings.json`
)

// home is a scratch HOME with a Claude settings.json.
type home struct {
	dir, cfg string
}

func newHome(work, name string, doc []byte) (home, error) {
	h := home{dir: filepath.Join(work, name)}
	h.cfg = filepath.Join(h.dir, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(h.cfg), 0o755); err != nil {
		return h, err
	}
	return h, h.reset(doc)
}

// reset puts doc back, synced, so the next timed run does not pay for
// flushing the harness's own writes (a real config has long been on disk).
func (h home) reset(doc []byte) error {
	return writeSynced(h.cfg, doc, os.O_CREATE|os.O_TRUNC|os.O_WRONLY)
}

// writeSynced writes data to path with flags and fsyncs it.
func writeSynced(path string, data []byte, flags int) error {
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// hookinstall runs one command of the binary on h.
func (h home) hookinstall(bin string, args ...string) (result, error) {
	return h.hookinstallRSS(false, bin, args...)
}

// hookinstallRSS is hookinstall, with the peak RSS measured when rss is set.
func (h home) hookinstallRSS(rss bool, bin string, args ...string) (result, error) {
	argv := append([]string{bin}, append(args, "--home", h.dir)...)
	r, stderr, err := h.exec(rss, "", []string{"PATH=/usr/bin:/bin", "HOME=" + h.dir}, argv)
	if err == nil && r.code != 0 {
		err = fmt.Errorf("hookinstall %s: exit %d: %s", strings.Join(args, " "), r.code, stderr)
	}
	return r, err
}

// jq runs one of the one-liners in h's .claude dir.
func (h home) jq(rss bool, script string) (result, error) {
	env := []string{"PATH=/usr/bin:/bin", "P=" + filepath.Join(h.dir, ".claude", ns+"-hooks") + "/"}
	r, stderr, err := h.exec(rss, filepath.Dir(h.cfg), env, []string{"/bin/sh", "-c", script})
	if err == nil && r.code != 0 {
		err = fmt.Errorf("jq one-liner: exit %d: %s", r.code, stderr)
	}
	return r, err
}

// timeBin is GNU time, which measures a child's peak RSS from a process of
// its own: a child of this (large) Go process starts its life sharing our
// address space (vfork), and Linux counts our RSS into its ru_maxrss.
const timeBin = "/usr/bin/time"

// exec runs argv, under GNU time when rss is set (then maxRSS is the
// child's own peak, and the wall time includes time's own fork and exec).
func (h home) exec(rss bool, dir string, env, argv []string) (result, string, error) {
	var rssFile string
	if rss {
		f, err := os.CreateTemp("", "hookbench-rss-")
		if err != nil {
			return result{}, "", err
		}
		rssFile = f.Name()
		f.Close()
		defer os.Remove(rssFile)
		argv = append([]string{timeBin, "-f", "%M", "-o", rssFile}, argv...)
	}
	c := exec.Command(argv[0], argv[1:]...)
	c.Dir, c.Env = dir, env
	var stderr bytes.Buffer
	c.Stdout, c.Stderr = devNull, &stderr
	r, err := timed(c)
	r.maxRSS = 0
	if err == nil && rss {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return r, stderr.String(), err
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			return r, stderr.String(), fmt.Errorf("%s wrote no RSS: %q", timeBin, b)
		}
		var kb int64
		if _, err := fmt.Sscan(f[len(f)-1], &kb); err != nil {
			return r, stderr.String(), fmt.Errorf("%s: %q: %w", timeBin, b, err)
		}
		r.maxRSS = kb * 1024
	}
	return r, stderr.String(), err
}

func (h home) check(want []byte, what string) error {
	got, err := os.ReadFile(h.cfg)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s: settings.json is not back byte for byte", what)
	}
	return nil
}

func benchEdit(r *report, bin, work string) error {
	doc := bench.Typical
	hi, err := newHome(work, "edit-hookinstall", doc)
	if err != nil {
		return err
	}
	jq, err := newHome(work, "edit-jq", doc)
	if err != nil {
		return err
	}
	haveJQ := true
	if _, err := exec.LookPath("jq"); err != nil {
		haveJQ = false
	}
	var hiAdd, hiRm, hiBoth, hiCPU, jqA, jqD, jqBoth, jqCPU samples
	for round := 0; round < *flagEdit; round++ {
		n := 1
		if haveJQ {
			n = 2
		}
		for _, i := range rotate(n, round) {
			if i == 0 {
				a, err := hi.hookinstall(bin, "add", "claude")
				if err != nil {
					return err
				}
				d, err := hi.hookinstall(bin, "remove", "claude")
				if err != nil {
					return err
				}
				if err := hi.check(doc, "hookinstall remove"); err != nil {
					return err
				}
				hiAdd, hiRm, hiBoth = append(hiAdd, a.wall), append(hiRm, d.wall), append(hiBoth, a.wall+d.wall)
				hiCPU = append(hiCPU, a.cpu+d.cpu)
				continue
			}
			if err := jq.reset(doc); err != nil {
				return err
			}
			a, err := jq.jq(false, jqAdd)
			if err != nil {
				return err
			}
			d, err := jq.jq(false, jqDel)
			if err != nil {
				return err
			}
			jqA, jqD, jqBoth = append(jqA, a.wall), append(jqD, d.wall), append(jqBoth, a.wall+d.wall)
			jqCPU = append(jqCPU, a.cpu+d.cpu)
		}
	}
	rows := [][]string{
		{"hookinstall `add claude`, `remove claude`", cell(hiAdd), cell(hiRm), cell(hiBoth), cell(hiCPU), "1.00×"},
	}
	rt := ratio(hiBoth, jqBoth)
	if haveJQ {
		rows = append(rows, []string{"jq one-liners, temp + `sync` + `mv`", cell(jqA), cell(jqD), cell(jqBoth), cell(jqCPU), fmt.Sprintf("%.2f×", ratio(jqBoth, hiBoth))})
		r.target("add+remove claude, typical settings.json", "≤ 1.0× the jq one-liners", fmt.Sprintf("%.2f×", rt), rt <= 1.0)
	} else {
		r.target("add+remove claude, typical settings.json", "≤ 1.0× the jq one-liners", "jq not installed", false)
	}
	r.tables = append(r.tables, fmt.Sprintf("### add + remove claude on a typical settings.json (%d bytes)\n\n", len(doc))+
		"hookinstall writes the entries, three scripts, a backup and a manifest, each to a temp file that is fsynced and renamed, then fsyncs the folder; remove restores the backup the same way and deletes the rest. The peer is what a careful user types instead, run with `/bin/sh -c`: `"+jqAdd+"`, and for remove `"+jqDel+"` (jq also rewrites the whole file in its own layout, which hookinstall must not).\n\n"+
		table([]string{"", "add", "remove", "add+remove", "add+remove CPU (user+sys)", "wall vs hookinstall"}, rows))
	return nil
}

func benchBig(r *report, bin, work string) error {
	type size struct {
		name                                 string
		doc                                  []byte
		h, j                                 home
		add, rm, both, cpu, rmEdited, jqBoth samples
		floor                                samples
		rss, jqRSS, floorRSS                 int64
	}
	var sizes []*size
	for _, s := range bench.Sizes {
		doc := bench.Settings(s.Bytes)
		h, err := newHome(work, "big-hookinstall-"+s.Name, doc)
		if err != nil {
			return err
		}
		j, err := newHome(work, "big-jq-"+s.Name, doc)
		if err != nil {
			return err
		}
		sizes = append(sizes, &size{name: s.Name, doc: doc, h: h, j: j})
	}
	_, jqErr := exec.LookPath("jq")
	_, timeErr := os.Stat(timeBin)
	rss := timeErr == nil
	for round := 0; round < *flagBig; round++ {
		for _, i := range rotate(3*len(sizes), round) {
			s := sizes[i/3]
			if i%3 == 2 {
				// The copy floor, on the same file, the same way.
				if err := s.j.reset(s.doc); err != nil {
					return err
				}
				f, err := s.j.jq(rss, copyFloor)
				if err != nil {
					return err
				}
				if err := s.j.check(s.doc, "copy floor"); err != nil {
					return err
				}
				s.floor = append(s.floor, f.wall)
				s.floorRSS = max(s.floorRSS, f.maxRSS)
				continue
			}
			if i%3 == 1 {
				if jqErr != nil {
					continue
				}
				if err := s.j.reset(s.doc); err != nil {
					return err
				}
				a, err := s.j.jq(rss, jqAdd)
				if err != nil {
					return err
				}
				d, err := s.j.jq(rss, jqDel)
				if err != nil {
					return err
				}
				s.jqBoth = append(s.jqBoth, a.wall+d.wall)
				s.jqRSS = max(s.jqRSS, a.maxRSS, d.maxRSS)
				continue
			}
			// add, then remove while the file is as add left it (the
			// backup is restored) ...
			if err := s.h.reset(s.doc); err != nil {
				return err
			}
			a, err := s.h.hookinstallRSS(rss, bin, "add", "claude")
			if err != nil {
				return err
			}
			d, err := s.h.hookinstallRSS(rss, bin, "remove", "claude")
			if err != nil {
				return err
			}
			if err := s.h.check(s.doc, s.name+" remove"); err != nil {
				return err
			}
			s.add, s.rm, s.both = append(s.add, a.wall), append(s.rm, d.wall), append(s.both, a.wall+d.wall)
			s.cpu = append(s.cpu, a.cpu+d.cpu)
			s.rss = max(s.rss, a.maxRSS, d.maxRSS)
			// ... and add, then remove after the file changed (a newline
			// at its end): our entries are cut out of it.
			a2, err := s.h.hookinstallRSS(rss, bin, "add", "claude")
			if err != nil {
				return err
			}
			if err := writeSynced(s.h.cfg, []byte("\n"), os.O_APPEND|os.O_WRONLY); err != nil {
				return err
			}
			d2, err := s.h.hookinstallRSS(rss, bin, "remove", "claude")
			if err != nil {
				return err
			}
			if err := s.h.check(append(append([]byte(nil), s.doc...), '\n'), s.name+" remove after an edit"); err != nil {
				return err
			}
			s.add = append(s.add, a2.wall)
			s.rmEdited = append(s.rmEdited, d2.wall)
			s.rss = max(s.rss, a2.maxRSS, d2.maxRSS)
		}
	}
	var rows [][]string
	for _, s := range sizes {
		jqCell := "jq not installed"
		if jqErr == nil {
			jqCell = cell(s.jqBoth)
			if rss {
				jqCell += ", peak " + mib(s.jqRSS)
			}
		}
		rows = append(rows, []string{
			fmt.Sprintf("%s (%d bytes)", s.name, len(s.doc)),
			cell(s.add), cell(s.rm), cell(s.rmEdited), cell(s.both), cell(s.cpu),
			cell(s.floor), fmt.Sprintf("%.2f×", ratio(s.both, s.floor)),
			rssCell(rss, s.rss, len(s.doc)),
			jqCell,
		})
	}
	small, big := sizes[0], sizes[len(sizes)-1]
	growth := ratio(big.both, small.both)
	bytesGrowth := float64(len(big.doc)) / float64(len(small.doc))
	r.tables = append(r.tables, "### add + remove on large settings.json\n\n"+
		"Generated deterministically by `bench.Settings`: thousands of user hook groups spread over nine events (the three we add to among them), a long permissions list, two-space indent. Each round: add, then remove while the file is as add left it (the backup is restored byte for byte), then add again, a newline appended by hand, and remove (our entries are cut out of the changed file). The copy floor is the cheapest safe rewrite of the same file, run with `/bin/sh -c` in its folder in the same rounds: `"+copyFloor+"`; add+remove (two processes, two edits) is compared with ONE of it. Peak RSS is the largest `ru_maxrss` of any hookinstall process on that file, measured by GNU time (`/usr/bin/time -f %M`; every process in this table, the floor's shell too, runs under it, so its times include time's own fork and exec, about a millisecond).\n\n"+
		table([]string{"file", "add", "remove (restore)", "remove (edited file)", "add+remove", "add+remove CPU (user+sys)", "copy floor", "add+remove / floor", "peak RSS", "jq add+remove (peer)"}, rows))
	floorRatio := ratio(big.both, big.floor)
	// The target as issue 28 relaxed it, to pay for one JSON engine and a
	// writer without its concurrency (docs/performance.md "Issue 28").
	r.target("add+remove, "+big.name+" settings.json", "≤ 16× one copy floor (cat > tmp && sync tmp && mv) of the same file",
		fmt.Sprintf("%.2f×: %s ms median wall [min %s] against %s ms; CPU %s ms", floorRatio, ms(big.both.median()), ms(big.both.min()), ms(big.floor.median()), ms(big.cpu.median())), floorRatio <= 16)
	r.target("growth "+small.name+" → "+big.name, fmt.Sprintf("no worse than linear (≤ %.1f× for %.1f× the bytes)", bytesGrowth, bytesGrowth), fmt.Sprintf("%.1f×", growth), growth <= bytesGrowth)
	if rss {
		rssRatio := float64(big.rss) / float64(len(big.doc))
		r.target("peak memory, "+big.name+" settings.json", "≤ 4× the file size", fmt.Sprintf("%s, %.1f×", mib(big.rss), rssRatio), rssRatio <= 4)
	} else {
		r.target("peak memory, "+big.name+" settings.json", "≤ 4× the file size", timeBin+" (Debian package time) not installed", false)
	}
	return nil
}

// benchDoctor times doctor over every agent, live fires included, once the
// command exists in the binary.
func benchDoctor(r *report, bin, work string) error {
	probe := exec.Command(bin, "doctor", "--help")
	probe.Stdout, probe.Stderr = devNull, devNull
	if err := probe.Run(); err != nil {
		r.tables = append(r.tables, "### doctor\n\ndoctor: not built yet.\n")
		r.target("doctor, all agents, live fires", "≤ 300 ms", "doctor: not built yet", false)
		return nil
	}
	h, err := newHome(work, "doctor", bench.Typical)
	if err != nil {
		return err
	}
	agents := adapters.Names()
	for _, a := range agents {
		if _, err := h.hookinstall(bin, "add", a); err != nil {
			return err
		}
	}
	var ds, base samples
	codes := map[int]int{}
	for round := 0; round < *flagDoctor; round++ {
		for _, i := range rotate(2, round) {
			args := []string{"doctor", "--home", h.dir}
			if i == 1 {
				args = []string{"agents"}
			}
			c := exec.Command(bin, args...)
			c.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + h.dir}
			c.Stdout, c.Stderr = devNull, devNull
			res, err := timed(c)
			if err != nil {
				return err
			}
			if i == 1 {
				base = append(base, res.wall)
				continue
			}
			codes[res.code]++
			ds = append(ds, res.wall)
		}
	}
	r.tables = append(r.tables, fmt.Sprintf("### doctor\n\n`hookinstall doctor --home H` on a HOME where every agent (%s) was added by name (codex's and zerocode's hooks stay untrusted, as after any add until the user trusts them in /hooks, so doctor exits 1 on their six trust checks): every static check and every live fire (each installed script run against a pty; the plugins of opencode and Kilo and Pi's extension in node, the agents checked four at a time). PATH is /usr/bin:/bin, so no agent's own program is asked (see the doctor section above for those). Exit codes seen: %v. Beside it, interleaved, `hookinstall agents`: the process's own start-up.\n\n", strings.Join(agents, ", "), codes)+
		table([]string{"", "wall", "vs start-up"}, [][]string{{"`doctor`, all agents, live fires", cell(ds), fmt.Sprintf("%.1f×", ratio(ds, base))}, {"`agents` (start-up floor)", cell(base), "1.0×"}}))
	r.target("doctor, all agents, live fires", "≤ 300 ms", ms(ds.median())+" ms", ds.median() <= 300*time.Millisecond)
	return nil
}

// benchStatusVersions times status on a HOME where every agent was added,
// with each agent's program on PATH a stand-in whose --version takes 2 s
// (Gemini CLI's Node start takes about that): the first run asks each
// program once; the runs after it take the answers kept in the user's cache
// folder (here the HOME's ~/.cache) and start no program.
func benchStatusVersions(r *report, bin, work string) error {
	h, err := newHome(work, "status", bench.Typical)
	if err != nil {
		return err
	}
	fake := filepath.Join(work, "status-bin")
	if err := os.MkdirAll(fake, 0o755); err != nil {
		return err
	}
	for _, a := range adapters.All() {
		if a.Range != nil {
			if err := writeExec(filepath.Join(fake, a.Range.Program), []byte("#!/bin/sh\nsleep 2\necho "+a.Range.Newest+"\n")); err != nil {
				return err
			}
		}
	}
	for _, a := range adapters.Names() {
		if _, err := h.hookinstall(bin, "add", a); err != nil {
			return err
		}
	}
	status := func() (result, error) {
		c := exec.Command(bin, "status", "--home", h.dir)
		c.Env = []string{"PATH=" + fake + ":/usr/bin:/bin", "HOME=" + h.dir}
		c.Stdout, c.Stderr = devNull, devNull
		return timed(c)
	}
	first, err := status()
	if err != nil {
		return err
	}
	var later samples
	for i := 0; i < *flagStatus; i++ {
		res, err := status()
		if err != nil {
			return err
		}
		later = append(later, res.wall)
	}
	r.tables = append(r.tables, "### status, versions kept\n\n`hookinstall status --home H` on a HOME where every agent was added, each agent's program on PATH a stand-in whose `--version` sleeps 2 s: the first run asks each program once, the runs after it take the answers kept in the cache folder (keyed by each binary's path, size and modification time).\n\n"+
		table([]string{"", "wall"}, [][]string{{"first run (asks every program)", ms(first.wall)}, {"the runs after it", cell(later)}}))
	r.target("status, every agent installed, a 2 s --version, the run after the first", "≤ 50 ms", ms(later.median())+" ms", later.median() <= 50*time.Millisecond)
	return nil
}

// benchLs times `hookinstall ls` over 50 sessions' records, as terminal-mode
// hooks write them (their agent's process alive: this one).
func benchLs(r *report, bin, work string) error {
	xdg := filepath.Join(work, "ls-run")
	dir := terminal.RecordDir(ns, func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": xdg}[k] })
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	states := terminal.States()
	for i := 0; i < 50; i++ {
		v := map[string]string{"state": string(states[i%len(states)]), "agent": "claude", "pid": fmt.Sprint(os.Getpid()), "folder": fmt.Sprintf("repo-%d", i),
			"tty": fmt.Sprintf("/dev/pts/%d", i), "mux": "tmux", "pane": fmt.Sprintf("%%%d", i), "server": "/tmp/tmux-1000/default"}
		var b strings.Builder
		for _, k := range terminal.RecordFields {
			b.WriteString(k + "=" + v[k] + "\n")
		}
		b.WriteString(terminal.RecordEnd + "\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s%d", terminal.RecordPrefix, i)), []byte(b.String()), 0o600); err != nil {
			return err
		}
	}
	var s samples
	for i := 0; i < *flagStatus; i++ {
		c := exec.Command(bin, "ls")
		c.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + work, "XDG_RUNTIME_DIR=" + xdg}
		var out strings.Builder
		c.Stdout, c.Stderr = &out, devNull
		res, err := timed(c)
		if err != nil {
			return err
		}
		if n := strings.Count(out.String(), "\n"); n != 50 {
			return fmt.Errorf("ls listed %d lines, want 50:\n%s", n, out.String())
		}
		s = append(s, res.wall)
	}
	r.tables = append(r.tables, "### ls\n\n`hookinstall ls` over 50 sessions' records (their agent's process alive), as terminal-mode hooks keep them in `$XDG_RUNTIME_DIR/hookinstall`.\n\n"+
		table([]string{"", "wall"}, [][]string{{"ls, 50 records", cell(s)}}))
	r.target("ls over 50 records", "≤ 20 ms", ms(s.median())+" ms", s.median() <= 20*time.Millisecond)
	return nil
}

func rssCell(have bool, rss int64, size int) string {
	if !have {
		return timeBin + " not installed"
	}
	return fmt.Sprintf("%s (%.1f× the file)", mib(rss), float64(rss)/float64(size))
}

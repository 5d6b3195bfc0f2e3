//go:build unix

// Command hookbench measures hookinstall against its floor and its peers,
// side by side in one run, and prints each figure as the median of many
// interleaved runs with the min and max. Absolute times on a shared machine
// are noise; the ratios between things measured in the same rounds are not.
//
//   - every generated hook (gate passing, writing its OSC: Claude's to
//     stdout, the others' to a real pty) against the floor (a #!/bin/sh
//     script that only exits 0) and against the same hook in Node.js;
//   - add+remove claude on a typical settings.json against the usual jq
//     one-liners (temp file, sync, rename);
//   - add+remove on generated 1 MB and 10 MB settings.json: wall time and
//     the child's peak RSS;
//   - doctor over every agent, live fires included (once it exists);
//   - status over every agent, each agent's program a stand-in whose
//     --version takes 2 s: the run after the one that asked them.
//
// It writes the tables between the <!-- bench:begin --> and
// <!-- bench:end --> markers of -out (docs/performance.md), leaving the rest
// of that file alone. Run it from the repository root: `make bench`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
)

const ns = "hookinstall"

var (
	flagBin    = flag.String("bin", "", "hookinstall binary to measure (default: build ./cmd/hookinstall into a temp dir)")
	flagOut    = flag.String("out", "docs/performance.md", "markdown file whose generated section to rewrite (empty: none)")
	flagHook   = flag.Int("hook-runs", 200, "interleaved rounds per hook (floor and hook each run once a round)")
	flagNode   = flag.Int("node-every", 8, "run the Node.js peer in every n-th hook round")
	flagEdit   = flag.Int("edit-runs", 40, "interleaved rounds of add+remove against jq on the typical settings.json")
	flagBig    = flag.Int("big-runs", 7, "interleaved rounds on the 1 MB and 10 MB settings.json")
	flagDoctor = flag.Int("doctor-runs", 15, "runs of doctor")
	flagStatus = flag.Int("status-runs", 15, "runs of status once every agent's version is known")
	flagQuick  = flag.Bool("quick", false, "a few runs of everything (a smoke test; figures are not meaningful)")
	flagOnly   = flag.String("only", "", "run only these steps (comma-separated: hooks, edit, big, doctor, status, ls), leaving -out alone")
)

func main() {
	flag.Parse()
	if *flagQuick {
		*flagHook, *flagNode, *flagEdit, *flagBig, *flagDoctor, *flagStatus = 6, 3, 3, 1, 2, 2
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "hookbench:", err)
		os.Exit(1)
	}
}

func run() error {
	work, err := os.MkdirTemp("", "hookbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	bin := *flagBin
	if bin == "" {
		bin = filepath.Join(work, "hookinstall")
		fmt.Fprintln(os.Stderr, "hookbench: building ./cmd/hookinstall")
		goCmd := os.Getenv("GO")
		if goCmd == "" {
			goCmd = "go"
		}
		c := exec.Command(goCmd, "build", "-o", bin, "./cmd/hookinstall")
		c.Stdout, c.Stderr = os.Stderr, os.Stderr
		if err := c.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	r := &report{started: time.Now()}
	r.machine()
	steps := []struct {
		key, name string
		fn        func(*report, string, string) error
	}{
		{"hooks", "hooks", benchHooks},
		{"edit", "add+remove vs jq", benchEdit},
		{"big", "large files", benchBig},
		{"doctor", "doctor", benchDoctor},
		{"status", "status, versions kept", benchStatusVersions},
		{"ls", "ls", benchLs},
	}
	for _, s := range steps {
		if *flagOnly != "" && !slices.Contains(strings.Split(*flagOnly, ","), s.key) {
			*flagOut = "" // a part of the figures: the file keeps the whole run's
			continue
		}
		fmt.Fprintf(os.Stderr, "hookbench: %s\n", s.name)
		if err := s.fn(r, bin, work); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	r.elapsed = time.Since(r.started)
	md := r.markdown()
	fmt.Print(md)
	if *flagOut != "" {
		if err := writeSection(*flagOut, md); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "hookbench: wrote %s\n", *flagOut)
	}
	return nil
}

// ---- statistics ------------------------------------------------------------

type samples []time.Duration

func (s samples) sorted() samples {
	c := append(samples(nil), s...)
	sort.Slice(c, func(i, j int) bool { return c[i] < c[j] })
	return c
}

func (s samples) median() time.Duration {
	if len(s) == 0 {
		return 0
	}
	c := s.sorted()
	if n := len(c); n%2 == 1 {
		return c[n/2]
	} else {
		return (c[n/2-1] + c[n/2]) / 2
	}
}

func (s samples) min() time.Duration { return s.sorted()[0] }
func (s samples) max() time.Duration { return s.sorted()[len(s)-1] }

// ms formats a duration in milliseconds with sensible precision.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	switch {
	case f < 10:
		return fmt.Sprintf("%.2f", f)
	case f < 100:
		return fmt.Sprintf("%.1f", f)
	default:
		return fmt.Sprintf("%.0f", f)
	}
}

// cell is "median [min–max]" in ms, with the run count.
func cell(s samples) string {
	if len(s) == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%s [%s–%s] ×%d", ms(s.median()), ms(s.min()), ms(s.max()), len(s))
}

func ratio(a, b samples) float64 {
	if len(a) == 0 || len(b) == 0 || b.median() == 0 {
		return 0
	}
	return float64(a.median()) / float64(b.median())
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// ---- processes -------------------------------------------------------------

// result is one child process: its wall time and peak resident set.
type result struct {
	wall   time.Duration
	cpu    time.Duration // user + system, of the child and what it waited for
	maxRSS int64         // bytes
	code   int
}

// timed runs c and measures it. Stdin, Stdout and Stderr should be *os.File
// (or nil), so no goroutine of ours copies bytes during the measurement.
func timed(c *exec.Cmd) (result, error) {
	start := time.Now()
	err := c.Run()
	r := result{wall: time.Since(start)}
	if c.ProcessState != nil {
		if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
			if runtime.GOOS == "darwin" {
				r.maxRSS = ru.Maxrss // bytes on darwin
			}
		}
		r.code = c.ProcessState.ExitCode()
		r.cpu = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
	}
	if _, isExit := err.(*exec.ExitError); isExit {
		err = nil
	}
	return r, err
}

var devNull *os.File

func init() {
	var err error
	if devNull, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
		panic(err)
	}
}

// ---- machine ---------------------------------------------------------------

type report struct {
	started time.Time
	elapsed time.Duration
	info    []string
	targets [][]string // what, target, measured, met
	tables  []string
	notes   []string
}

func (r *report) machine() {
	cpu := "unknown"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	kernel := version("uname", "-sr") // portable: syscall.Uname is Linux-only
	load := "unknown"
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	sh, _ := filepath.EvalSymlinks("/bin/sh")
	r.info = append(r.info,
		fmt.Sprintf("Machine: %d CPUs (`nproc`), %s, %s, %s/%s; load average at start %s.", runtime.NumCPU(), cpu, kernel, runtime.GOOS, runtime.GOARCH, load),
		fmt.Sprintf("Tools: %s; /bin/sh is %s; node %s; %s.", runtime.Version(), sh, version("node", "--version"), version("jq", "--version")),
	)
}

func version(cmd string, args ...string) string {
	out, err := exec.Command(cmd, args...).Output()
	if err != nil {
		return "not installed"
	}
	return strings.TrimSpace(string(out))
}

func (r *report) target(what, target, measured string, met bool) {
	word := "met"
	if !met {
		word = "**missed**"
	}
	r.targets = append(r.targets, []string{what, target, measured, word})
}

func table(head []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(head, " | ") + " |\n|")
	for range head {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return b.String()
}

func (r *report) markdown() string {
	var b strings.Builder
	b.WriteString("## make bench: figures\n\n")
	fmt.Fprintf(&b, "Generated by `make bench` (`go run ./internal/bench/cmd/hookbench`) on %s, in %s. Do not edit between the bench markers: the next run rewrites it.\n\n",
		r.started.UTC().Format("2006-01-02 15:04 UTC"), r.elapsed.Round(time.Second))
	for _, l := range r.info {
		b.WriteString(l + "\n")
	}
	b.WriteString("\nEach figure is in milliseconds: the median of the runs, [min–max], and ×the number of runs. The things compared in one table ran in the same rounds, interleaved (the order rotates each round), so a burst of load from a neighbour hits them alike; ratios are of medians.\n\n")
	b.WriteString("### Targets\n\n")
	b.WriteString(table([]string{"what", "target", "measured", ""}, r.targets))
	for _, t := range r.tables {
		b.WriteString("\n" + t)
	}
	if len(r.notes) > 0 {
		b.WriteString("\n")
		for _, n := range r.notes {
			b.WriteString("- " + n + "\n")
		}
	}
	return b.String()
}

const (
	beginMarker = "<!-- bench:begin -->"
	endMarker   = "<!-- bench:end -->"
)

// writeSection puts md between the markers of path, creating the file (or
// the markers, at its end) when missing. Everything outside them is kept.
func writeSection(path, md string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	s := string(old)
	if s == "" {
		s = "# Performance\n\n"
	}
	block := beginMarker + "\n" + md + endMarker
	i, j := strings.Index(s, beginMarker), strings.Index(s, endMarker)
	switch {
	case i >= 0 && j > i:
		s = s[:i] + block + s[j+len(endMarker):]
	default:
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		if !strings.HasSuffix(s, "\n\n") {
			s += "\n"
		}
		s += block + "\n"
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// ---- helpers for files -----------------------------------------------------

func writeExec(path string, content []byte) error {
	return os.WriteFile(path, content, 0o755)
}

func readAll(f *os.File) []byte {
	b, _ := io.ReadAll(f)
	return b
}

// rotate returns the indices 0..n-1 starting at round%n.
func rotate(n, round int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = (round + i) % n
	}
	return idx
}

func hasBytes(b, sub []byte) int { return bytes.Count(b, sub) }

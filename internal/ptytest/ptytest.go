// Package ptytest gives tests a real pseudo-terminal to hand to a hook as
// <NS>_PTY, and the exact bytes the hook wrote to it. It is for tests only.
package ptytest

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// sentinel marks the end of what was written before Drain.
const sentinel = "<<ptytest-drain>>"

// A PTY is an open pseudo-terminal. Path is the slave's device path, the one
// a host passes to its agent.
type PTY struct {
	Path   string
	master *os.File
	slave  *os.File

	mu   sync.Mutex
	buf  bytes.Buffer
	more chan struct{}
}

// Open opens a pty for the length of the test.
func Open(t testing.TB) *PTY {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal available: %v", err)
	}
	p := &PTY{Path: s.Name(), master: m, slave: s, more: make(chan struct{}, 1)}
	go p.read()
	t.Cleanup(func() {
		s.Close()
		m.Close()
	})
	return p
}

func (p *PTY) read() {
	b := make([]byte, 4096)
	for {
		n, err := p.master.Read(b)
		if n > 0 {
			p.mu.Lock()
			p.buf.Write(b[:n])
			p.mu.Unlock()
			select {
			case p.more <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// Drain returns every byte written to the pty since the last Drain. It writes
// a marker to the pty itself and reads up to it, so it never depends on a
// timing guess: whatever a finished process wrote comes before the marker.
func (p *PTY) Drain(t testing.TB) []byte {
	t.Helper()
	if _, err := p.slave.Write([]byte(sentinel)); err != nil {
		t.Fatalf("write to pty: %v", err)
	}
	deadline := time.After(10 * time.Second)
	for {
		p.mu.Lock()
		all := p.buf.Bytes()
		if i := bytes.Index(all, []byte(sentinel)); i >= 0 {
			got := append([]byte(nil), all[:i]...)
			rest := append([]byte(nil), all[i+len(sentinel):]...)
			p.buf.Reset()
			p.buf.Write(rest)
			p.mu.Unlock()
			return got
		}
		p.mu.Unlock()
		select {
		case <-p.more:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("pty: marker not read back in 10s; got %q", all)
			return nil
		}
	}
}

// Run runs c as a terminal runs its shell: in a session of its own, the
// pty its standard input, output and error and its controlling terminal.
// It returns what c wrote once c has exited, read up to a marker written
// after that (Drain), never up to the pty's hang-up.
func (p *PTY) Run(t testing.TB, c *exec.Cmd) []byte {
	t.Helper()
	c.Stdin, c.Stdout, c.Stderr = p.slave, p.slave, p.slave
	ctty(c)
	if err := c.Start(); err != nil {
		t.Fatalf("start %v: %v", c.Args, err)
	}
	_ = c.Wait()
	return p.Drain(t)
}

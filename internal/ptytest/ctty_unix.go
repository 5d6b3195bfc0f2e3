//go:build unix

package ptytest

import (
	"os/exec"
	"syscall"
)

// ctty runs c in a session of its own, its standard input its controlling
// terminal.
func ctty(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true} }

// Agent makes c run as a hook of an agent in this terminal: its parent, a
// timeout(1) standing in for the agent, has the pty as its controlling
// terminal, as an agent a user started there has; c's own standard streams
// are left as they are.
func (p *PTY) Agent(c *exec.Cmd) {
	c.Args = append([]string{"timeout", "120", c.Path}, c.Args[1:]...)
	c.Path, c.Err = exec.LookPath("timeout")
	c.ExtraFiles = append(c.ExtraFiles, p.slave)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2 + len(c.ExtraFiles)}
}

// Daemon makes c run as a daemon does: in a session of its own, with no
// controlling terminal.
func Daemon(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

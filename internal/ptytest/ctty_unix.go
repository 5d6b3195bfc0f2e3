//go:build unix

package ptytest

import (
	"os/exec"
	"syscall"
)

// ctty runs c in a session of its own, its standard input its controlling
// terminal.
func ctty(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true} }

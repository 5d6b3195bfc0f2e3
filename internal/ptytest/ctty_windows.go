package ptytest

import "os/exec"

// ctty: Windows has no controlling terminal to give.
func ctty(*exec.Cmd) {}

// Agent and Daemon: Windows has no controlling terminal to give or take.
func (p *PTY) Agent(*exec.Cmd) {}
func Daemon(*exec.Cmd)         {}

//go:build unix

package agentexec

import (
	"os"
	"os/exec"
	"syscall"
)

// group puts cmd in a process group of its own (a session of its own, with
// session), which signalGroup reaches whole.
func group(cmd *exec.Cmd, session bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !session, Setsid: session}
}

// signalGroup sends sig to process group pgid: 0 asks whether any of it is
// left.
func signalGroup(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }

// executable: mode bits say it here.
func executable(fi os.FileInfo) bool { return fi.Mode().Perm()&0o111 != 0 }

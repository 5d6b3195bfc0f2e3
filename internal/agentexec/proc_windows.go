package agentexec

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// group starts cmd in a process group of its own, which signalGroup ends
// whole (taskkill /T).
func group(cmd *exec.Cmd, _ bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup ends the process tree of pgid (any sig but 0), or, for 0,
// says none of it is left: Windows has no group to ask, and the tree's
// end is taskkill's to wait for.
func signalGroup(pgid int, sig syscall.Signal) error {
	if sig == 0 {
		return errors.New("no process group on Windows")
	}
	if exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pgid)).Run() != nil {
		if p, err := os.FindProcess(pgid); err == nil {
			return p.Kill()
		}
	}
	return nil
}

// executable: Windows keeps no mode bits (a name with its .exe is looked up).
func executable(os.FileInfo) bool { return true }

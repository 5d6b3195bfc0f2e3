package scripts

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookinstall/hookinstall/internal/terminal"
)

// ompDriver loads the extension the way oh-my-pi 18.2.3 does (Pi's API: the
// default export is called with the extension API; pi.on registers
// handlers), then fires the events in the order oh-my-pi sent them
// (measured): a prompt with an approval dialog (agent_start,
// tool_approval_requested, agent_end "stop"), an agent_end with
// willContinue true (a retry follows: nothing), and a prompt stopped with
// Esc (agent_end "aborted").
const ompDriver = `
import { readFileSync } from "node:fs";
const src = readFileSync(process.argv[2], "utf8");
const mod = await import("data:text/javascript;base64," + Buffer.from(src).toString("base64"));
console.log("exports " + JSON.stringify(Object.keys(mod)));
const handlers = {};
mod.default({ on: (name, fn) => { (handlers[name] ||= []).push(fn); } });
console.log("events " + JSON.stringify(Object.keys(handlers)));
const fire = async (name, ev) => { for (const h of handlers[name] || []) await h(ev, { hasUI: true }); };
const user = { role: "user", content: [{ type: "text", text: "x" }] };
await fire("agent_start", { type: "agent_start" });
await fire("tool_approval_requested", { type: "tool_approval_requested", toolName: "bash", toolCallId: "c1", approvalMode: "always-ask" });
await fire("tool_approval_resolved", { type: "tool_approval_resolved", toolName: "bash", toolCallId: "c1", approved: true });
await fire("tool_approval_resolved", { type: "tool_approval_resolved", toolName: "bash", toolCallId: "c2", approved: false, reason: "denied by user" });
await fire("agent_end", { type: "agent_end", messages: [user, { role: "assistant", stopReason: "toolUse" }, { role: "toolResult" }, { role: "assistant", stopReason: "stop" }] });
await fire("agent_end", { type: "agent_end", willContinue: true, messages: [user, { role: "assistant", stopReason: "stop" }] });
await fire("agent_start", { type: "agent_start" });
await fire("agent_end", { type: "agent_end", messages: [user, { role: "assistant", stopReason: "aborted", errorMessage: "Interrupted by user" }] });
if (process.argv[3] === "odd") {
  await fire("tool_approval_requested", undefined);
  await fire("tool_approval_resolved", undefined);
  await fire("agent_end", { willContinue: "yes", messages: null });
  await fire("agent_end", undefined);
}
console.log("ok");
`

const ompWantOut = "exports [\"default\"]\nevents [\"agent_start\",\"tool_approval_requested\",\"tool_approval_resolved\",\"agent_end\"]\nok\n"

// TestOmpExtensionWritesExactOSC drives oh-my-pi's extension in node against
// a real pty: working, attention, working (approved), working (denied: the
// model answers), done, (nothing for willContinue), working, interrupted,
// exactly.
func TestOmpExtensionWritesExactOSC(t *testing.T) {
	driveExtension(t, func(ns string) ([]byte, error) { return RenderOmp(Install{NS: ns, Agent: "omp"}) },
		ompDriver, ompWantOut, []terminal.State{terminal.Working, terminal.Attention, terminal.Working, terminal.Working, terminal.Done, terminal.Working, terminal.Interrupted})
}

// TestOmpExtensionIsPisWithData: oh-my-pi's extension is Pi's template with
// oh-my-pi's data: its own header, the attention handler, the willContinue
// rule; every other line of Pi's is there, in order.
func TestOmpExtensionIsPisWithData(t *testing.T) {
	pi, _ := RenderPi(Install{NS: "hookinstall", Agent: "omp"}) // the same remove command
	omp, _ := RenderOmp(Install{NS: "hookinstall", Agent: "omp"})
	if !bytes.HasPrefix(omp, []byte(OmpHeader("hookinstall"))) || OmpHeader("hookinstall") == PiHeader("hookinstall") {
		t.Fatalf("header: %q", strings.SplitN(string(omp), "\n", 2)[0])
	}
	if bytes.Contains(pi, []byte("tool_approval_requested")) || bytes.Contains(pi, []byte("willContinue")) {
		t.Error("Pi's extension holds oh-my-pi's data")
	}
	for _, s := range []string{`pi.on("tool_approval_requested"`, `emit("attention")`, "event.willContinue", "agent needs your input"} {
		if !bytes.Contains(omp, []byte(s)) {
			t.Errorf("oh-my-pi's extension lacks %q", s)
		}
	}
	// Pi's lines, oh-my-pi's name for Pi's, all appear in oh-my-pi's in order.
	ol := strings.Split(string(omp), "\n")
	i := 0
	for _, l := range strings.Split(strings.ReplaceAll(string(pi), "for Pi ", "for oh-my-pi "), "\n") {
		l = strings.ReplaceAll(l, "as Pi does", "as oh-my-pi does")
		l = strings.ReplaceAll(l, ": Pi marks", ": oh-my-pi marks")
		l = strings.ReplaceAll(l, "function, Pi's default", "function, oh-my-pi's default")
		if strings.TrimSpace(l) == "emit(ended(event));" {
			continue // oh-my-pi's: const state = ended(event); if (state) emit(state);
		}
		if strings.HasPrefix(l, "    [[") || strings.HasPrefix(l, "  \"") || strings.HasPrefix(l, "const OWN_PROGRESS") {
			continue // the terminal table and its sequences: data, naming the agent, and its own facts
		}
		for i < len(ol) && ol[i] != l {
			i++
		}
		if i == len(ol) {
			t.Fatalf("Pi's line %q is not in oh-my-pi's extension (in order)", l)
		}
	}
}

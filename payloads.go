package hookinstall

import "github.com/hookinstall/hookinstall/adapters"

// Payloads returns the hook payloads recorded for agent (one of AgentNames,
// or another spelling AgentName knows), for a host's own tests: what the
// agent gives a hook on stdin (for a plugin or extension agent, what it
// passes to the module's handlers), keyed by the event's name ("Stop"), or
// event.variant for a further payload of one event ("Stop.background"), as
// the files of adapters/payloads are named (its README.md says where each
// comes from: most were recorded from the agent's binary, a few built from
// its documentation). An agent that runs another agent's engine gets that
// agent's payloads. Every call returns fresh copies; nil for an agent
// hookinstall does not know.
func Payloads(agent string) map[string][]byte {
	name, ok := AgentName(agent)
	if !ok {
		return nil
	}
	a, ok := adapters.Lookup(name)
	if !ok {
		return nil
	}
	return adapters.Payloads(a.Payloads)
}

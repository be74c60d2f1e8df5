package hostcore

import (
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// toolInput is what the policy knows of a call before its arguments and
// path are looked at: enough for the contract modes' deny. An unknown tool
// has no class, which the contract modes deny.
func toolInput(name string, tool tools.Tool, known bool, operatingMode string) permission.Input {
	if !known {
		return permission.Input{Tool: clip(name), OperatingMode: operatingMode}
	}
	s := tool.Spec()
	return specInput(s, operatingMode)
}

// specInput is what the policy knows of a registered tool in a mode.
func specInput(s tools.Spec, operatingMode string) permission.Input {
	return permission.Input{Tool: s.Name, Class: s.Class, Risk: s.Risk, OperatingMode: operatingMode,
		PlanSafe: len(s.PlanSafeActions) > 0, Modes: s.Modes}
}

// lexicalRoot is the root the target's spelling names. A temporary
// session's workspace is its scratch folder, so there a workspace spelling
// names scratch.
func lexicalRoot(r pathguard.Resolved, temporary bool) pathguard.Root {
	if temporary && r.Lexical == pathguard.Workspace && r.Root == pathguard.Scratch {
		return pathguard.Scratch
	}
	return r.Lexical
}

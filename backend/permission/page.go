package permission

import "github.com/pi-desktop/pi-desktop/backend/api"

// PageGrant is the key an allow-session answer to an unwritten-page card
// installs (BrowserPreview): every page of the workspace for the rest of
// the session, and nothing else.
const PageGrant = "BrowserPreview\x00unwritten-page"

// pageReason is the line an unwritten-page card shows.
const pageReason = "opens a page this session did not write: the repository's own scripts run in the preview pane (read-only, kept to its preview server)"

// unwrittenPage decides a preview of a workspace page this session did not
// write: its scripts are the repository's, not the agent's, so the user
// says yes once (or for the session) unless they chose automatic
// approvals, as for a path outside the workspace. Plan and Goal ask the
// same way; the card is answered like any other there.
func unwrittenPage(in Input) (Verdict, bool) {
	if !in.UnwrittenPage {
		return Verdict{}, false
	}
	sessionAuto := in.SessionMode == "" || in.SessionMode == api.PermissionAuto
	if in.PageGranted || (in.PermissionMode == api.PermissionAuto && sessionAuto) {
		return Verdict{Decision: Allow}, true
	}
	return Verdict{Decision: Ask, Reason: pageReason, Grant: PageGrant}, true
}

package api

// EventOpenRequested: a later start of the app (a second launch, a file
// manager opening a .piplug) handed this one something to open. No
// payload: the window reads Shell.PendingOpens.
const EventOpenRequested = "app:open"

// Kinds of OpenRequest.
const (
	OpenFolder  = "folder"  // open the folder as a project
	OpenPlugin  = "plugin"  // start installing the .piplug (consent first)
	OpenSession = "session" // show the session (--session ID)
	OpenRefused = "refused" // an argument that names none of these
)

// OpenRequest is one thing the window was asked to open.
type OpenRequest struct {
	Kind string `json:"kind"`
	// Path is absolute with links resolved (folder, plugin), or the
	// argument as given (refused).
	Path    string   `json:"path,omitempty"`
	Session *Session `json:"session,omitempty"`
	// Message says why a request was refused, with the next step.
	Message string `json:"message,omitempty"`
}

package api

// Artifact is a workspace file a session's Write or Edit left (spec §4b):
// the Files pane lists these first.
type Artifact struct {
	// Path is workspace-relative with '/' separators.
	Path           string `json:"path"`
	FirstMessageID string `json:"firstMessageId"`
	LastMessageID  string `json:"lastMessageId"`
	UpdatedAt      int64  `json:"updatedAt"` // Unix milliseconds
	// Exists: the path is still a regular file of the workspace.
	Exists bool `json:"exists"`
}

// FolderEntry is one visible entry of a workspace folder.
type FolderEntry struct {
	Name string `json:"name"`
	// Path is workspace-relative with '/' separators.
	Path string `json:"path"`
	Dir  bool   `json:"dir"`
}

// FolderListing is one level of the workspace tree, with Glob's visibility
// rules (ignore files, no hidden entries, no links).
type FolderListing struct {
	Path      string        `json:"path"` // "" for the workspace itself
	Entries   []FolderEntry `json:"entries"`
	Truncated bool          `json:"truncated"` // the folder has more entries than listed
}

// FileView is a workspace file as the read-only viewer shows it. Text is
// empty when the file is binary or too large; Note then says so.
type FileView struct {
	Path     string `json:"path"`
	Size     int64  `json:"size"`
	Stamp    string `json:"stamp"` // changes when the file does (FileStamp)
	Text     string `json:"text"`
	Binary   bool   `json:"binary"`
	TooLarge bool   `json:"tooLarge"`
	Note     string `json:"note"`
}

// FileStamp is what the viewer polls to know the file changed.
type FileStamp struct {
	Exists bool   `json:"exists"`
	Stamp  string `json:"stamp"`
}

package api

// SearchHit is a message or tool call of a past session that matched a
// search, newest first; choosing it opens SessionID at MessageID.
type SearchHit struct {
	Kind         string          `json:"kind"` // message | tool_call
	SessionID    string          `json:"sessionId"`
	SessionTitle string          `json:"sessionTitle"`
	ProjectID    string          `json:"projectId,omitempty"`
	MessageID    string          `json:"messageId"`
	CreatedAt    int64           `json:"createdAt"` // unix ms
	Snippet      []SearchSegment `json:"snippet"`
}

// SearchSegment is a piece of a hit's snippet; Match marks matched text.
type SearchSegment struct {
	Text  string `json:"text"`
	Match bool   `json:"match,omitempty"`
}

// ExportResult says where an export was written; Path is "" when the user
// cancelled the save dialog.
type ExportResult struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
}

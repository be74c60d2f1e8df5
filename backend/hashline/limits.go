package hashline

// Limits bounds one session's snapshot store (contract §2). The store is
// in memory and per session, so the bounds are what keep a long session
// from holding every version of every file it ever touched.
type Limits struct {
	Paths     int // paths retained, least recently used evicted first
	Versions  int // versions per path, newest kept
	TextBytes int // canonical text retained for drift recovery
	Registers int // named registers
}

// DefaultLimits returns the contract's bounds: 64 paths, 4 versions per path,
// 8 MiB of text and 16 named registers per session.
func DefaultLimits() Limits {
	return Limits{Paths: 64, Versions: 4, TextBytes: 8 << 20, Registers: 16}
}

// Per-call limits (contract §8). Exceeding one fails with EDIT_LIMIT before
// any work proportional to the input is done.
const (
	MaxOpsBytes        = 256 << 10 // size of the ops argument
	MaxOps             = 200       // ops per call
	MaxExpandedLines   = 100_000   // body rows plus pasted register lines
	MaxRegisterLines   = 4096      // lines one capture may hold
	MaxRegisterBytes   = 1 << 20   // bytes one capture may hold
	MaxBlockParseBytes = 4 << 20   // largest text handed to a block parser
	// MaxRetainedText is the largest canonical text kept for recovery;
	// larger versions keep digest and Seen only.
	MaxRetainedText = 2 << 20
)

// opsLimits carries the per-call limits so tests can shrink them.
type opsLimits struct {
	opsBytes, ops, expandedLines, regLines, regBytes, blockParse int
}

func defaultOpsLimits() opsLimits {
	return opsLimits{MaxOpsBytes, MaxOps, MaxExpandedLines, MaxRegisterLines, MaxRegisterBytes, MaxBlockParseBytes}
}

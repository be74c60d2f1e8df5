// Package bash holds the pure, process-free parts of the Bash tool: the
// timeout rule, bounded per-stream output capture with a spill file, the
// truncation marker, and the model-facing result text.
//
// Nothing here starts a process. The process layer (platform/proc) copies a
// command's pipes into the io.Writer sinks this package provides; the tool
// (backend/tools) turns the captured Outputs into its result.
//
// Numbers come from design/decisions.md, table "Tool result limits":
// stdout keeps its head and stderr its tail, 96 KB / 4,000 lines each for the
// model, 512 KB per stream in memory, and a 512 KB spill file created on the
// first overflow.
package bash

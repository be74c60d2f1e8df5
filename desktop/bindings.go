//go:build !bindings

package desktop

// BindingsBuild is true only in the binary that regenerates frontend/wailsjs
// (make bindings): it must not touch a data directory.
const BindingsBuild = false

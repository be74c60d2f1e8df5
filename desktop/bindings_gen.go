//go:build bindings

package desktop

// BindingsBuild is true in the binary that regenerates frontend/wailsjs.
const BindingsBuild = true

//go:build bindings

package main

// bindingsBuild is true in the binary that regenerates frontend/wailsjs.
const bindingsBuild = true

//go:build !dev

package desktop

import "github.com/wailsapp/wails/v2/pkg/options/assetserver"

// assetMiddleware: the native window is the frontend of a desktop build
// (nativewindow_dev.go has the e2e-only placeholder).
func assetMiddleware() assetserver.Middleware { return nil }

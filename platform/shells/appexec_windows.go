package shells

import "golang.org/x/sys/windows"

// ioReparseTagAppExecLink is IO_REPARSE_TAG_APPEXECLINK.
const ioReparseTagAppExecLink = 0x8000001B

// isAppExecLink reports whether path is an app-execution alias (a Microsoft
// Store / MSIX alias under WindowsApps). FindFirstFile reports the reparse
// tag without following the link, which os.Stat cannot do for this tag.
func isAppExecLink(path string) bool {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return false
	}
	var fd windows.Win32finddata
	h, err := windows.FindFirstFile(p, &fd)
	if err != nil {
		return false
	}
	_ = windows.FindClose(h)
	return fd.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 && fd.Reserved0 == ioReparseTagAppExecLink
}

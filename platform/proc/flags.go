package proc

// Windows process-creation flags, kept here so the decision is testable on
// every OS (values from winbase.h).
const (
	createNewProcessGroup  = 0x00000200
	createBreakawayFromJob = 0x01000000
	createNoWindow         = 0x08000000
)

// jobLimitBreakawayOK is JOB_OBJECT_LIMIT_BREAKAWAY_OK.
const jobLimitBreakawayOK = 0x00000800

// runnerCreationFlags decides how the Windows runner is created. hostInJob
// and hostLimits describe the job that contains the host, if any. Breakaway
// is requested only when that job grants JOB_OBJECT_LIMIT_BREAKAWAY_OK:
// CreateProcess fails with ERROR_ACCESS_DENIED otherwise, and the runner's
// own job then nests inside the host's.
func runnerCreationFlags(hostInJob bool, hostLimits uint32) uint32 {
	flags := uint32(createNoWindow | createNewProcessGroup)
	if hostInJob && hostLimits&jobLimitBreakawayOK != 0 {
		flags |= createBreakawayFromJob
	}
	return flags
}

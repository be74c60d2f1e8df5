package proc

import "testing"

func TestCgroupDir(t *testing.T) {
	const unified = "29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	const hybrid = "30 23 0:27 / /sys/fs/cgroup ro shared:5 - tmpfs tmpfs ro,mode=755\n" +
		"31 30 0:28 / /sys/fs/cgroup/unified rw,relatime shared:6 - cgroup2 cgroup2 rw\n" +
		"32 30 0:29 / /sys/fs/cgroup/memory rw shared:7 - cgroup cgroup rw,memory\n"
	for _, tc := range []struct {
		name, cgroup, mountinfo, want string
		fails                         bool
	}{
		{"systemd user app scope", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-x.scope\n", unified,
			"/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/app-x.scope", false},
		{"hybrid: v2 under unified", "4:memory:/x\n0::/\n", hybrid, "/sys/fs/cgroup/unified", false},
		{"container namespace root", "0::/\n", unified, "/sys/fs/cgroup", false},
		{"bind-mounted subtree", "0::/a/b/c\n", "40 1 0:26 /a/b /mnt/cg\\040x rw - cgroup2 cgroup2 rw\n", "/mnt/cg x/c", false},
		{"mount of another subtree", "0::/a/c\n", "40 1 0:26 /a/b /mnt/cg rw - cgroup2 cgroup2 rw\n", "", true},
		{"prefix twin is not the subtree", "0::/a/bb\n", "40 1 0:26 /a/b /mnt/cg rw - cgroup2 cgroup2 rw\n", "", true},
		{"v1 only", "4:memory:/x\n1:name=systemd:/x\n", hybrid, "", true},
		{"no cgroup2 mount", "0::/x\n", "30 23 0:27 / /sys/fs/cgroup ro - tmpfs tmpfs ro\n", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cgroupDir(tc.cgroup, tc.mountinfo)
			if (err != nil) != tc.fails || got != tc.want {
				t.Errorf("cgroupDir = %q, %v; want %q (fails %v)", got, err, tc.want, tc.fails)
			}
		})
	}
}

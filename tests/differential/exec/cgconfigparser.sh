# Differential, run under cgx-exec (vm-differential-exec).
# cgconfigparser (Debian's cgroup-tools, libcgroup 2.0.2) applies a
# cgconfig.conf: groups in two hierarchies, values, and perm{} owners and
# modes, which it sets with chown and chmod on the group's files.
command -v cgconfigparser >/dev/null || { echo "cgconfigparser missing"; exit 1; }
st() { echo "$1 status $2"; }

echo "-- cgconfigparser"
cat >/tmp/cgconfig.conf <<'EOF'
group tools {
	cpu {
		cpu.shares = 256;
	}
	memory {
	}
}
group tools/db {
	perm {
		task {
			uid = daemon;
			gid = daemon;
			fperm = 660;
		}
		admin {
			uid = nobody;
			gid = nogroup;
			dperm = 775;
			fperm = 640;
		}
	}
	cpu {
		cpu.shares = 128;
		cpu.cfs_quota_us = 50000;
	}
	memory {
		memory.limit_in_bytes = 128M;
		memory.swappiness = 10;
	}
}
EOF
cgconfigparser -l /tmp/cgconfig.conf; st cgconfigparser $?
cgget -r cpu.shares -r cpu.cfs_quota_us tools/db
cgget -r memory.limit_in_bytes -r memory.swappiness tools/db
cgget -n -v -r cpu.shares tools
cd /sys/fs/cgroup || exit 1
for f in cpu,cpuacct/tools cpu,cpuacct/tools/db cpu,cpuacct/tools/db/tasks \
  cpu,cpuacct/tools/db/cgroup.procs cpu,cpuacct/tools/db/cpu.shares \
  cpu,cpuacct/tools/db/notify_on_release memory/tools/db memory/tools/db/tasks \
  memory/tools/db/memory.limit_in_bytes; do
  stat -c '%A %U %G %n' "$f"
done
lscgroup | grep tools
echo "-- cgdelete -r"
cgdelete -r -g cpu,memory:/tools; st "cgdelete -r" $?
ls -d cpu,cpuacct/tools memory/tools 2>&1 | sed 's/^ls: //'
cgdelete -r -g memory:/tools 2>/dev/null
ls -d memory/tools 2>&1 | sed 's/^ls: //'

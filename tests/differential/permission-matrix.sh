# Differential: who may read and write each kind of file, one line per case,
# as a v1 kernel answers (actors: tests/differential/permissions.bash).
. "${0%/*}/permissions.bash"
echo "## files of a delegated (d) and a root-owned (u) group"
cases=
for h in cpu,cpuacct memory; do
	for g in d u; do
		for f in tasks cgroup.procs notify_on_release cgroup.clone_children ${knob[$h]}; do
			case $f in tasks | cgroup.procs | notify_on_release | cgroup.clone_children) v=0 ;; *) v=${val[$h]} ;; esac
			cases+="rd \$who $h/$g/$f; wr \$who $h/$g/$f $v; "
		done
	done
done
for h in pids freezer; do
	for g in d u; do
		cases+="rd \$who $h/$g/${knob[$h]}; wr \$who $h/$g/${knob[$h]} ${val[$h]}; "
	done
done
for who in root A B; do batch $who "$cases"; done

echo "## root-only files"
h=cpu,cpuacct
for who in root A B nocap; do
	batch $who "rd \$who $h/release_agent; wr \$who $h/release_agent ''; rd \$who $h/cgroup.sane_behavior
		wr \$who $h/cgroup.sane_behavior 1; rd \$who $h/notify_on_release; wr \$who $h/notify_on_release 0
		wr \$who $h/tasks 0"
done
echo "release_agent in a child: $(ls $h/d/release_agent 2>&1 | err) | sane_behavior in a child: $(ls $h/d/cgroup.sane_behavior 2>&1 | err)"
case_ root write $h/d/release_agent "echo /bin/true > $h/d/release_agent"
case_ A write $h/d/release_agent "echo /bin/true > $h/d/release_agent"
echo "release_agent now: [$(cat $h/release_agent)]"
echo "## release_agent asks CAP_SYS_ADMIN of the file's opener (file_ns_capable), not of its writer"
exec 5>$h/release_agent
echo "opened by root, written by nocap: $(as nocap 'echo /bin/agent >&5')"
exec 5>&-
echo "release_agent now: [$(cat $h/release_agent)]"
echo "opened and written by nocap: $(as nocap "exec 5>$h/release_agent && echo /bin/other >&5")"
echo "release_agent now: [$(cat $h/release_agent)]"
echo >$h/release_agent

cleanup

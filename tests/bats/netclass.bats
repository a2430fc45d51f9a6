#!/usr/bin/env bats
# net_cls.classid and net_prio.ifpriomap with real packets: senders in v1
# groups send UDP over the loopback device of a network namespace of the
# test's own, whose HTB and PRIO classes count what reaches them. cgxfs's
# egress program (enforcer/bpf_netclass.c) on each leaf gives the packets
# their priority; HTB and PRIO take a priority naming one of their classes.

load ../lib/helpers
source "$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash"

setup() {
	common_setup
	NC=$MNT/net_cls,net_prio
	# The namespace lives as long as this process; teardown kills it.
	unshare -n sleep 1000 </dev/null >/dev/null 2>&1 &
	NETNS_PID=$!
	SLEEPERS="${SLEEPERS:-} $NETNS_PID"
	for _ in $(seq 50); do
		[ "$(readlink /proc/$NETNS_PID/ns/net)" != "$(readlink /proc/self/ns/net)" ] && break
		sleep 0.05
	done
	in_netns ip link set lo up
}

teardown() {
	common_teardown
}

# Runs a command (a function of this file's or of netclass-traffic.bash) in the test's namespace.
in_netns() {
	nsenter -t "$NETNS_PID" -n "$@"
}

# Sends $3 datagrams from a new process of group $1 (below net_cls,net_prio), with SO_PRIORITY $4.
send_from() {
	nsenter -t "$NETNS_PID" -n bash -c 'echo $$ >"$1/tasks" || exit 99; source "$2"; netclass_send 127.0.0.1 "$3" "$4"' \
		_ "$NC/$1" "$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash" "$2" "${3:-}"
}

# "PACKETS BYTES" for N datagrams.
sent() {
	echo "$1 $(($1 * NETCLASS_WIRE))"
}

htb() {
	in_netns bash -c "source '$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash'; netclass_htb_setup lo"
}

class() {
	in_netns bash -c "source '$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash'; netclass_class lo $1"
}

@test "each group's packets go to the HTB class its classid names, and only those" {
	htb
	mkdir "$NC/a" "$NC/b" "$NC/none"
	echo 0x100001 >"$NC/a/net_cls.classid"
	echo 0x100002 >"$NC/b/net_cls.classid"
	send_from a 10
	send_from b 7
	send_from none 5
	[ "$(class 10:1)" = "$(sent 10)" ]
	[ "$(class 10:2)" = "$(sent 7)" ]
}

@test "a new classid takes effect for the packets sent after it" {
	htb
	mkdir "$NC/a"
	echo 0x100001 >"$NC/a/net_cls.classid"
	send_from a 4
	echo 0x100002 >"$NC/a/net_cls.classid"
	send_from a 6
	[ "$(class 10:1)" = "$(sent 4)" ]
	[ "$(class 10:2)" = "$(sent 6)" ]
	# Back to 0: no class, the packets go past both.
	echo 0 >"$NC/a/net_cls.classid"
	send_from a 3
	[ "$(class 10:1)" = "$(sent 4)" ]
	[ "$(class 10:2)" = "$(sent 6)" ]
}

@test "a process that moves takes its traffic to the new group's class" {
	htb
	mkdir "$NC/a" "$NC/b"
	echo 0x100001 >"$NC/a/net_cls.classid"
	echo 0x100002 >"$NC/b/net_cls.classid"
	in_netns bash -c 'source "$3"
		echo $$ >"$1/tasks" && netclass_send 127.0.0.1 3 &&
		echo $$ >"$2/tasks" && netclass_send 127.0.0.1 8' \
		_ "$NC/a" "$NC/b" "$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash"
	[ "$(class 10:1)" = "$(sent 3)" ]
	[ "$(class 10:2)" = "$(sent 8)" ]
}

@test "a child group takes its parent's classid when made, and keeps it" {
	htb
	mkdir "$NC/a"
	echo 0x100001 >"$NC/a/net_cls.classid"
	mkdir "$NC/a/child"
	[ "$(cat "$NC/a/child/net_cls.classid")" = 1048577 ]
	# As in v1, a later write to the parent leaves the child's copy alone.
	echo 0x100002 >"$NC/a/net_cls.classid"
	send_from a/child 5
	[ "$(class 10:1)" = "$(sent 5)" ]
}

@test "SO_PRIORITY set by the program wins over the classid, as in v1" {
	htb
	mkdir "$NC/a"
	echo 0x100001 >"$NC/a/net_cls.classid"
	send_from a 4 $((0x100002))
	[ "$(class 10:1)" = "0 0" ]
	[ "$(class 10:2)" = "$(sent 4)" ]
}

# This host's kernel has no PRIO qdisc (the guests' test has, tests/differential/net-traffic.sh):
# priorities that name HTB classes show the device's entry taking effect.
@test "ifpriomap gives a priority per device, and it wins over the classid" {
	htb
	mkdir "$NC/p" "$NC/q" "$NC/none"
	echo "lo $((0x100001))" >"$NC/p/net_prio.ifpriomap"
	echo "lo $((0x100002))" >"$NC/q/net_prio.ifpriomap"
	echo 0x100001 >"$NC/q/net_cls.classid"
	send_from p 3
	send_from q 4
	send_from none 2
	[ "$(class 10:1)" = "$(sent 3)" ]
	[ "$(class 10:2)" = "$(sent 4)" ]
	# The entry removed: back to the classid.
	echo "lo 0" >"$NC/q/net_prio.ifpriomap"
	send_from q 2
	[ "$(class 10:1)" = "$(sent 5)" ]
	[ "$(class 10:2)" = "$(sent 4)" ]
}

# The cgroup2 directory of process $1.
leaf_of() {
	echo "$CG2$(sed -n 's/^0:://p' "/proc/$1/cgroup")"
}

# How many egress programs of ours the cgroup2 directory $1 has.
programs_on() {
	bpftool cgroup show "$1" | grep -c "egress.*cgx_netclass" || true
}

# A sleeper ($pid) in group a with classid 10:1; its leaf in $leaf, with our program.
classified_sleeper() {
	mkdir "$NC/a"
	echo 0x100001 >"$NC/a/net_cls.classid"
	spawn_sleeper
	echo "$pid" >"$NC/a/tasks"
	leaf=$(leaf_of "$pid")
	[ "$(programs_on "$leaf")" = 1 ]
}

@test "the programs outlive a kill -9 of the daemon, and a restarted daemon updates them" {
	htb
	classified_sleeper
	kill_daemon_hard
	# No daemon: the leaf's program classifies on its own.
	in_netns bash -c 'echo $$ >"$1/cgroup.procs" && source "$2" && netclass_send 127.0.0.1 2' \
		_ "$leaf" "$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash"
	[ "$(class 10:1)" = "$(sent 2)" ]
	start_cgxfs
	[ "$(cat "$NC/a/net_cls.classid")" = 1048577 ]
	echo 0x100002 >"$NC/a/net_cls.classid"
	send_from a 3
	[ "$(class 10:2)" = "$(sent 3)" ]
	# Still one program on the leaf: the earlier daemon's, its map rewritten.
	[ "$(programs_on "$leaf")" = 1 ]
}

@test "a leaf whose group loses its classid, or that stops being a leaf, keeps no program" {
	classified_sleeper
	echo 0 >"$NC/a/net_cls.classid"
	[ "$(programs_on "$leaf")" = 0 ]
	echo 0x100001 >"$NC/a/net_cls.classid"
	[ "$(programs_on "$leaf")" = 1 ]
	# A child group: the processes move down to @tasks, which takes the program.
	mkdir "$NC/a/sub"
	[ "$(leaf_of "$pid")" = "$leaf/@tasks" ]
	[ "$(programs_on "$leaf")" = 0 ]
	[ "$(programs_on "$leaf/@tasks")" = 1 ]
	leaf=$leaf/@tasks
	# The process goes back to the root: the group's directory holds nothing, and no program.
	echo "$pid" >"$NC/tasks"
	if [ -d "$leaf" ]; then [ "$(programs_on "$leaf")" = 0 ]; fi
}

@test "bad classid and ifpriomap writes are refused as v1 refuses them and change nothing" {
	mkdir "$NC/a"
	echo 0x100001 >"$NC/a/net_cls.classid"
	[ "$(write_result "$NC/a/net_cls.classid" abc)" = "Invalid argument" ]
	[ "$(write_result "$NC/a/net_prio.ifpriomap" "nosuchdev 5")" = "No such device" ]
	[ "$(write_result "$NC/a/net_prio.ifpriomap" "lo")" = "Invalid argument" ]
	[ "$(cat "$NC/a/net_cls.classid")" = 1048577 ]
	[ "$(grep -c . <(grep -v ' 0$' "$NC/a/net_prio.ifpriomap"))" = 0 ]
}

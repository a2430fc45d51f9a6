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

@test "a leaf whose group loses its classid keeps no program; one that stops being a leaf keeps it for its sockets" {
	classified_sleeper
	echo 0 >"$NC/a/net_cls.classid"
	[ "$(programs_on "$leaf")" = 0 ]
	echo 0x100001 >"$NC/a/net_cls.classid"
	[ "$(programs_on "$leaf")" = 1 ]
	# A child group: the processes move down to @tasks, which takes the program. The
	# group's own directory keeps its own, which classifies only the sockets made in it
	# (sub, below it, has neither).
	mkdir "$NC/a/sub"
	[ "$(leaf_of "$pid")" = "$leaf/@tasks" ]
	[ "$(programs_on "$leaf")" = 1 ]
	[ "$(programs_on "$leaf/@tasks")" = 1 ]
	[ "$(programs_on "$leaf/sub")" = 0 ]
	# Its value back to 0: every leaf of the group drops its program, and so does its
	# directory, whose sockets are its tasks'.
	echo 0 >"$NC/a/net_cls.classid"
	[ "$(programs_on "$leaf/@tasks")" = 0 ]
	[ "$(programs_on "$leaf")" = 0 ]
}

# A sender with one socket kept open, in group $1 (below net_cls,net_prio): its pid in
# $sender; `poke N` makes it send N datagrams on that socket.
start_socket_sender() {
	mkfifo "$BATS_TEST_TMPDIR/poke"
	exec 7<>"$BATS_TEST_TMPDIR/poke"
	nsenter -t "$NETNS_PID" -n bash -c 'echo $$ >"$1/tasks" || exit 99; source "$2"; netclass_socket_sender 127.0.0.1 "$3"' \
		_ "$NC/$1" "$BATS_TEST_DIRNAME/../lib/netclass-traffic.bash" "$BATS_TEST_TMPDIR/poke" </dev/null >/dev/null 2>&1 &
	sender=$!
	SLEEPERS="${SLEEPERS:-} $sender"
	for _ in $(seq 50); do
		[ "$(leaf_of "$sender")" != "$(leaf_of $$)" ] && break
		sleep 0.05
	done
}

poke() {
	local i
	for ((i = 0; i < $1; i++)); do echo >&7; done
}

# Waits until class $1 has sent $2 packets (a poked sender sends when it gets to it).
wait_packets() {
	local i
	for i in $(seq 100); do
		[ "$(class "$1" | cut -d' ' -f1)" -ge "$2" ] && break
		sleep 0.05
	done
	class "$1"
}

@test "a socket keeps its class when its group gets a child and its processes move down" {
	htb
	mkdir "$NC/g"
	echo 0x100001 >"$NC/g/net_cls.classid"
	start_socket_sender g
	poke 2
	[ "$(wait_packets 10:1 2)" = "$(sent 2)" ]
	# v1: a group's new child changes nothing for its tasks.
	mkdir "$NC/g/child"
	[ "$(leaf_of "$sender")" = "$CG2/$BASE/g/@tasks" ]
	poke 3
	[ "$(wait_packets 10:1 5)" = "$(sent 5)" ]
	# The group's new classid reaches that socket too, as v1 retags its tasks' sockets.
	echo 0x100002 >"$NC/g/net_cls.classid"
	poke 4
	[ "$(wait_packets 10:2 4)" = "$(sent 4)" ]
}

@test "a move in another hierarchy leaves the class of open sockets alone" {
	htb
	mkdir "$NC/g" "$MNT/memory/m"
	echo 0x100001 >"$NC/g/net_cls.classid"
	start_socket_sender g
	poke 1
	[ "$(wait_packets 10:1 1)" = "$(sent 1)" ]
	echo "$sender" >"$MNT/memory/m/tasks"
	poke 2
	[ "$(wait_packets 10:1 3)" = "$(sent 3)" ]
	# Still g's task: g's new classid reaches that socket, as v1 retags it.
	echo 0x100002 >"$NC/g/net_cls.classid"
	poke 4
	[ "$(wait_packets 10:2 4)" = "$(sent 4)" ]
	[ "$(class 10:1)" = "$(sent 3)" ]
	# An ifpriomap written now reaches it too.
	echo "lo $((0x100001))" >"$NC/g/net_prio.ifpriomap"
	poke 1
	[ "$(wait_packets 10:1 4)" = "$(sent 4)" ]
	# And 0 everywhere: the directory it was made in keeps no program.
	echo 0 >"$NC/g/net_cls.classid"
	echo "lo 0" >"$NC/g/net_prio.ifpriomap"
	[ "$(programs_on "$CG2/$BASE/g")" = 0 ]
}

@test "an open socket keeps its class when its process moves to another net_cls group" {
	htb
	mkdir "$NC/a" "$NC/b"
	echo 0x100001 >"$NC/a/net_cls.classid"
	echo 0x100002 >"$NC/b/net_cls.classid"
	start_socket_sender a
	poke 1
	[ "$(wait_packets 10:1 1)" = "$(sent 1)" ]
	echo "$sender" >"$NC/b/tasks"
	# Kernel v1 retags the open sockets of a moved task; cgroup2 keeps a
	# socket in the cgroup that made it (docs/mapping.md): the old class.
	poke 2
	[ "$(wait_packets 10:1 3)" = "$(sent 3)" ]
	# Its new sockets take the new group's.
	send_from b 3
	[ "$(class 10:2)" = "$(sent 3)" ]
}

@test "a classid written without CAP_NET_ADMIN reads back and is inherited, but classifies nothing" {
	htb
	test_user_make
	test_user_ids
	mkdir "$NC/deleg"
	chown -R "$TEST_UID" "$NC/deleg"
	[ "$(user_write_result "$NC/deleg/net_cls.classid" 0x100002)" = ok ]
	[ "$(cat "$NC/deleg/net_cls.classid")" = 1048578 ]
	as_user mkdir "$NC/deleg/sub"
	[ "$(cat "$NC/deleg/sub/net_cls.classid")" = 1048578 ]
	# A rename rebuilds the group's directory: the mark goes with the value.
	mv "$NC/deleg/sub" "$NC/deleg/renamed"
	[ "$(cat "$NC/deleg/renamed/net_cls.classid")" = 1048578 ]
	send_from deleg 3
	send_from deleg/renamed 2
	[ "$(class 10:2)" = "0 0" ]
	# The same value written by root takes effect.
	echo 0x100002 >"$NC/deleg/net_cls.classid"
	send_from deleg 4
	[ "$(class 10:2)" = "$(sent 4)" ]
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

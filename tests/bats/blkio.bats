#!/usr/bin/env bats
# blkio throttle files on the host: parsing and device checks as blk-throttle,
# io.max when the base has the io controller, a loud EOPNOTSUPP when not.

load ../lib/helpers

setup() {
	common_setup
	mkdir "$MNT/blkio/b"
	DISK=$(lsblk -dno MAJ:MIN | head -n1 | tr -d ' ')
}

teardown() {
	common_teardown
}

@test "blkio files have the kernel's modes and empty defaults" {
	[ "$(stat -c %a "$MNT/blkio/b/blkio.throttle.read_bps_device")" = 644 ]
	[ "$(stat -c %a "$MNT/blkio/b/blkio.reset_stats")" = 200 ]
	[ -z "$(cat "$MNT/blkio/b/blkio.throttle.read_bps_device")" ]
	[ "$(cat "$MNT/blkio/b/blkio.throttle.io_service_bytes")" = "Total 0" ]
	[ "$(write_result "$MNT/blkio/b/blkio.reset_stats" 1)" = ok ]
}

@test "throttle writes: EINVAL for bad syntax, ENODEV for no such disk or a partition" {
	[ "$(write_result "$MNT/blkio/b/blkio.throttle.read_bps_device" bad)" = "Invalid argument" ]
	[ "$(write_result "$MNT/blkio/b/blkio.throttle.read_bps_device" "4095:4095 100")" = "No such device" ]
	part=$(lsblk -nro MAJ:MIN,TYPE | awk '$2 == "part" {print $1; exit}')
	if [ -n "$part" ]; then
		[ "$(write_result "$MNT/blkio/b/blkio.throttle.read_bps_device" "$part 100")" = "No such device" ]
	fi
	[ -z "$(cat "$MNT/blkio/b/blkio.throttle.read_bps_device")" ]
}

@test "a limit on a real disk reaches io.max, or fails loudly without the io controller" {
	[ -n "$DISK" ] || skip "no block device"
	if grep -qw io "$CG2/$BASE/cgroup.controllers"; then
		[ "$(write_result "$MNT/blkio/b/blkio.throttle.write_bps_device" "$DISK 1048576")" = ok ]
		[ "$(cat "$MNT/blkio/b/blkio.throttle.write_bps_device")" = "$DISK 1048576" ]
		grep -q "^$DISK .*wbps=1048576" "$CG2/$BASE/b/io.max"
	else
		[ "$(write_result "$MNT/blkio/b/blkio.throttle.write_bps_device" "$DISK 1048576")" = "Operation not supported" ]
		[ -z "$(cat "$MNT/blkio/b/blkio.throttle.write_bps_device")" ]
	fi
}

#!/usr/bin/env bats
# Extended attributes of groups and their files, as kernfs keeps them on a v1
# hierarchy (5.7+): user.* for whoever may write the inode, at most 128 and
# 128 KiB of values per inode; trusted.* and security.* for CAP_SYS_ADMIN.
# The answers below are those of this host's own v1 hierarchies (measured
# on a scratch group of its freezer hierarchy, 6.18).

load ../lib/helpers

setup_file() {
	test_user_make
}

setup() {
	common_setup
	test_user_ids
	G=$MNT/freezer/g
	mkdir "$G"
}

teardown() {
	common_teardown
}

# What python's os.<call>(ARGS) answers: "ok [RESULT]" or the errno name;
# for setxattr, VALUE "@N" is N bytes.
XA_PROG='
import errno, os, sys
call, args = sys.argv[1], sys.argv[2:]
if call == "setxattr":
    path, name, value = args[:3]
    flags = {"": 0, "create": os.XATTR_CREATE, "replace": os.XATTR_REPLACE}[args[3] if len(args) > 3 else ""]
    value = value.encode() if not value.startswith("@") else b"x" * int(value[1:])
    args = [path, name, value, flags]
try:
    r = getattr(os, call)(*args)
    if isinstance(r, bytes):
        r = r.decode() if len(r) < 200 else "<%d bytes>" % len(r)
    if isinstance(r, list):
        r = " ".join(sorted(r))
    print("ok" if r is None else "ok " + str(r))
except OSError as e:
    print(errno.errorcode[e.errno])
'

xa() {
	python3 -c "$XA_PROG" "$@"
}

# The same as the test user (the interpreter itself: a wrapper script may not run as it).
xa_user() {
	as_user "$(python3 -c 'import sys; print(sys.executable)')" -c "$XA_PROG" "$@"
}

@test "user.* of a group: set, read back, listed, replaced, removed" {
	[ "$(xa setxattr "$G" user.a 1)" = ok ]
	[ "$(xa getxattr "$G" user.a)" = "ok 1" ]
	[ "$(xa setxattr "$G" user.a 22)" = ok ]
	[ "$(xa getxattr "$G" user.a)" = "ok 22" ]
	[ "$(xa setxattr "$G" user.b "")" = ok ]
	[ "$(xa getxattr "$G" user.b)" = "ok " ]
	[ "$(xa listxattr "$G")" = "ok user.a user.b" ]
	[ "$(xa setxattr "$G" user.a 3 create)" = EEXIST ]
	[ "$(xa setxattr "$G" user.c 3 replace)" = ENODATA ]
	[ "$(xa removexattr "$G" user.a)" = ok ]
	[ "$(xa removexattr "$G" user.a)" = ENODATA ]
	[ "$(xa getxattr "$G" user.a)" = ENODATA ]
	[ "$(xa listxattr "$G")" = "ok user.b" ]
	# Names and values as the VFS bounds them; a bare prefix and unknown namespaces as kernfs.
	[ "$(xa setxattr "$G" "user.$(printf 'n%.0s' $(seq 250))" 1)" = ok ]
	[ "$(xa setxattr "$G" "user.$(printf 'n%.0s' $(seq 251))" 1)" = ERANGE ]
	[ "$(xa setxattr "$G" user.big @65536)" = ok ]
	[ "$(xa getxattr "$G" user.big)" = "ok <65536 bytes>" ]
	[ "$(xa setxattr "$G" user.big @65537)" = E2BIG ]
	[ "$(xa setxattr "$G" user. 1)" = EINVAL ]
	[ "$(xa setxattr "$G" foo.bar 1)" = ENOTSUP ]
	[ "$(xa getxattr "$G" system.posix_acl_access)" = ENOTSUP ]
	# The files of a group keep their own.
	[ "$(xa setxattr "$G/tasks" user.f 1)" = ok ]
	[ "$(xa getxattr "$G/tasks" user.f)" = "ok 1" ]
	[ "$(xa getxattr "$G" user.f)" = ENODATA ]
}

@test "kernfs's limits per inode: 128 user.* and 128 KiB of values, counted before a replace" {
	python3 -c "
import os
for i in range(128): os.setxattr('$G', 'user.x%d' % i, b'v')"
	[ "$(xa setxattr "$G" user.x128 v)" = ENOSPC ]
	# kernfs counts the new one before it finds the old: a replace at the limit fails too.
	[ "$(xa setxattr "$G" user.x0 w)" = ENOSPC ]
	[ "$(xa setxattr "$G" user.x0 w create)" = ENOSPC ]
	[ "$(xa setxattr "$G" trusted.t v)" = ok ]
	# Another inode has its own count.
	[ "$(xa setxattr "$G/tasks" user.other v)" = ok ]
	[ "$(xa removexattr "$G" user.x1)" = ok ]
	[ "$(xa setxattr "$G" user.x0 w)" = ok ]
	python3 -c "
import os
for n in os.listxattr('$G'): os.removexattr('$G', n)"
	[ "$(xa setxattr "$G" user.s1 @65536)" = ok ]
	[ "$(xa setxattr "$G" user.s2 @65536)" = ok ]
	[ "$(xa setxattr "$G" user.s3 @1)" = ENOSPC ]
	[ "$(xa setxattr "$G" user.s1 @1)" = ENOSPC ]
	[ "$(xa removexattr "$G" user.s1)" = ok ]
	[ "$(xa setxattr "$G" user.s4 @65535)" = ok ]
	[ "$(xa setxattr "$G" user.s5 @2)" = ENOSPC ]
	[ "$(xa setxattr "$G" user.s5 @1)" = ok ]
}

@test "the kernel's rights: user.* for writers, trusted.* and security.* for CAP_SYS_ADMIN" {
	[ "$(xa setxattr "$G" user.a 1)" = ok ]
	[ "$(xa setxattr "$G" trusted.t 1)" = ok ]
	[ "$(xa setxattr "$G" security.s 1)" = ok ]
	[ "$(xa listxattr "$G")" = "ok security.s trusted.t user.a" ]
	# Not the owner: reads user.* and security.*, writes nothing; trusted.* is not there for it.
	[ "$(xa_user getxattr "$G" user.a)" = "ok 1" ]
	[ "$(xa_user getxattr "$G" security.s)" = "ok 1" ]
	[ "$(xa_user getxattr "$G" trusted.t)" = ENODATA ]
	[ "$(xa_user listxattr "$G")" = "ok security.s user.a" ]
	[ "$(xa_user setxattr "$G" user.b 1)" = EACCES ]
	[ "$(xa_user removexattr "$G" user.a)" = EACCES ]
	[ "$(xa_user setxattr "$G" trusted.t 2)" = EPERM ]
	[ "$(xa_user setxattr "$G" security.s 2)" = EPERM ]
	# The owner of the group (v1 delegation by chown) writes user.*, and only that.
	chown "$TEST_USER" "$G"
	[ "$(xa_user setxattr "$G" user.b 2)" = ok ]
	[ "$(xa_user removexattr "$G" user.a)" = ok ]
	[ "$(xa_user setxattr "$G" trusted.t 2)" = EPERM ]
	[ "$(xa getxattr "$G" trusted.t)" = "ok 1" ]
	# A sticky directory: only its owner writes, even with the write bit.
	chown root "$G"
	chmod 1777 "$G"
	[ "$(xa_user setxattr "$G" user.c 1)" = EPERM ]
}

@test "a group's attributes are its own hierarchy's, though the v2 directory is shared" {
	mkdir "$MNT/pids/g"
	[ "$(xa setxattr "$G" user.a freezer)" = ok ]
	[ "$(xa setxattr "$MNT/pids/g" user.a pids)" = ok ]
	[ "$(xa getxattr "$G" user.a)" = "ok freezer" ]
	[ "$(xa getxattr "$MNT/pids/g" user.a)" = "ok pids" ]
	# The limits are per inode, so per hierarchy.
	python3 -c "
import os
for i in range(127): os.setxattr('$G', 'user.x%d' % i, b'v')"
	[ "$(xa setxattr "$MNT/pids/g" user.more v)" = ok ]
	[ "$(xa setxattr "$G" user.more v)" = ENOSPC ]
	# rmdir of one takes its attributes, not the other's.
	python3 -c "
import os
for n in os.listxattr('$G'): os.removexattr('$G', n)"
	[ "$(xa setxattr "$G" user.a again)" = ok ]
	rmdir "$G"
	[ "$(xa getxattr "$MNT/pids/g" user.a)" = "ok pids" ]
	! getfattr -d -m 'trusted.cgx.x.*' "$CG2/$BASE/g" 2>/dev/null | grep -q freezer
	mkdir "$G"
	[ "$(xa listxattr "$G")" = "ok " ]
}

@test "attributes, and what they take of the limits, come back after a restart" {
	python3 -c "
import os
for i in range(128): os.setxattr('$G', 'user.x%d' % i, b'v' * 100)
os.setxattr('$G/tasks', 'user.t', b'file')
os.setxattr('$G', 'trusted.t', b'root')"
	stop_cgxfs
	start_cgxfs
	[ "$(xa getxattr "$G" user.x127)" = "ok $(printf 'v%.0s' $(seq 100))" ]
	[ "$(xa getxattr "$G/tasks" user.t)" = "ok file" ]
	[ "$(xa getxattr "$G" trusted.t)" = "ok root" ]
	[ "$(python3 -c "import os; print(len(os.listxattr('$G')))")" = 129 ]
	[ "$(xa setxattr "$G" user.x128 v)" = ENOSPC ]
	[ "$(xa removexattr "$G" user.x5)" = ok ]
	[ "$(xa setxattr "$G" user.x128 v)" = ok ]
}

@test "a rename carries the attributes to the new name" {
	[ "$(xa setxattr "$G" user.a 1)" = ok ]
	[ "$(xa setxattr "$G/tasks" user.f 2)" = ok ]
	mv -T "$G" "$MNT/freezer/h"
	[ "$(xa getxattr "$MNT/freezer/h" user.a)" = "ok 1" ]
	[ "$(xa getxattr "$MNT/freezer/h/tasks" user.f)" = "ok 2" ]
	[ ! -d "$CG2/$BASE/g" ]
	stop_cgxfs
	start_cgxfs
	[ "$(xa getxattr "$MNT/freezer/h" user.a)" = "ok 1" ]
}

@test "a value record no name claims (a crash between the two writes) is dropped at start" {
	[ "$(xa setxattr "$G" user.a 1)" = ok ]
	stop_cgxfs
	setfattr -n trusted.cgx.xv/freezer/-/7 -v orphan "$CG2/$BASE/g"
	setfattr -n trusted.cgx.xn/freezer/-/9 -v user.novalue "$CG2/$BASE/g"
	start_cgxfs
	[ "$(xa listxattr "$G")" = "ok user.a" ]
	! getfattr -d -m - "$CG2/$BASE/g" | grep -q 'xv/freezer/-/7\|xn/freezer/-/9'
	[ "$(xa setxattr "$G" user.b 2)" = ok ]
	[ "$(xa getxattr "$G" user.b)" = "ok 2" ]
}

@test "the mount root and the hierarchy directories: hierarchy roots keep attributes too" {
	[ "$(xa setxattr "$MNT/freezer" user.root 1)" = ok ]
	[ "$(xa getxattr "$MNT/freezer" user.root)" = "ok 1" ]
	[ "$(xa getxattr "$MNT/pids" user.root)" = ENODATA ]
	[ "$(xa getxattr "$MNT" user.x)" = ENODATA ]
	[ "$(xa setxattr "$MNT" user.x 1)" = ENOTSUP ]
	[ "$(xa listxattr "$MNT")" = "ok " ]
}

# Values are kept on the v2 directory alone: one another tool removed comes
# back with the group's records and values, its attributes gone with it.
@test "a directory another tool removed comes back without its attributes, and takes new ones" {
	python3 -c "
import os
for i in range(128): os.setxattr('$G', 'user.x%d' % i, b'v')"
	rmdir "$CG2/$BASE/g"
	# A write opens the directory, finds it gone and asks for the repair (else due within 10 s).
	echo 1 >"$G/notify_on_release" 2>/dev/null || true
	for _ in $(seq 150); do [ -d "$CG2/$BASE/g" ] && break; sleep 0.1; done
	[ -d "$CG2/$BASE/g" ]
	[ "$(xa listxattr "$G")" = "ok " ]
	[ "$(xa getxattr "$G" user.x0)" = ENODATA ]
	[ "$(xa setxattr "$G" user.new 1)" = ok ]
	[ "$(xa listxattr "$G")" = "ok user.new" ]
}

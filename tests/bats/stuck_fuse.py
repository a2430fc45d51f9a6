#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A FUSE file system that never answers some requests, for exec-hostile.bats.

    stuck_fuse.py MOUNTPOINT EVENTS

Speaks /dev/fuse directly (no library). The root holds a file "f" (4096
bytes) whose READ is never answered, so a page of it mapped in memory stalls
whoever faults it in, and a name "stuck" whose LOOKUP is never answered. Each
request left unanswered is appended to EVENTS ("READ", "LOOKUP stuck"). Ends
when the kernel aborts the connection (umount, or the process is killed:
every request still waiting then fails with ENOTCONN).
"""
import ctypes
import os
import struct
import sys

LOOKUP, FORGET, GETATTR, OPEN, READ, STATFS, RELEASE = 1, 2, 3, 14, 15, 17, 18
FLUSH, INIT, OPENDIR, RELEASEDIR, INTERRUPT, BATCH_FORGET = 25, 26, 27, 29, 36, 42
ROOT, FILE = 1, 2
FOPEN_KEEP_CACHE = 2
IN_HEADER = struct.Struct("=IIQQIIIHH")


def attr(node):
    mode, size = (0o040755, 0) if node == ROOT else (0o100644, 4096)
    # ino size blocks atime mtime ctime (nsec x3) mode nlink uid gid rdev blksize flags
    return struct.pack("=QQQQQQIIIIIIIIII", node, size, size // 512, 0, 0, 0, 0, 0, 0,
                       mode, 1, 0, 0, 0, 4096, 0)


def main():
    mount_point, events = sys.argv[1], sys.argv[2]
    fd = os.open("/dev/fuse", os.O_RDWR)
    libc = ctypes.CDLL(None, use_errno=True)
    options = f"fd={fd},rootmode=40000,user_id=0,group_id=0,allow_other".encode()
    if libc.mount(b"stuckfs", mount_point.encode(), b"fuse.stuckfs", 6, options) < 0:
        sys.exit(f"mount: {os.strerror(ctypes.get_errno())}")

    def reply(unique, payload=b"", error=0):
        os.write(fd, struct.pack("=IiQ", 16 + len(payload), error, unique) + payload)

    def note(what):
        with open(events, "a") as log:
            log.write(what + "\n")

    while True:
        try:
            request = os.read(fd, 1 << 17)
        except OSError:
            return  # ENODEV: aborted or unmounted
        _, opcode, unique, node, *_ = IN_HEADER.unpack_from(request)
        body = request[IN_HEADER.size:]
        if opcode == INIT:
            major, minor, readahead = struct.unpack_from("=III", body)
            reply(unique, struct.pack("=IIIIHHIIHHII24x", 7, 31, readahead, 0, 16, 12, 65536,
                                      1, 16, 0, 0, 0))
        elif opcode == LOOKUP:
            name = body.split(b"\0", 1)[0]
            if name == b"stuck":
                note("LOOKUP stuck")
            elif node == ROOT and name == b"f":
                reply(unique, struct.pack("=QQQQII", FILE, 0, 60, 60, 0, 0) + attr(FILE))
            else:
                reply(unique, error=-2)
        elif opcode == GETATTR:
            reply(unique, struct.pack("=QII", 60, 0, 0) + attr(node))
        elif opcode in (OPEN, OPENDIR):
            # FOPEN_KEEP_CACHE: another open must not wait on the page a READ holds.
            reply(unique, struct.pack("=QII", 0, FOPEN_KEEP_CACHE, 0))
        elif opcode == READ:
            note("READ")
        elif opcode == STATFS:
            reply(unique, struct.pack("=QQQQQIII28x", 1, 1, 1, 1, 1, 4096, 255, 4096))
        elif opcode in (FORGET, BATCH_FORGET, INTERRUPT):
            pass
        elif opcode in (RELEASE, RELEASEDIR, FLUSH):
            reply(unique)
        else:
            reply(unique, error=-38)  # ENOSYS


if __name__ == "__main__":
    main()

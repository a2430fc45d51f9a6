#!/usr/bin/env python3
"""journald's socket as a test sees it: the entries sent there, one JSON object a line.

    journal-sink.py SOCKET OUT
    journal-sink.py SOCKET --stuck

Binds the datagram socket SOCKET and appends each entry that arrives to OUT
as {"FIELD": "value", ...}, as journald's native protocol carries it
(systemd.io/JOURNAL_NATIVE_PROTOCOL): "FIELD=value" lines, or "FIELD", a
64-bit little-endian length and the bytes, for a value with a newline; an
entry too big for a datagram comes as a memfd passed with SCM_RIGHTS.
Runs until killed. --stuck: binds and never reads, as a journald that hangs.
"""

import array
import json
import os
import socket
import signal
import struct
import sys


def parse(data):
    entry = {}
    at = 0
    while at < len(data):
        end = data.index(b"\n", at)
        line = data[at:end]
        if b"=" in line:
            name, value = line.split(b"=", 1)
            at = end + 1
        else:
            name = line
            (size,) = struct.unpack_from("<Q", data, end + 1)
            value = data[end + 9:end + 9 + size]
            at = end + 9 + size + 1
        entry[name.decode()] = value.decode(errors="replace")
    return entry


def main():
    path, out = sys.argv[1:3]
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    if out == "--stuck":
        signal.pause()
    fds_size = socket.CMSG_SPACE(array.array("i", [0]).itemsize)
    with open(out, "a") as f:
        while True:
            data, ancillary, _, _ = sock.recvmsg(1 << 20, fds_size)
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fd = array.array("i", payload[:4])[0]
                    with os.fdopen(fd, "rb") as memfd:
                        memfd.seek(0)
                        data = memfd.read()
            f.write(json.dumps(parse(data)) + "\n")
            f.flush()


main()

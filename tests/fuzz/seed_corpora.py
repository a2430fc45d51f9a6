#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the seed corpora of fuzz_v1_writes and fuzz_state from what a real
v1 kernel shows (tests/reference/kernel-6.1-v1-classic-layout.txt): every
writable file's value in a root and a child group, and every write of the
behaviour probes. The fuzzers print what their selector bytes stand for when
CGX_FUZZ_ROWS is set; the seeds follow the table as it is when this runs.

usage: seed_corpora.py BUILD-BIN-DIR REFERENCE CORPUS-DIR
"""
import hashlib
import os
import re
import subprocess
import sys

K_GROUP, K_VALUE, K_ATTR, K_TUPLE, K_ORIGIN, K_HIERS, K_RAW, K_CONTROLLERS = range(8)
DIR_BASE, DIR_A, DIR_AB, DIR_X = range(4)


def rows_of(binary):
    env = dict(os.environ, CGX_FUZZ_ROWS="1")
    out = subprocess.run([binary, "-runs=0"], env=env, capture_output=True, text=True).stdout
    return [line.split(" ") for line in out.splitlines() if re.match(r"^\d+ ", line)]


def reference_values(path):
    """(hierarchy as /proc/PID/cgroup names it, is_root, file, value) of writable files."""
    section = None
    values, probes = [], []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"^## hierarchy (\S+) (root|child)$", line)
        if m:
            name = m.group(1)
            section = ("name=" + name if name == "systemd" else name, m.group(2) == "root")
            continue
        if line.startswith("## "):
            section = None
        m = re.match(r"^write (\S+)/ref/(\S+)\s+'(.*)'\s+->", line)
        if m:
            probes.append((m.group(1), m.group(2), m.group(3)))
            continue
        fields = line.split("\t")
        if section and len(fields) == 3 and fields[1][0] in "26":
            values.append((section[0], section[1], fields[0], fields[2].replace("|", "\n")))
    return values, probes


def write(corpus, name, data):
    os.makedirs(corpus, exist_ok=True)
    digest = hashlib.sha1(data).hexdigest()[:12]
    with open(os.path.join(corpus, f"{name}-{digest}"), "wb") as f:
        f.write(data)


def v1_writes(binary, values, probes, corpus):
    rows = {}
    for index, hier, file in rows_of(binary):
        rows.setdefault(file, []).append((int(index), hier))

    def row(file, hier):
        for index, h in rows.get(file, []):
            if h == hier or set(h.split(",")) & set(hier.split(",")):
                return index
        return None

    for hier, is_root, file, value in values:
        index = row(file, hier)
        if index is not None and value:
            write(corpus, file, bytes([index, 0 if is_root else 1]) + value.encode())
    for hier, file, value in probes:
        index = row(file, hier)
        if index is not None:
            write(corpus, file, bytes([index, 1]) + value.encode())

    def seq(*writes):
        return b"\0".join(bytes([row(f, h), d]) + v.encode() for h, f, d, v in writes)

    # Values that only mean something together: (name, [(hierarchy, file, dir, value)]).
    together = [
        ("cfs", [("cpu", "cpu.cfs_period_us", 1, "50000"), ("cpu", "cpu.cfs_quota_us", 1, "25000"),
                 ("cpu", "cpu.cfs_quota_us", 2, "50000"), ("cpu", "cpu.cfs_burst_us", 1, "1000")]),
        ("memsw", [("memory", "memory.limit_in_bytes", 1, "1G"),
                   ("memory", "memory.memsw.limit_in_bytes", 1, "2G"),
                   ("memory", "memory.limit_in_bytes", 2, "512M"),
                   ("memory", "memory.memsw.limit_in_bytes", 1, "-1")]),
        ("cpuset", [("cpuset", "cpuset.cpus", 1, "0"), ("cpuset", "cpuset.mems", 1, "0"),
                    ("cpuset", "cpuset.cpus", 2, "0"), ("cpuset", "cpuset.cpu_exclusive", 1, "1")]),
        ("devices", [("devices", "devices.deny", 1, "a"),
                     ("devices", "devices.allow", 1, "c 1:3 rwm"),
                     ("devices", "devices.allow", 2, "c 1:3 r")]),
        ("blkio", [("blkio", "blkio.throttle.read_bps_device", 1, "8:0 1048576"),
                   ("blkio", "blkio.throttle.write_iops_device", 1, "8:0 100")]),
    ]
    # Files the reference shows empty (no resource on that machine).
    together += [("misc", [("misc", "misc.max", 1, "sev 5"), ("misc", "misc.max", 1, "sev max")]),
                 ("rdma", [("rdma", "rdma.max", 1, "mlx4_0 hca_handle=2 hca_object=2000")])]
    for name, writes in together:
        write(corpus, name, b"\0".join(bytes([row(f, h), d]) + v.encode()
                                        for h, f, d, v in writes))


def state(binary, values, corpus):
    rows = {}
    hiers = {}
    for h, i, hier, file in rows_of(binary):
        rows[(hier, file)] = (int(h), int(i))
        hiers[hier] = int(h)

    def rec(where, kind, *rest):
        return bytes([where, kind]) + b"".join(r if isinstance(r, bytes) else bytes([r])
                                               for r in rest)

    def group(where, hier):
        return rec(where, K_GROUP, hiers[hier], b"0 0 755 0 0")

    with_attr = set()
    for hier, is_root, file, value in values:
        if (hier, file) not in rows or not value:
            continue
        h, i = rows[(hier, file)]
        where = DIR_BASE if is_root else DIR_A
        records = [] if is_root else [group(where, hier)]
        records.append(rec(where, K_VALUE, h, i, value.encode()))
        write(corpus, file, b"\0".join(records))
        if hier not in with_attr:
            with_attr.add(hier)
            write(corpus, file + "-attr",
                  b"\0".join(records + [rec(where, K_ATTR, h, i, b"1000 1000 644")]))
    tuple_text = b"cpu,cpuacct:/a\nmemory:/a/b\nname=systemd:/a\n"
    write(corpus, "tuple", b"\0".join([group(DIR_A, "cpu,cpuacct"), group(DIR_A, "memory"),
                                       group(DIR_AB, "memory"), group(DIR_A, "name=systemd"),
                                       rec(DIR_X, K_TUPLE, tuple_text)]))
    names = sorted(hiers, key=hiers.get)
    stored = "".join(f"{n}\t{n[5:] if n.startswith('name=') else n}\n" for n in names)
    write(corpus, "hierarchies", rec(DIR_BASE, K_HIERS, stored.encode()))
    write(corpus, "hierarchies-named", rec(DIR_BASE, K_HIERS,
                                           (stored + "name=jobs\tname=jobs\n").encode()))
    write(corpus, "origin", rec(DIR_BASE, K_ORIGIN, b"1.4242=/init.scope"))
    write(corpus, "raw", rec(DIR_A, K_RAW, b"group/cpu,cpuacct=0 0 755 0 0"))
    # A hybrid host: cgroup2 without the v1 controllers, so no v2 write refuses the state.
    write(corpus, "hybrid", b"\0".join([
        rec(DIR_BASE, K_CONTROLLERS, b"memory pids\n"), group(DIR_A, "cpu,cpuacct"),
        group(DIR_AB, "cpu,cpuacct"),
        rec(DIR_AB, K_VALUE, *rows[("cpu,cpuacct", "cpu.cfs_quota_us")], b"50000\n"),
        rec(DIR_AB, K_VALUE, *rows[("cpu,cpuacct", "cpu.cfs_period_us")], b"100000\n")]))


def main():
    bin_dir, reference, corpus = sys.argv[1:4]
    values, probes = reference_values(reference)
    v1_writes(os.path.join(bin_dir, "fuzz_v1_writes"), values, probes,
              os.path.join(corpus, "v1_writes"))
    state(os.path.join(bin_dir, "fuzz_state"), values, os.path.join(corpus, "state"))


if __name__ == "__main__":
    main()

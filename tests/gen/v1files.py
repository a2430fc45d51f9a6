"""The v1 files a group holds, and what the generator writes to them.

The file sets come from the kernel itself: tests/reference/kernel-6.1-v1-
classic-layout.txt lists every file of a root and a child group of each
classic hierarchy on a real 6.1 kernel. A hierarchy of another layout (a
co-mount, a named hierarchy) holds the core files plus the files of each of
its controllers, which is how the kernel builds a group's directory
(cgroup_addrm_files() per subsystem).

The values are the generator's, not the daemon's: valid ones that a legacy
script would write, and invalid ones the kernel refuses.
"""

import os
import re

REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reference",
                         "kernel-6.1-v1-classic-layout.txt")

# The kernel's subsystem order (/proc/cgroups): mount options and directory
# names list controllers in it, so that both guests name a co-mount alike.
CONTROLLERS = ["cpuset", "cpu", "cpuacct", "blkio", "memory", "devices", "freezer", "net_cls",
               "perf_event", "net_prio", "hugetlb", "pids", "rdma", "misc"]

CLASSIC = ["cpuset", "cpu,cpuacct", "blkio", "memory", "devices", "freezer", "net_cls,net_prio",
           "perf_event", "hugetlb", "pids", "rdma", "misc", "none,name=systemd"]

# Files of every hierarchy, whatever its controllers (cgroup1_base_files).
CORE = {"cgroup.clone_children", "cgroup.procs", "cgroup.sane_behavior", "notify_on_release",
        "release_agent", "tasks"}


def _read_reference():
    """{classic hierarchy: {"root": {file: mode}, "child": {file: mode}}}"""
    sets = {}
    current = None
    with open(REFERENCE) as ref:
        for line in ref:
            line = line.rstrip("\n")
            m = re.match(r"## hierarchy (\S+) (root|child)$", line)
            if m:
                current = sets.setdefault(m.group(1), {}).setdefault(m.group(2), {})
                continue
            if line.startswith("## "):
                current = None
                continue
            if current is not None and "\t" in line:
                name, mode = line.split("\t")[:2]
                current[name] = int(mode, 8)
    return sets


def _controller_files():
    """{controller: {"root": {file: mode}, "child": {...}}}: a classic hierarchy's
    files less the core ones, co-mounts split by the file's prefix."""
    per = {}
    for hier, kinds in _read_reference().items():
        names = hier.split(",")
        for kind, files in kinds.items():
            for name, mode in files.items():
                if name in CORE:
                    continue
                owner = names[0]
                for c in names:
                    if name.startswith(c + "."):
                        owner = c
                if name == "cgroup.event_control":
                    owner = "memory"
                per.setdefault(owner, {"root": {}, "child": {}})[kind][name] = mode
    return per


CONTROLLER_FILES = _controller_files()
_CORE_FILES = {kind: {n: m for n, m in files.items() if n in CORE}
               for kind, files in _read_reference()["systemd"].items()}


def parse_spec(spec):
    """(controllers in kernel order, name or None, none flag) of a mount option string."""
    controllers, name, none = [], None, False
    for word in spec.split(","):
        if word == "none":
            none = True
        elif word.startswith("name="):
            name = word[5:]
        else:
            controllers.append(word)
    controllers.sort(key=lambda c: CONTROLLERS.index(c) if c in CONTROLLERS else 99)
    return controllers, name, none


def boot_dir(spec):
    """The directory cgxfs shows a --hierarchies entry as: its controllers, or its name."""
    controllers, name, _ = parse_spec(spec)
    return ",".join(controllers) if controllers else name


def files_of(controllers, root):
    """{file: mode} of a group of a hierarchy with these controllers."""
    kind = "root" if root else "child"
    files = dict(_CORE_FILES[kind])
    for c in controllers:
        files.update(CONTROLLER_FILES.get(c, {}).get(kind, {}))
    return files


def writable(controllers, root):
    return sorted(n for n, m in files_of(controllers, root).items() if m & 0o222)


def readable(controllers, root):
    return sorted(n for n, m in files_of(controllers, root).items() if m & 0o444)


# --- values -----------------------------------------------------------------------------

_BYTES_OK = ["64M", "100M", "128m", "1G", "-1", "268435456", "200M", "9223372036854775807"]
_BYTES_BAD = ["abc", "-2", "12x", ""]
_FLAG_OK = ["0", "1"]
_FLAG_BAD = ["2", "-1", "abc"]

# file -> (valid values, invalid values). Limits stay far above what the
# workers use: a limit near the usage makes the two kernels' accounting
# decide, not the translation.
VALUES = {
    "cgroup.clone_children": (_FLAG_OK, ["abc", "-1"]),
    "notify_on_release": (["0", "1", "2"], ["abc", "-1"]),
    "release_agent": (["/bin/true", ""], []),
    "tasks": ([], ["abc", "-5", "", "99999999", "1x"]),
    "cgroup.procs": ([], ["abc", "-5", "", "99999999"]),
    "cgroup.event_control": ([], ["abc", "1 2", ""]),
    "cpu.shares": (["512", "1024", "2", "262144", "100", "0", "999999999"], ["-1", "abc", " 700", ""]),
    "cpu.cfs_quota_us": (["50000", "-1", "1000", "200000", "25000", "-2"], ["0", "500", "abc"]),
    "cpu.cfs_period_us": (["100000", "50000", "1000", "1000000"], ["999", "1000001", "0", "abc"]),
    "cpu.cfs_burst_us": (["0", "1000", "20000"], ["-1", "abc", "99999999999"]),
    "cpu.idle": (["0", "1"], ["2", "-1", "abc"]),
    "cpuacct.usage": (["0"], ["1", "abc"]),
    "cpuset.cpus": (["0", "1", "0-1", "0,1", ""], ["0-2", "5", "abc", "1-0"]),
    "cpuset.mems": (["0", ""], ["1", "abc"]),
    "cpuset.cpu_exclusive": (_FLAG_OK, _FLAG_BAD),
    "cpuset.mem_exclusive": (_FLAG_OK, _FLAG_BAD),
    "cpuset.mem_hardwall": (_FLAG_OK, _FLAG_BAD),
    "cpuset.memory_migrate": (_FLAG_OK, _FLAG_BAD),
    "cpuset.memory_pressure_enabled": (_FLAG_OK, _FLAG_BAD),
    "cpuset.memory_spread_page": (_FLAG_OK, _FLAG_BAD),
    "cpuset.memory_spread_slab": (_FLAG_OK, _FLAG_BAD),
    "cpuset.sched_load_balance": (_FLAG_OK, _FLAG_BAD),
    "cpuset.sched_relax_domain_level": (["-1", "0", "1", "5"], ["6", "-2", "abc"]),
    "blkio.reset_stats": (["0"], []),
    "blkio.throttle.read_bps_device": (["7:0 1048576", "7:0 0"], ["bad", "7:0", "8:0 1048576"]),
    "blkio.throttle.write_bps_device": (["7:0 2097152", "7:0 0"], ["bad", "7:0 -1"]),
    "blkio.throttle.read_iops_device": (["7:0 100", "7:0 0"], ["bad"]),
    "blkio.throttle.write_iops_device": (["7:0 200", "7:0 0"], ["bad"]),
    "memory.limit_in_bytes": (_BYTES_OK, _BYTES_BAD),
    "memory.soft_limit_in_bytes": (["50M", "-1", "100M", "0"], _BYTES_BAD),
    "memory.memsw.limit_in_bytes": (["200M", "1G", "-1", "300M"], _BYTES_BAD),
    "memory.kmem.limit_in_bytes": (["100M", "-1"], ["abc"]),
    "memory.kmem.tcp.limit_in_bytes": (["100M", "-1"], ["abc"]),
    "memory.swappiness": (["0", "60", "100", "101"], ["-1", "abc"]),
    "memory.move_charge_at_immigrate": (["0", "1", "3"], ["4", "abc"]),
    "memory.oom_control": (["0", "1"], ["2", "abc"]),
    "memory.use_hierarchy": (["1"], ["0", "abc"]),
    "memory.force_empty": (["0"], []),
    "memory.failcnt": (["0"], []),
    "memory.max_usage_in_bytes": (["0"], []),
    "memory.memsw.failcnt": (["0"], []),
    "memory.memsw.max_usage_in_bytes": (["0"], []),
    "memory.kmem.failcnt": (["0"], []),
    "memory.kmem.max_usage_in_bytes": (["0"], []),
    "memory.kmem.tcp.failcnt": (["0"], []),
    "memory.kmem.tcp.max_usage_in_bytes": (["0"], []),
    "devices.allow": (["a", "a *:* rwm", "c 1:3 rw", "c 1:5 r", "c *:* m", "b 7:0 rwm"],
                      ["bogus", "c 1:3 x", "z 1:3 r"]),
    "devices.deny": (["a", "c 1:3 rw", "c 1:5 rwm", "c 1:3 w", "b *:* rwm"], ["bogus", "c 1:3 q"]),
    "freezer.state": (["FROZEN", "THAWED"], ["FREEZING", "frozen", "bogus"]),
    "net_cls.classid": (["0x100001", "1048577", "0"], ["abc", "-1"]),
    "net_prio.ifpriomap": (["lo 5", "lo 0"], ["bogus", "nosuchif 1"]),
    "pids.max": (["max", "1", "2", "3", "5", "10", "0"], ["-1", "abc", ""]),
    "rdma.max": ([], ["bogus", "mlx4_0 hca_handle=2"]),
    "misc.max": ([], ["bogus", "sev 1"]),
    "hugetlb.2MB.limit_in_bytes": (["4M", "-1", "2M", "3M"], ["abc"]),
    "hugetlb.2MB.rsvd.limit_in_bytes": (["4M", "-1"], ["abc"]),
    "hugetlb.1GB.limit_in_bytes": (["1G", "-1"], ["abc"]),
    "hugetlb.1GB.rsvd.limit_in_bytes": (["1G", "-1"], ["abc"]),
    "hugetlb.2MB.failcnt": (["0"], []),
    "hugetlb.2MB.max_usage_in_bytes": (["0"], []),
    "hugetlb.2MB.rsvd.failcnt": (["0"], []),
    "hugetlb.2MB.rsvd.max_usage_in_bytes": (["0"], []),
    "hugetlb.1GB.failcnt": (["0"], []),
    "hugetlb.1GB.max_usage_in_bytes": (["0"], []),
    "hugetlb.1GB.rsvd.failcnt": (["0"], []),
    "hugetlb.1GB.rsvd.max_usage_in_bytes": (["0"], []),
}


def values_of(name):
    """(valid, invalid) values for a writable file; invalid "abc" when unknown."""
    return VALUES.get(name, ([], ["abc"]))


# --- what a read shows, comparable between two kernels ---------------------------------

# Statistics: what the workload did, as each kernel accounts it (a page of
# page cache, a tick of CPU). Compared by shape, every number replaced by N:
# the keys and the layout must agree, the amounts cannot.
SHAPE_FILES = (r"^(cpuacct\..*|cpu\.stat|memory\.(stat|numa_stat|usage_in_bytes|"
                    r"max_usage_in_bytes|memsw\.(usage|max_usage)_in_bytes|kmem\..*usage_in_bytes|"
                    r"kmem\.slabinfo)|blkio\.throttle\.io_.*|net_prio\.prioidx|"
                    r"hugetlb\..*numa_stat)$")
_SHAPE = re.compile(SHAPE_FILES)
_NUMBER = re.compile(r"\d+")


# blkio's statistics list a line per device the group has a blkg for: on v1
# every device for the root and those it did I/O on for a child, in cgx those
# io.stat lists (the ones with I/O). A device at zero says nothing: left out.
DEVICE_STATS = r"^blkio\.throttle\.io_"


# Counts of hits of a limit: how often a workload over its limit fails a
# charge depends on reclaim's rounds, not on v1's semantics (seed 23593: 36 on
# kernel v1, 71 on cgxfs). Compared as zero or not.
HITS_FILES = r"\.failcnt$"


def read_rule(name):
    """'ids' (pids or tids), 'shape' (numbers hidden), 'devices' (shape, and
    no device line at zero), 'hits' (zero or N) or 'exact'."""
    if name in ("tasks", "cgroup.procs"):
        return "ids"
    if re.search(HITS_FILES, name):
        return "hits"
    if re.match(DEVICE_STATS, name):
        return "devices"
    if _SHAPE.match(name):
        return "shape"
    return "exact"


def hits(text):
    return "0" if text.strip() == "0" else "N"


def shape(text):
    return _NUMBER.sub("N", text)


def nonzero_devices(text):
    return "".join(line + "\n" for line in text.splitlines()
                   if line.startswith("Total") or not line.endswith(" 0"))

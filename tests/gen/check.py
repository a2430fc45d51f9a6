#!/usr/bin/env python3
"""What cgroup2 must hold, derived from the v1 view (the fold's invariant).

    check.py --view MNT --cgroup2 DIR --base NAME [--pid PID]... [--allow KIND]...

Reads the v1 state through the view's own files (groups, tasks, limits,
freezer states, cpusets) and the v2 tree under the base, and checks what
v1's semantics imply for the kernel, without the daemon's fold:

  membership  every process of a non-root group is in the base; processes
              with the same membership tuple share one v2 cgroup, different
              tuples never do; no directory on a process's path is the
              directory of a group (of any hierarchy) the process is not in
  freezer     a process is frozen (cgroup.freeze on its v2 path) exactly
              when a group on its freezer path is self-freezing; so is the
              directory of each freezer group
  limit       each limit file of each v2 directory holds the v1 value of the
              group at that path, or the default where that group does not
              exist; a tighter value only as a part of a split limit
  split       every member of a group with a memory, pids or cpu quota limit
              runs under a part of it, and the parts add up to no more than
              the v1 limit (or are each cpu.max's least, 1 ms); exactly the
              limit when all members are inside, unless empty leaves outside
              still hold pages charged to a memory group (then less)
  cpuset      each process's CPU and memory-node affinity is its cpuset
              group's cpuset.cpus and cpuset.mems
  stray       no directory of the base names a group that does not exist
  limits-file cgx.limits says "exact" exactly for the limits not split

Exit status 0 when all hold, 1 with one line per failure, 2 on trouble.
Kinds named by --allow are reported but do not fail (known limits).
"""

import argparse
import errno
import fractions
import math
import os
import sys

MAX_BYTES = 9223372036854771712  # PAGE_COUNTER_MAX pages, as v1 prints "unlimited"

CONTROLLER_WORDS = {"cpuset", "cpu", "cpuacct", "blkio", "memory", "devices", "freezer",
                    "net_cls", "perf_event", "net_prio", "hugetlb", "pids", "rdma", "misc"}


def read(path):
    """A file's text, or None when it does not exist. Under TCG each Python
    layer costs: a raw descriptor, and one read() where the first read came
    short (cgroupfs and the view both answer a read with all they have)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENODEV, errno.EOPNOTSUPP):
            return None
        raise
    try:
        data = os.read(fd, 65536)
        if len(data) == 65536:
            while chunk := os.read(fd, 65536):
                data += chunk
    finally:
        os.close(fd)
    return data.decode()


def read_ids(path):
    text = read(path)
    return {int(x) for x in text.split()} if text else set()


# --- the v1 side, through the view ---------------------------------------------------------

class Hier:
    def __init__(self, dirname):
        self.dir = dirname
        self.controllers = {w for w in dirname.split(",") if w in CONTROLLER_WORDS}
        self.files = [f for c in sorted(self.controllers) for f in V1_FILES.get(c, [])]
        self.groups = {}  # v1 path ("/a/b") -> {"procs": set, file: text}


# v1 files the checker reads per group, by controller.
V1_FILES = {
    "memory": ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes",
               "memory.soft_limit_in_bytes"],
    "pids": ["pids.max"],
    "cpu": ["cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.shares", "cpu.cfs_burst_us", "cpu.idle"],
    "hugetlb": ["hugetlb.2MB.limit_in_bytes", "hugetlb.2MB.rsvd.limit_in_bytes",
                "hugetlb.1GB.limit_in_bytes", "hugetlb.1GB.rsvd.limit_in_bytes"],
    "blkio": ["blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
              "blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device"],
    "freezer": ["freezer.self_freezing"],
    "cpuset": ["cpuset.cpus", "cpuset.mems"],
}


class View:
    """The v1 state as the view's files show it.

    Read in full at first; refresh() then reads again only what a v1
    operation can have changed by the kernel's rules (a write changes its own
    group's file, a mkdir/rmdir/rename its hierarchy's tree, a process
    operation the tasks of every group): each read of the view is a round
    trip to the daemon, tens of milliseconds under TCG."""

    def __init__(self, mnt):
        self.mnt = mnt
        self.reload()

    def reload(self):
        self.hiers = {}
        for entry in sorted(os.scandir(self.mnt), key=lambda e: e.name):
            if entry.is_dir(follow_symlinks=False):
                self.hiers[entry.name] = Hier(entry.name)
        for h in self.hiers.values():
            self._walk(h, os.path.join(self.mnt, h.dir), "/")
        self.limits_file = read(os.path.join(self.mnt, "cgx.limits"))

    def path(self, h, v1path):
        return os.path.join(self.mnt, h.dir) + (v1path if v1path != "/" else "")

    def _read_group(self, h, v1path):
        path = self.path(h, v1path)
        group = {"procs": read_ids(path + "/cgroup.procs")}
        for name in h.files:
            text = read(path + "/" + name)
            if text is not None:
                group[name] = text.strip()
        h.groups[v1path] = group

    def _walk(self, h, path, v1path):
        if v1path != "/":
            self._read_group(h, v1path)
        prefix = v1path if v1path != "/" else ""
        for entry in os.scandir(path):
            if entry.is_dir(follow_symlinks=False):
                self._walk(h, entry.path, prefix + "/" + entry.name)

    def refresh(self, step):
        """Reads again what the v1 operation @step (a generated program's step,
        tests/gen/gen.py) can have changed."""
        op, h = step["op"], self.hiers.get(step.get("h"))
        if op in ("mkhier", "rmhier") or (op in ("mkdir", "rmdir", "rename") and h is None):
            self.reload()
            return
        if op in ("mkdir", "rmdir", "rename"):
            h.groups = {}
            self._walk(h, os.path.join(self.mnt, h.dir), "/")
        elif op == "write" and step["file"] not in ("tasks", "cgroup.procs"):
            v1path = "/" + step["path"] if step["path"] else "/"
            if h is not None and v1path in h.groups:
                self._read_group(h, v1path)
        else:  # a process made, gone or moved: the tasks of every group
            for h in self.hiers.values():
                for v1path, group in h.groups.items():
                    group["procs"] = read_ids(self.path(h, v1path) + "/cgroup.procs")
        self.limits_file = read(os.path.join(self.mnt, "cgx.limits"))

    def hier_of(self, controller):
        for h in self.hiers.values():
            if controller in h.controllers:
                return h
        return None

    def tuple_of(self, pid):
        """{hierarchy dir: v1 path} for every hierarchy; "/" where no group holds it."""
        return {h.dir: next((p for p, g in h.groups.items() if pid in g["procs"]), "/")
                for h in self.hiers.values()}


def under(path, group):
    """Whether v1 path @path is @group or inside it."""
    return group == "/" or path == group or path.startswith(group + "/")


# --- the v2 side --------------------------------------------------------------------------

V2_FILES = ["cgroup.freeze", "memory.max", "memory.swap.max", "memory.low", "pids.max",
            "cpu.max", "cpu.weight", "cpu.max.burst", "cpu.idle", "hugetlb.2MB.max",
            "hugetlb.2MB.rsvd.max", "hugetlb.1GB.max", "hugetlb.1GB.rsvd.max", "io.max"]


class V2Dir:
    def __init__(self, rel, path, files):
        self.rel = rel  # "a/@cpu=b" relative to the base, "" for the base
        self.path = path
        self.procs = read_ids(path + "/cgroup.procs")
        self.values = {}
        for name in files:
            text = read(path + "/" + name)
            if text is not None:
                self.values[name] = text.strip()
        self.children = []
        # The v1 path this directory is the group directory of, or None for
        # a leaf of the daemon's ("@tasks", "@cpu=b": one '@', docs/design.md §3).
        self.v1path = "/"
        for comp in rel.split("/") if rel else []:
            if comp.startswith("@@"):
                comp = comp[2:]
            elif comp.startswith("@"):
                self.v1path = None
                break
            self.v1path = self.v1path.rstrip("/") + "/" + comp

    def subtree(self):
        yield self
        for c in self.children:
            yield from c.subtree()

    def subtree_procs(self):
        return set().union(*(d.procs for d in self.subtree()))


class Base:
    """The v2 tree under the base. @files: the limit files to read (default
    all); a value v1 never set anywhere cannot be left over anywhere."""

    def __init__(self, cgroup2, base, files=None):
        self.cgroup2 = cgroup2
        self.path = os.path.join(cgroup2, base)
        self.files = ["cgroup.freeze"] + [f for f in V2_FILES[1:] if files is None or f in files]
        self.dirs = {}
        self.root = self._walk("", self.path)
        self.leaf_of = {}
        for d in self.dirs.values():
            for pid in d.procs:
                self.leaf_of[pid] = d

    def _walk(self, rel, path):
        """@path's tree, None when it went while read: the watcher retires a leaf a
        move emptied (a second later at most), and cgroup2 removes only a cgroup
        with no process and no child, so nothing the checks read went with it."""
        d = V2Dir(rel, path, self.files)
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except FileNotFoundError:
            return None
        self.dirs[rel] = d
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                child = self._walk(f"{rel}/{entry.name}" if rel else entry.name, entry.path)
                if child is not None:
                    d.children.append(child)
        return d

    def ancestors(self, d):
        """@d and its ancestors up to the base, innermost first."""
        rel = d.rel
        while True:
            yield self.dirs[rel]
            if not rel:
                return
            rel = rel.rpartition("/")[0]

    def frozen_above_base(self):
        """Whether a directory from the cgroup2 root down to the base's parent freezes."""
        path = os.path.dirname(self.path)
        while path.startswith(self.cgroup2) and path != self.cgroup2:
            if (read(os.path.join(path, "cgroup.freeze")) or "0").strip() == "1":
                return True
            path = os.path.dirname(path)
        return False


# --- limits: v1 value -> v2 value, by the table's rules (README "Controllers") -----------

def bytes_v2(text):
    n = int(text)
    return "max" if n >= MAX_BYTES else str(n)


def hugetlb_v2(text, size):
    n = int(text)
    # v1 prints "unlimited" as PAGE_COUNTER_MAX pages rounded down to the huge page size.
    return "max" if n >= MAX_BYTES - size else str(n)


def shares_to_weight(shares):
    # docs/design.md §4: the formula runc and crun adopted in 2025.
    shares = min(max(shares, 2), 262144)
    l = math.log2(shares)
    return str(math.ceil(10 ** ((l * l + 125 * l) / 612.0 - 7.0 / 34.0)))


def io_max_v2(values):
    """io.max lines from the four blkio.throttle files ("MAJ:MIN VALUE" lines)."""
    keys = [("blkio.throttle.read_bps_device", "rbps"), ("blkio.throttle.write_bps_device", "wbps"),
            ("blkio.throttle.read_iops_device", "riops"), ("blkio.throttle.write_iops_device", "wiops")]
    devices = {}
    for file, key in keys:
        for line in (values.get(file) or "").splitlines():
            dev, value = line.split()
            if value != "0":
                devices.setdefault(dev, {})[key] = value
    lines = []
    for dev in sorted(devices):
        lines.append(dev + "".join(f" {k}={devices[dev].get(k, 'max')}" for _, k in keys))
    return "\n".join(lines)


# kind: (controller, v2 file, default, split by the daemon, v1 group values -> v2 value(s))
# A converter returns the one value v2 must hold, or a set of acceptable ones.
def _cpu_max(g):
    quota, period = int(g["cpu.cfs_quota_us"]), g["cpu.cfs_period_us"]
    return f"{'max' if quota < 0 else quota} {period}"


def _swap_max(g):
    limit, memsw = int(g["memory.limit_in_bytes"]), int(g["memory.memsw.limit_in_bytes"])
    return "max" if memsw >= MAX_BYTES else str(memsw - limit)


def _low(g):
    # Unlimited reads the same whether never written (v2 default 0) or written -1 ("max").
    soft = int(g["memory.soft_limit_in_bytes"])
    return {"0", "max"} if soft >= MAX_BYTES else str(soft)


def _weight(g):
    # An idle group's weight is the kernel's least (WEIGHT_IDLEPRIO, 3 of
    # 1024), which cpu.weight rounds to 0: cgroup2 sets it, not the shares.
    if g.get("cpu.idle") == "1":
        return "0"
    return shares_to_weight(int(g["cpu.shares"]))


LIMITS = [
    ("memory", "memory.max", "max", True, lambda g: bytes_v2(g["memory.limit_in_bytes"])),
    ("memory", "memory.swap.max", "max", False, _swap_max),
    ("memory", "memory.low", {"0", "max"}, False, _low),
    ("pids", "pids.max", "max", True, lambda g: g["pids.max"]),
    ("cpu", "cpu.max", "max 100000", True, _cpu_max),
    ("cpu", "cpu.weight", "100", False, _weight),
    ("cpu", "cpu.max.burst", "0", False, lambda g: g["cpu.cfs_burst_us"]),
    ("cpu", "cpu.idle", "0", False, lambda g: g["cpu.idle"]),
    ("hugetlb", "hugetlb.2MB.max", "max", False,
     lambda g: hugetlb_v2(g["hugetlb.2MB.limit_in_bytes"], 2 << 20)),
    ("hugetlb", "hugetlb.2MB.rsvd.max", "max", False,
     lambda g: hugetlb_v2(g["hugetlb.2MB.rsvd.limit_in_bytes"], 2 << 20)),
    ("hugetlb", "hugetlb.1GB.max", "max", False,
     lambda g: hugetlb_v2(g["hugetlb.1GB.limit_in_bytes"], 1 << 30)),
    ("hugetlb", "hugetlb.1GB.rsvd.max", "max", False,
     lambda g: hugetlb_v2(g["hugetlb.1GB.rsvd.limit_in_bytes"], 1 << 30)),
    ("blkio", "io.max", "", False, io_max_v2),
]


def set_files(view):
    """The v2 limit files whose v1 value is not the default in some group of @view."""
    out = set()
    for controller, file, default, _, convert in LIMITS:
        hier = view.hier_of(controller)
        for group in hier.groups.values() if hier else []:
            try:
                expected = convert(group)
            except (KeyError, ValueError):
                continue
            if expected != default and not (isinstance(default, set) and expected in default):
                out.add(file)
    return out


def accepts(expected, value):
    return value in expected if isinstance(expected, set) else value == expected


def show(expected):
    return "|".join(sorted(expected)) if isinstance(expected, set) else expected


def amount(file, value):
    """A limit as a number to add up and compare; None for no limit."""
    if file == "cpu.max":
        quota, period = value.split()
        return None if quota == "max" else fractions.Fraction(int(quota), int(period))
    return None if value == "max" else int(value)


# --- the checks ---------------------------------------------------------------------------

class Checker:
    def __init__(self, view, base, pids=(), names=None):
        self.view, self.base = view, base
        self.pids = set(pids)
        self.names = names or {}
        self.failures = []

    def fail(self, kind, message):
        self.failures.append((kind, message))

    def alive(self, pid):
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    def name(self, pid):
        if pid in self.names:
            return self.names[pid]
        try:
            with open(f"/proc/{pid}/comm") as f:
                return f"{pid}({f.read().strip()})"
        except OSError:
            return str(pid)

    def run(self):
        self.tuples = {}
        in_groups = set()
        for h in self.view.hiers.values():
            for g in h.groups.values():
                in_groups |= g["procs"]
        for pid in in_groups | set(self.base.leaf_of) | self.pids:
            if self.alive(pid):
                self.tuples[pid] = self.view.tuple_of(pid)
        self.check_membership(in_groups)
        self.check_freezer()
        self.check_limits()
        self.check_splits()
        self.check_cpusets()
        self.check_strays()
        return self.failures

    def fmt_tuple(self, t):
        return " ".join(f"{h}:{p}" for h, p in sorted(t.items()) if p != "/") or "(roots)"

    def check_membership(self, in_groups):
        leaves = {}
        for pid, t in self.tuples.items():
            leaf = self.base.leaf_of.get(pid)
            if leaf is None:
                if pid in in_groups:
                    self.fail("membership", f"{self.name(pid)} is in {self.fmt_tuple(t)} "
                              "but not in the base")
                continue
            key = tuple(sorted(t.items()))
            leaves.setdefault(key, set()).add(leaf.rel)
            for d in self.base.ancestors(leaf):
                if d.v1path is None or d.v1path == "/":
                    continue
                for h in self.view.hiers.values():
                    if d.v1path in h.groups and not under(t[h.dir], d.v1path):
                        self.fail("membership", f"{self.name(pid)} ({self.fmt_tuple(t)}) is in "
                                  f"BASE/{leaf.rel}, inside the directory of {h.dir}:{d.v1path}, "
                                  "a group it is not in")
        by_leaf = {}
        for key, rels in leaves.items():
            if len(rels) > 1:
                self.fail("membership", f"one tuple ({self.fmt_tuple(dict(key))}) in several "
                          f"cgroups: {', '.join(sorted(rels))}")
            for rel in rels:
                by_leaf.setdefault(rel, []).append(dict(key))
        for rel, keys in by_leaf.items():
            if len(keys) > 1:
                self.fail("membership", f"BASE/{rel} holds several tuples: "
                          + "; ".join(self.fmt_tuple(k) for k in keys))

    def v1_frozen(self, hier, v1path):
        """Whether a group on the freezer path of @v1path is self-freezing."""
        path = v1path
        while path != "/":
            if hier.groups.get(path, {}).get("freezer.self_freezing") == "1":
                return True
            path = path.rpartition("/")[0] or "/"
        return False

    def v2_frozen(self, d):
        return self.above_frozen or any(a.values.get("cgroup.freeze") == "1"
                                        for a in self.base.ancestors(d))

    def check_freezer(self):
        hier = self.view.hier_of("freezer")
        self.above_frozen = self.base.frozen_above_base()
        for pid, t in self.tuples.items():
            leaf = self.base.leaf_of.get(pid)
            want = bool(hier) and self.v1_frozen(hier, t[hier.dir])
            have = leaf is not None and self.v2_frozen(leaf)
            if want != have:
                where = f"{hier.dir}:{t[hier.dir]}" if hier else "no freezer hierarchy"
                self.fail("freezer", f"{self.name(pid)} in {where} should be "
                          f"{'frozen' if want else 'thawed'}, but BASE/"
                          f"{leaf.rel if leaf else '?'} is {'frozen' if have else 'thawed'}")
        if not hier:
            return
        # A thawed group's directory that freezes would freeze whatever comes
        # into it (a frozen group's may instead freeze each of its leaves).
        for d in self.base.dirs.values():
            if d.v1path in hier.groups and not self.v1_frozen(hier, d.v1path) \
                    and self.v2_frozen(d):
                self.fail("freezer", f"freezer:{d.v1path} is thawed but its directory "
                          f"BASE/{d.rel} is frozen")

    def check_limits(self):
        for controller, file, default, split, convert in LIMITS:
            hier = self.view.hier_of(controller)
            for d in self.base.dirs.values():
                if not d.rel or file not in d.values:
                    continue
                value = d.values[file]
                group = hier.groups.get(d.v1path) if hier and d.v1path else None
                expected = convert(group) if group else default
                if accepts(expected, value):
                    continue
                where = f"{hier.dir}:{d.v1path}" if group else "no group"
                if split and self.is_part(hier, d, file, value):
                    continue
                self.fail("limit", f"BASE/{d.rel} {file} is {value!r}, expected "
                          f"{show(expected)!r} ({where})")

    def members(self, hier, v1path):
        return {pid for pid, t in self.tuples.items() if under(t[hier.dir], v1path)}

    def is_part(self, hier, d, file, value):
        """Whether a value tighter than @d's own group's is a part of a split
        limit: a group whose limit is at least @value has members outside its
        own directory, and @d holds only members of it (or, empty, is that
        group's own directory)."""
        procs = {p for p in d.subtree_procs() if p in self.tuples}
        if hier is None or amount(file, value) is None:
            return False
        if d.v1path is None and not procs:
            return True  # an empty leaf of the daemon's may keep a part until it goes
        for v1path, group in hier.groups.items():
            limit = self.group_limit(file, group)
            if limit is None or amount(file, value) > limit:
                continue
            members = self.members(hier, v1path)
            if not (procs <= members if procs else d.v1path == v1path):
                continue
            if self.outside(v1path, members):
                return True
            # Its members gone, an empty leaf outside keeps the pages they left charged,
            # and its part of the limit (seed 20449): the directory has the rest.
            if not procs and d.v1path == v1path and self.kept_charge(file, d):
                return True
        return False

    def outside(self, v1path, members):
        """The members of group @v1path whose leaf is not inside its own directory."""
        own = self.base.dirs.get(self.rel_of(v1path))
        inside = set(own.subtree()) if own else set()
        return [p for p in members if p in self.base.leaf_of and self.base.leaf_of[p] not in inside]

    def rel_of(self, v1path):
        """The base-relative directory of a v1 group path, as the base spells it."""
        for rel, d in self.base.dirs.items():
            if d.v1path == v1path:
                return rel
        return None

    def group_limit(self, file, group):
        conv = {"memory.max": lambda g: bytes_v2(g["memory.limit_in_bytes"]),
                "pids.max": lambda g: g["pids.max"], "cpu.max": _cpu_max}[file]
        try:
            return amount(file, conv(group))
        except KeyError:
            return None

    def check_splits(self):
        for controller, file, _, split, convert in LIMITS:
            hier = self.view.hier_of(controller)
            if not split or not hier:
                continue
            for v1path, group in hier.groups.items():
                limit = self.group_limit(file, group)
                if limit is None:
                    continue
                members = {p for p in self.members(hier, v1path) if p in self.base.leaf_of}
                own = self.base.dirs.get(self.rel_of(v1path))
                cover = set()
                for pid in members:
                    top = None
                    for d in self.base.ancestors(self.base.leaf_of[pid]):
                        if not d.rel or not d.subtree_procs() & set(self.tuples) <= members:
                            break
                        # A part of this limit is no more than it (a larger value is
                        # an enclosing group's).
                        part = amount(file, d.values.get(file, "max"))
                        if part is not None and part <= limit:
                            top = d
                    if top is None:
                        self.fail("split", f"{self.name(pid)}, a member of {hier.dir}:{v1path} "
                                  f"({file} {limit}), runs in BASE/"
                                  f"{self.base.leaf_of[pid].rel} under no part of it")
                    else:
                        cover.add(top.rel)
                # The group's own directory holds a part too, members or not.
                if own is not None and amount(file, own.values.get(file, "max")) is not None:
                    cover.add(own.rel)
                cover = {r for r in cover if not any(r.startswith(o + "/") for o in cover)}
                total = sum(amount(file, self.base.dirs[r].values[file]) for r in cover)
                # cpu.max takes no quota under 1 ms: parts at that least may pass the limit.
                least = file == "cpu.max" and all(
                    self.base.dirs[r].values[file].split()[0] == "1000" for r in cover)
                if total > limit and not least:
                    self.fail("split", f"{hier.dir}:{v1path} {file} {limit}: the parts on "
                              f"{', '.join('BASE/' + r for r in sorted(cover))} add up to {total}")
                inside = own is not None and not self.outside(v1path, members)
                kept = inside and self.kept_charge(file, own)
                if inside and own.values.get(file) is not None \
                        and amount(file, own.values[file]) != limit \
                        and not (kept and amount(file, own.values[file]) < limit):
                    self.fail("split", f"{hier.dir}:{v1path}: every member is inside BASE/"
                              f"{own.rel}, whose {file} is {own.values[file]!r}, not the limit")
                if not kept:
                    self.check_limits_file(hier, v1path, file, inside)

    def kept_charge(self, file, own):
        """Whether empty leaves outside @own hold parts of a memory limit: v1
        charges a group the pages its members used even after they left,
        and in cgroup2 those pages stay in the leaf that was charged, which
        the daemon keeps, with a part, until they are reclaimed."""
        inside = set(own.subtree())
        return file == "memory.max" and any(
            d.v1path is None and d.rel and d not in inside and not d.subtree_procs()
            and amount(file, d.values.get(file, "max")) is not None
            for d in self.base.dirs.values())

    def check_limits_file(self, hier, v1path, file, inside):
        if self.view.limits_file is None:
            return
        for line in self.view.limits_file.splitlines():
            words = line.split()
            if len(words) == 4 and words[0] == hier.dir and words[1] == v1path and words[2] == file:
                if (words[3] == "exact") != bool(inside):
                    self.fail("limits-file", f"cgx.limits says {line!r}, but "
                              f"{'every' if inside else 'not every'} member is inside its directory")
                return
        self.fail("limits-file", f"cgx.limits has no line for {hier.dir} {v1path} {file}")

    def check_cpusets(self):
        hier = self.view.hier_of("cpuset")
        online = read("/sys/devices/system/cpu/online") or ""
        for pid, t in self.tuples.items():
            try:
                with open(f"/proc/{pid}/status") as f:
                    status = dict(line.split(":\t", 1) for line in f.read().splitlines()
                                  if ":\t" in line)
            except OSError:
                continue
            group = hier.groups.get(t[hier.dir]) if hier else None
            want_cpus = group["cpuset.cpus"] if group else online.strip()
            want_mems = group["cpuset.mems"] if group else None
            if cpulist(status.get("Cpus_allowed_list", "")) != cpulist(want_cpus):
                self.fail("cpuset", f"{self.name(pid)} in cpuset:{t[hier.dir] if hier else '/'} "
                          f"may run on CPUs {status.get('Cpus_allowed_list', '').strip()!r}, "
                          f"not {want_cpus!r}")
            if want_mems is not None and \
                    cpulist(status.get("Mems_allowed_list", "")) != cpulist(want_mems):
                self.fail("cpuset", f"{self.name(pid)} in cpuset:{t[hier.dir]} may use nodes "
                          f"{status.get('Mems_allowed_list', '').strip()!r}, not {want_mems!r}")

    def check_strays(self):
        groups = set()
        for h in self.view.hiers.values():
            groups |= set(h.groups)
        for d in self.base.dirs.values():
            if d.rel and d.v1path is not None and d.v1path not in groups:
                self.fail("stray", f"BASE/{d.rel} is the directory of {d.v1path}, a group no "
                          f"hierarchy has ({len(d.subtree_procs())} processes inside)")


def cpulist(text):
    cpus = set()
    for part in text.strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        cpus |= set(range(int(lo), int(hi or lo) + 1))
    return cpus


def check(view, cgroup2, base, pids=(), names=None, files=None):
    """[(kind, message)] of every failure. @view: the view's mount point, or a
    View kept up to date with View.refresh(); @names: {pid: name} for the
    messages; @files: the v2 limit files to check (Base), default all."""
    if isinstance(view, str):
        view = View(view)
    return Checker(view, Base(cgroup2, base, files), pids, names).run()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--view", required=True)
    ap.add_argument("--cgroup2", required=True)
    ap.add_argument("--base", required=True)
    ap.add_argument("--pid", type=int, action="append", default=[],
                    help="a process to check even if no group of the view lists it")
    ap.add_argument("--allow", action="append", default=[],
                    help="a kind of failure to report without failing")
    args = ap.parse_args()
    try:
        failures = check(args.view, args.cgroup2, args.base, args.pid)
    except OSError as e:
        print(f"check: {e}", file=sys.stderr)
        return 2
    bad = 0
    for kind, message in failures:
        allowed = kind in args.allow
        bad += not allowed
        print(f"{kind}{' (allowed)' if allowed else ''}: {message}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

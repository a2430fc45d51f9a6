"""Seeded random v1 programs: a hierarchy layout and 30-200 steps.

A program is plain data (JSON), the same on both guests:

    {"version": GEN_VERSION, "seed": S,
     "layout": ["cpuset", "cpu,cpuacct", ..., "none,name=systemd"],   # mount specs at boot
     "steps": [{"op": "mkdir", "h": "memory", "path": "a/b"}, ...]}

A hierarchy shows as the directory boot_dir(spec) (its controllers, or its
name) when it is there from the start, and as the spec itself when a step
makes it (mkhier), as cgxfs names them (README "Hierarchies at run time").

Steps (h: a hierarchy's directory, path: a group, "" its root):
    mkhier spec                 mount a hierarchy (mkdir VIEW/spec on cgxfs)
    rmhier h                    umount an empty one (rmdir VIEW/h on cgxfs)
    mkdir/rmdir h path          rename h path to
    spawn proc                  a new process, in every root
    fork proc child             proc forks; the child inherits its groups
    exit proc                   SIGKILL, and reaped
    thread proc thread          proc starts a thread;  thread_exit proc thread
    move proc h path file       the runner writes proc's pid to file (tasks or cgroup.procs)
    selfmove proc h path file   proc writes "0" to file itself
    home proc                   proc's pid to cgroup.procs of every root
    write h path file value     echo value > file
    read h path file            ls h path
    probe proc dev mode         proc opens a device (the devices controller's effect)
    send proc                   proc sends a datagram out of d0, an HTB device (the class
                                net_cls and net_prio give its packets)
    dump [full]                 every group's tasks; full: and every exact file

The generator keeps a model of v1 (groups, members, frozen groups, cpusets,
pids limits) only to choose steps that do something: a step the model gets
wrong still runs on both guests and prints what each kernel says. It never
makes a step whose outcome v1 leaves to timing or that cgx documents as not
done (README "Known limits"): a tid written to tasks (cgx moves the whole
process), a command to or kill of a frozen process (v1 keeps it frozen,
cgroup2 lets SIGKILL through).
"""

import random

import known
import v1files

GEN_VERSION = 1

NAMES = ["a", "b", "c", "db", "web"]
ODD_NAMES = ["memory.old", "@x", "cpu.slice"]
HIER_NAMES = ["jobs", "batch", "sched"]
ONLINE_CPUS = {0, 1}  # the guests run with -smp 2
DEVICES = [("/dev/null", "rw"), ("/dev/zero", "r"), ("/dev/full", "w"), ("/dev/loop0", "r")]
# Values of the packet class files that name d0's HTB classes (guest.py: 10:1 and 10:2), drawn
# from a stream of their own: the programs of every seed stay what they were before sends.
NET_VALUES = {"net_cls.classid": ["0x100002", "0x100001", "0"],
              "net_prio.ifpriomap": ["d0 1048578", "d0 0"]}
SEND_RATE = 0.06


def cpuset_parse(text):
    cpus = set()
    for part in text.split(","):
        if part:
            lo, _, hi = part.partition("-")
            cpus |= set(range(int(lo), int(hi or lo) + 1))
    return cpus


class Group:
    def __init__(self, parent=None):
        self.frozen = False
        self.clone = parent.clone if parent else False
        self.notify = parent.notify if parent else False
        self.pids_max = None
        # v1: a new cpuset is empty unless clone_children copies its parent's.
        if parent is None:
            self.cpus, self.mems = set(ONLINE_CPUS), {0}
        elif parent.clone:
            self.cpus, self.mems = set(parent.cpus), set(parent.mems)
        else:
            self.cpus, self.mems = set(), set()


class Hier:
    def __init__(self, spec, dirname):
        self.spec, self.dir = spec, dirname
        self.controllers, self.name, _ = v1files.parse_spec(spec)
        self.groups = {"": Group()}


class Proc:
    def __init__(self, name, member):
        self.name = name
        self.member = dict(member)
        self.threads = []
        self.children = 0


def parent_of(path):
    return path.rpartition("/")[0]


class Model:
    def __init__(self, layout):
        self.hiers = {}
        for spec in layout:
            h = Hier(spec, v1files.boot_dir(spec))
            self.hiers[h.dir] = h
        self.procs = {}
        self.spawned = 0

    # -- what v1 would do ---------------------------------------------------------------
    def bound(self):
        return {c for h in self.hiers.values() for c in h.controllers}

    def names(self):
        return {h.name for h in self.hiers.values() if h.name}

    def with_controller(self, controller):
        return next((h for h in self.hiers.values() if controller in h.controllers), None)

    def frozen(self, proc):
        h = self.with_controller("freezer")
        if not h:
            return False
        path = proc.member.get(h.dir, "")
        while path:
            if h.groups[path].frozen:
                return True
            path = parent_of(path)
        return False

    def members(self, h, path):
        """Processes in group @path or below."""
        return [p for p in self.procs.values()
                if p.member.get(h.dir, "") == path or p.member.get(h.dir, "").startswith(path + "/")]

    def tasks_in(self, h, path):
        return sum(1 + len(p.threads) for p in self.members(h, path))

    def can_add_task(self, proc):
        """Whether a fork or a new thread of @proc passes every pids.max on its path."""
        h = self.with_controller("pids")
        if not h:
            return True
        path = proc.member.get(h.dir, "")
        while path:
            g = h.groups[path]
            if g.pids_max is not None and self.tasks_in(h, path) + 1 > g.pids_max:
                return False
            path = parent_of(path)
        return True

    def can_enter(self, h, path):
        if path not in h.groups:
            return False
        g = h.groups[path]
        return "cpuset" not in h.controllers or not path or (g.cpus and g.mems)

    def move(self, proc, h, path):
        if self.can_enter(h, path):
            proc.member[h.dir] = path

    def mkdir(self, h, path):
        parent = parent_of(path)
        if path in h.groups or parent not in h.groups:
            return
        h.groups[path] = Group(h.groups[parent])

    def rmdir(self, h, path):
        if path and path in h.groups and not self.children(h, path) \
                and not any(p.member.get(h.dir, "") == path for p in self.procs.values()):
            del h.groups[path]

    def children(self, h, path):
        return [g for g in h.groups if g and parent_of(g) == path]

    def rename(self, h, path, to):
        if not path or path not in h.groups or to in h.groups or parent_of(path) != parent_of(to):
            return
        for g in sorted(h.groups):
            if g == path or g.startswith(path + "/"):
                h.groups[to + g[len(path):]] = h.groups.pop(g)
        for p in self.procs.values():
            m = p.member.get(h.dir, "")
            if m == path or m.startswith(path + "/"):
                p.member[h.dir] = to + m[len(path):]

    def write(self, h, path, file, value, valid):
        if path not in h.groups or not valid:
            return
        g = h.groups[path]
        if file == "freezer.state" and path:
            g.frozen = value == "FROZEN"
        elif file == "cgroup.clone_children":
            g.clone = value == "1"
        elif file == "notify_on_release":
            g.notify = value != "0"
        elif file == "pids.max" and path:
            g.pids_max = None if value == "max" else int(value)
        elif file in ("cpuset.cpus", "cpuset.mems") and path:
            new = cpuset_parse(value)
            attr = "cpus" if file == "cpuset.cpus" else "mems"
            parent = getattr(h.groups[parent_of(path)], attr)
            kids = [getattr(h.groups[c], attr) for c in self.children(h, path)]
            if new <= parent and all(k <= new for k in kids) \
                    and (new or not any(p.member.get(h.dir) == path for p in self.procs.values())):
                setattr(g, attr, new)


class Generator:
    def __init__(self, seed, min_steps=30, max_steps=200):
        self.seed = seed
        self.rng = random.Random(seed)
        self.net_rng = random.Random(f"net {seed}")
        self.min_steps, self.max_steps = min_steps, max_steps

    # -- layout ---------------------------------------------------------------------------
    def layout(self):
        rng = self.rng
        if rng.random() < 0.4:
            return list(v1files.CLASSIC)
        controllers = [c for c in v1files.CONTROLLERS if rng.random() < 0.85]
        rng.shuffle(controllers)
        groups = []
        for c in controllers:
            if groups and rng.random() < 0.3:
                groups[-1].append(c)
            else:
                groups.append([c])
        specs = [",".join(sorted(g, key=v1files.CONTROLLERS.index)) for g in groups]
        names = rng.sample(HIER_NAMES, rng.randint(0 if specs else 1, 2))
        for name in names:
            # One name to a hierarchy: a second one is EINVAL (cgroup1_parse_param()).
            if specs and rng.random() < 0.4 and "name=" not in specs[i := rng.randrange(len(specs))]:
                specs[i] += f",name={name}"
            else:
                specs.append(f"none,name={name}")
        return specs

    # -- choices --------------------------------------------------------------------------
    def pick_hier(self, m, controller=None):
        hs = [h for h in m.hiers.values() if controller is None or controller in h.controllers]
        return self.rng.choice(hs) if hs else None

    def pick_place(self, m, root_share=0.15):
        """A hierarchy and one of its groups, a non-root one most of the time."""
        rng = self.rng
        places = [(h, g) for h in m.hiers.values() for g in sorted(h.groups) if g]
        if places and rng.random() >= root_share:
            h, g = rng.choice(places)
            return h, (self.pick_group(h) if rng.random() < 0.05 else g)
        h = self.pick_hier(m)
        return h, ""

    def pick_group(self, h, root_ok=True):
        rng = self.rng
        if rng.random() < 0.05:  # one that may not exist
            return "/".join(rng.choice(NAMES) for _ in range(rng.randint(1, 2)))
        groups = sorted(g for g in h.groups if g)
        if root_ok and (not groups or rng.random() < 0.15):
            return ""
        return rng.choice(groups) if groups else ""

    def new_group_path(self, h):
        rng = self.rng
        parents = [g for g in h.groups if g.count("/") < 2]
        parent = rng.choice(parents)
        name = rng.choice(ODD_NAMES) if rng.random() < 0.03 else rng.choice(NAMES)
        return f"{parent}/{name}" if parent else name

    def live(self, m, commandable=False):
        procs = list(m.procs.values())
        if commandable:
            procs = [p for p in procs if not m.frozen(p)]
        return procs

    # -- steps ----------------------------------------------------------------------------
    def step(self, m):
        rng = self.rng
        kinds = [("mkdir", 12), ("rmdir", 6), ("rename", 2), ("spawn", 3), ("fork", 3),
                 ("exit", 2), ("thread", 2), ("thread_exit", 1), ("move", 20), ("selfmove", 2),
                 ("home", 2), ("write", 18), ("freeze", 5), ("read", 10), ("ls", 1),
                 ("dump", 1), ("probe", 2), ("mkhier", 1), ("rmhier", 1)]
        if sum(len(h.groups) for h in m.hiers.values()) < 2 * len(m.hiers):
            kinds[0] = ("mkdir", 40)  # a tree to work on first
        while True:
            kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
            s = getattr(self, "step_" + kind)(m)
            if s:
                return s

    def step_mkdir(self, m):
        h = self.pick_hier(m)
        path = self.new_group_path(h)
        m.mkdir(h, path)
        return {"op": "mkdir", "h": h.dir, "path": path}

    def step_rmdir(self, m):
        h = self.pick_hier(m)
        path = self.pick_group(h, root_ok=False)
        if not path:
            return None
        m.rmdir(h, path)
        return {"op": "rmdir", "h": h.dir, "path": path}

    def step_rename(self, m):
        h = self.pick_hier(m)
        path = self.pick_group(h, root_ok=False)
        if not path:
            return None
        if self.rng.random() < 0.8:
            to = (parent_of(path) + "/" if parent_of(path) else "") + self.rng.choice(NAMES + ["z"])
        else:
            to = self.new_group_path(h)  # another parent: v1 refuses (EIO)
        m.rename(h, path, to)
        return {"op": "rename", "h": h.dir, "path": path, "to": to}

    def step_spawn(self, m):
        if len(m.procs) >= 8:
            return None
        m.spawned += 1
        name = f"P{m.spawned}"
        m.procs[name] = Proc(name, {})
        return {"op": "spawn", "proc": name}

    def step_fork(self, m):
        procs = self.live(m, commandable=True)
        if not procs or len(m.procs) >= 10:
            return None
        p = self.rng.choice(procs)
        p.children += 1
        child = f"{p.name}.{p.children}"
        if m.can_add_task(p):
            m.procs[child] = Proc(child, p.member)
        return {"op": "fork", "proc": p.name, "child": child}

    def step_exit(self, m):
        procs = self.live(m, commandable=True)
        if not procs:
            return None
        p = self.rng.choice(procs)
        del m.procs[p.name]
        return {"op": "exit", "proc": p.name}

    def step_thread(self, m):
        procs = self.live(m, commandable=True)
        if not procs:
            return None
        p = self.rng.choice(procs)
        name = f"{p.name}.t{len(p.threads) + 1}"
        while name in p.threads:
            name += "x"
        if m.can_add_task(p):
            p.threads.append(name)
        return {"op": "thread", "proc": p.name, "thread": name}

    def step_thread_exit(self, m):
        procs = [p for p in self.live(m, commandable=True) if p.threads]
        if not procs:
            return None
        p = self.rng.choice(procs)
        t = p.threads.pop(self.rng.randrange(len(p.threads)))
        return {"op": "thread_exit", "proc": p.name, "thread": t}

    def move_target(self, m):
        procs = self.live(m)
        if not procs:
            return None
        p = self.rng.choice(procs)
        h, path = self.pick_place(m)
        # A tid in tasks moves one thread in v1 and the whole process in cgx.
        file = "cgroup.procs" if p.threads or self.rng.random() < 0.5 else "tasks"
        return p, h, path, file

    def step_move(self, m):
        t = self.move_target(m)
        if not t:
            return None
        p, h, path, file = t
        m.move(p, h, path)
        return {"op": "move", "proc": p.name, "h": h.dir, "path": path, "file": file}

    def step_selfmove(self, m):
        t = self.move_target(m)
        if not t or m.frozen(t[0]):
            return None
        p, h, path, file = t
        m.move(p, h, path)
        return {"op": "selfmove", "proc": p.name, "h": h.dir, "path": path, "file": file}

    def step_home(self, m):
        procs = self.live(m)
        if not procs:
            return None
        p = self.rng.choice(procs)
        p.member = {}
        return {"op": "home", "proc": p.name}

    def step_write(self, m):
        rng = self.rng
        h, path = self.pick_place(m, 0.2)
        files = [f for f in v1files.writable(h.controllers, not path) if f != "freezer.state"]
        # The files of a limit, a cpuset or the core more often than resets.
        weighted = [f for f in files for _ in range(1 if "failcnt" in f or "max_usage" in f else 3)]
        file = rng.choice(weighted)
        good, bad = v1files.values_of(file)
        valid = bool(good) and (not bad or rng.random() < 0.8)
        value = self.net_value(file, rng.choice(good if valid else bad), valid)
        m.write(h, path, file, value, valid)
        return {"op": "write", "h": h.dir, "path": path, "file": file, "value": value}

    def step_freeze(self, m):
        h = self.pick_hier(m, "freezer")
        if not h:
            return None
        path = self.pick_group(h, root_ok=False)
        if not path:
            return None
        good, bad = v1files.values_of("freezer.state")
        value = self.rng.choice(good) if self.rng.random() < 0.9 else self.rng.choice(bad)
        m.write(h, path, "freezer.state", value, value in good)
        return {"op": "write", "h": h.dir, "path": path, "file": "freezer.state", "value": value}

    def step_read(self, m):
        h, path = self.pick_place(m, 0.2)
        file = self.rng.choice(v1files.readable(h.controllers, not path))
        if file in known.UNREAD:
            return None
        return {"op": "read", "h": h.dir, "path": path, "file": file}

    def step_ls(self, m):
        h = self.pick_hier(m)
        return {"op": "ls", "h": h.dir, "path": self.pick_group(h)}

    def step_dump(self, m):
        return {"op": "dump"}

    def step_probe(self, m):
        # A process in every root lives outside cgxfs's base, where the devices root's rules
        # do not reach it (README "Known limits"); on v1 they do.
        procs = [p for p in self.live(m, commandable=True) if p.member]
        if not procs:
            return None
        dev, mode = self.rng.choice(DEVICES)
        return {"op": "probe", "proc": self.rng.choice(procs).name, "dev": dev, "mode": mode}

    def step_send(self, m):
        """A send, from the stream of its own, where packets have a class to find."""
        rng = self.net_rng
        # A process in every root lives outside cgxfs's base, where no group's class reaches
        # it (docs/mapping.md, "The root group"); v1 gives it the roots' values.
        procs = [p for p in self.live(m, commandable=True) if p.member]
        if not procs or not any({"net_cls", "net_prio"} & set(h.controllers) for h in m.hiers.values()) \
                or rng.random() >= SEND_RATE:
            return None
        return {"op": "send", "proc": rng.choice(procs).name}

    def net_value(self, file, value, valid):
        if valid and file in NET_VALUES and self.net_rng.random() < 0.5:
            return self.net_rng.choice(NET_VALUES[file])
        return value

    def step_mkhier(self, m):
        rng = self.rng
        free = [c for c in v1files.CONTROLLERS if c not in m.bound()]
        names = [n for n in HIER_NAMES if n not in m.names()]
        choice = rng.random()
        if choice < 0.1:
            spec = rng.choice(["bogus", "none", "memory,none,name=q"])
        elif free and choice < 0.6:
            ctrls = sorted(rng.sample(free, min(len(free), rng.randint(1, 2))),
                           key=v1files.CONTROLLERS.index)
            spec = ",".join(ctrls)
            if names and rng.random() < 0.3:
                spec += f",name={rng.choice(names)}"
        elif names:
            forms = ["none,name="] if "mkhier-name-only" in known.AVOID else ["name=", "none,name="]
            spec = rng.choice(forms) + rng.choice(names)
        else:  # every controller and name in use: v1 says EBUSY
            spec = rng.choice(v1files.CONTROLLERS)
        controllers, name, none = v1files.parse_spec(spec)
        real = all(c in v1files.CONTROLLERS for c in controllers)
        # cgroup1_root_to_use(): a new hierarchy takes controllers or "none" (with a name).
        if real and (controllers or (none and name)) and not (none and controllers) \
                and not set(controllers) & m.bound() and name not in m.names() \
                and spec not in m.hiers:
            m.hiers[spec] = Hier(spec, spec)
        return {"op": "mkhier", "spec": spec}

    def step_rmhier(self, m):
        hs = list(m.hiers.values())
        if len(hs) < 2:  # the last one stays: most steps need a hierarchy
            return None
        h = self.rng.choice(hs)
        if len(h.groups) == 1:
            del m.hiers[h.dir]
            for p in m.procs.values():
                p.member.pop(h.dir, None)
        return {"op": "rmhier", "h": h.dir}

    # -- the program ----------------------------------------------------------------------
    def program(self):
        layout = self.layout()
        m = Model(layout)
        n = self.rng.randint(self.min_steps, self.max_steps)
        steps = [self.step_spawn(m)]
        while len(steps) < n - 1:
            steps.append(self.step(m))
            send = self.step_send(m) if len(steps) < n - 1 else None
            if send:
                steps.append(send)
        steps.append({"op": "dump", "full": True})
        return {"version": GEN_VERSION, "seed": self.seed, "layout": layout, "steps": steps}


def program(seed, min_steps=30, max_steps=200):
    return Generator(seed, min_steps, max_steps).program()

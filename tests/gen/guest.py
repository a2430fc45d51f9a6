#!/usr/bin/env python3
"""Runs generated programs inside a tests/vm guest (the guest side of cgx-gen).

    guest.py MODE      (MODE v1 or v2; run by tests/vm/run-guest)

Serves the jobs the host puts in $VM_OUT/jobs/N.json, lowest N first, and
writes each result to $VM_OUT/results/N.json, until a job {"quit": true}.
A job is {"program": PROGRAM, "check": BOOL, "allow": [KIND...]}. Each
program gets its own hierarchy layout:

  v1  the kernel's own hierarchies: every cgroup mount under /sys/fs/cgroup
      is taken away and the layout mounted (mount -t cgroup -o SPEC);
  v2  a cgxfs started for the program with --hierarchies LAYOUT over a fresh
      base, its view at /run/cgxgen/view; with "check", the invariant
      (check.py) runs after every step that may change cgroup2.

A result: {"transcript": [...], "invariant": {"step", "desc", "failures"}
or null, "error": text or null, "seconds", "checks", "check_seconds"}.
When a program leaves the guest unusable (a v1 hierarchy that cannot be
taken away) the result says "tainted" and the server exits 3, so that the
host boots a fresh guest.
"""

import ctypes
import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check  # noqa: E402
import netdev  # noqa: E402
import runner  # noqa: E402
import shell  # noqa: E402
import v1files  # noqa: E402

WORK = "/run/cgxgen"
FIFOS = WORK + "/fifos"
BASE = "cgxgen"
CGROUP = "/sys/fs/cgroup"
PROGRAM_TIMEOUT = 600
# The invariant reads the whole view again this often, and between times only
# what each step can change (check.View.refresh).
FULL_READ_EVERY = 10

libc = ctypes.CDLL(None, use_errno=True)


class Timeout(Exception):
    pass


def poll(condition, timeout, interval=0.05):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)


def errno_of(fn, *args):
    """None when fn(*args) succeeds, else its errno."""
    try:
        fn(*args)
    except OSError as e:
        return e.errno
    return None


def groups_deepest_first(top):
    out = []
    for dirpath, dirnames, _ in os.walk(top):
        out.extend(os.path.join(dirpath, d) for d in dirnames)
    return sorted(out, key=lambda p: -p.count("/"))


def rmdir_retry(path, timeout=5):
    def gone():
        try:
            os.rmdir(path)
        except FileNotFoundError:
            return True
        except OSError:
            return False
        return True
    return poll(gone, timeout, 0.1)


class V1:
    """The kernel's own v1 hierarchies, mounted as the program's layout says."""
    root = CGROUP

    # A controller's root css outlives its hierarchy: the kernel moves it from
    # hierarchy to hierarchy (rebind_subsystems()), so what one program wrote
    # at a root would greet the next one, while cgxfs starts afresh for each.
    # These root settings are put back as the guest booted with them.
    ROOT_STATE = {
        "net_cls": ["net_cls.classid"],
        "net_prio": ["net_prio.ifpriomap"],
        "memory": ["memory.swappiness", "memory.move_charge_at_immigrate"],
        "cpuset": ["cpuset.cpu_exclusive", "cpuset.mem_exclusive", "cpuset.mem_hardwall",
                   "cpuset.memory_migrate", "cpuset.memory_pressure_enabled",
                   "cpuset.memory_spread_page", "cpuset.memory_spread_slab",
                   "cpuset.sched_load_balance", "cpuset.sched_relax_domain_level"],
        "blkio": ["blkio.throttle.read_bps_device", "blkio.throttle.read_iops_device",
                  "blkio.throttle.write_bps_device", "blkio.throttle.write_iops_device"],
        "devices": ["devices.list"],
    }

    def __init__(self):
        subprocess.run(["mount", "-o", "remount,rw", CGROUP], check=True)
        self.mounted = {}  # dir -> spec
        self.restored = set()  # controllers whose root this program has put back
        self.stuck = False  # a layout's mount found a hierarchy that will not go
        self.boot_roots = self.root_state(self.ROOT_STATE)

    def root_state(self, controllers):
        """{(controller, file): content} of the mounted roots of @controllers."""
        state = {}
        for target in self.mounts():
            for controller in controllers:
                for name in self.ROOT_STATE.get(controller, []):
                    try:
                        with open(os.path.join(target, name)) as f:
                            state[(controller, name)] = (target, f.read())
                    except OSError:
                        pass
        return state

    def restore_target(self, target):
        """The ROOT_STATE files of the root mounted at @target written back
        to how the guest booted with them."""
        for controller, files in self.ROOT_STATE.items():
            for name in files:
                try:
                    with open(os.path.join(target, name)) as f:
                        now = f.read()
                except OSError:
                    continue
                boot = self.boot_roots.get((controller, name), (None, now))[1]
                if name == "devices.list":
                    # A root that allows by default lists "a *:* rwm" whatever
                    # it denies (devcgroup_seq_show()): the list cannot tell,
                    # so the boot's allow-all is written back every time.
                    name, lines = "devices.allow", ["a"]
                elif now == boot:
                    continue
                elif name.startswith("blkio.throttle."):
                    lines = [line.split()[0] + " 0" for line in now.splitlines()]
                else:
                    lines = boot.splitlines() or [""]
                for line in lines:
                    path = os.path.join(target, name)
                    # devices.allow: EINVAL while a child removed just now
                    # is still online (css_has_online_children()); its css
                    # goes offline from a work item.
                    deadline = time.monotonic() + 10
                    while (err := errno_of(write_text, path, line)) == errno.EINVAL \
                            and name == "devices.allow" and time.monotonic() < deadline:
                        time.sleep(0.05)
                    if err is not None:
                        raise OSError(err, f"{path}: {os.strerror(err)}")

    def restore_roots(self):
        """The roots mounted now, for the first time in this program, put
        back as the guest booted them. Later mounts in the program keep what
        the kernel kept."""
        fresh = {c for s in self.mounted.values() for c in v1files.parse_spec(s)[0]} - self.restored
        self.restored |= fresh
        for target in self.mounts():
            spec = self.mounted.get(os.path.basename(target), "")
            if set(v1files.parse_spec(spec)[0]) & fresh:
                self.restore_target(target)

    def mounts(self):
        """Directories of /sys/fs/cgroup with a cgroup mount on them."""
        out = []
        with open("/proc/self/mountinfo") as f:
            for line in f:
                fields = line.split()
                fstype = fields[fields.index("-") + 1]
                if fstype == "cgroup" and os.path.dirname(fields[4]) == CGROUP:
                    out.append(fields[4])
        return out

    def cgroups(self):
        """{controller: (hierarchy id, number of cgroups)} from /proc/cgroups."""
        with open("/proc/cgroups") as f:
            return {w[0]: (int(w[1]), int(w[2]))
                    for w in (line.split() for line in f if not line.startswith("#"))}

    def bound(self):
        """Controllers bound to some v1 hierarchy, mounted or dying."""
        return {c for c, (h, _) in self.cgroups().items() if h}

    def released(self, target):
        """Whether the removed groups of the hierarchy at @target are gone for good.
        A removed group lives on, offline, until its last reference goes; an
        umount while one does leaves the hierarchy alive, unmounted, and its
        controllers bound to it (cgroup_kill_sb() kills only a childless root)."""
        spec = self.mounted.get(os.path.basename(target))
        controllers = v1files.parse_spec(spec)[0] if spec else []
        return all(self.cgroups()[c][1] == 1 for c in controllers)

    def mount(self, spec, dirname):
        target = os.path.join(CGROUP, dirname)
        err = errno_of(os.mkdir, target)
        if err is not None:
            return err
        controllers, _, _ = v1files.parse_spec(spec)
        visible = {c for s in self.mounted.values() for c in v1files.parse_spec(s)[0]}
        # A hierarchy just taken away lets its controllers go only once its
        # root is freed (a work item): until then a mount of them says EBUSY.
        poll(lambda: not (set(controllers) - visible) & self.bound(), 30)
        if libc.mount(b"cgroup", target.encode(), b"cgroup", 0, spec.encode()) != 0:
            err = ctypes.get_errno()
            os.rmdir(target)
            return err
        self.mounted[dirname] = spec
        self.sync_aliases()
        return None

    def sync_aliases(self):
        """The controller symlinks a co-mount shows (cpu -> cpu,cpuacct), as on
        a v1 host and in cgxfs's view: a mkhier of an alias name says EEXIST."""
        want = {c: d for d, s in self.mounted.items() for c in v1files.parse_spec(s)[0]
                if len(v1files.parse_spec(s)[0]) > 1}
        for entry in os.scandir(CGROUP):
            if entry.is_symlink() and want.get(entry.name) != os.readlink(entry.path):
                os.unlink(entry.path)
        for c, d in want.items():
            if not os.path.lexists(os.path.join(CGROUP, c)):
                os.symlink(d, os.path.join(CGROUP, c))

    def reset_root_flags(self):
        """A hierarchy that stays between programs (name=systemd) keeps its
        root's flags; a fresh one has these."""
        for target in self.mounts():
            for name, value in (("notify_on_release", "0"), ("cgroup.clone_children", "0"),
                                ("release_agent", "")):
                path = os.path.join(target, name)
                try:
                    with open(path) as f:
                        if f.read().strip() == value:
                            continue
                    with open(path, "w") as f:
                        f.write(value + "\n")
                except OSError:
                    pass

    def reap_lingering(self):
        """Mounts each lingering hierarchy once more and takes it away: an
        umount kills a hierarchy only when its root has no child left
        (cgroup_kill_sb()), and a group just removed stays its child until
        it is released, so the program's last umount may have left it
        alive. By now its children are gone."""
        for h in self.lingering():
            opts = h if set(h.split(",")) - {w for w in h.split(",") if w.startswith("name=")} \
                else "none," + h
            target = os.path.join(WORK, "reap")
            os.makedirs(target, exist_ok=True)
            if libc.mount(b"cgroup", target.encode(), b"cgroup", 0, opts.encode()) == 0:
                poll(lambda: not any(e.is_dir() for e in os.scandir(target)), 5)
                libc.umount2(target.encode(), 0)
            os.rmdir(target)

    def lingering(self):
        """v1 hierarchies alive but mounted nowhere here (/proc/self/cgroup
        lists every one): the kept name=systemd one aside, a hierarchy that
        outlived its program would answer the next one's mounts."""
        with open("/proc/self/cgroup") as f:
            fields = [line.split(":")[1] for line in f if not line.startswith("0::")]
        return [h for h in fields if h != "name=systemd"]

    def setup(self, layout):
        self.clear()
        self.restored = set()
        # A hierarchy still dying under load goes on its own; one that names
        # a layout's hierarchy makes that mount EBUSY, which taints below.
        self.reap_lingering()
        poll(lambda: not self.lingering(), 10)
        for spec in layout:
            # A named hierarchy of the last program may still be dying (its
            # root is freed by a work item): its name says EBUSY until then.
            deadline = time.monotonic() + 30
            while (err := self.mount(spec, v1files.boot_dir(spec))) == errno.EBUSY \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            if err is not None:
                # A hierarchy of that name lives on, unseen: only a fresh guest is clean.
                self.stuck = err == errno.EBUSY
                raise RuntimeError(f"mount -t cgroup -o {spec}: {os.strerror(err)}")
        self.restore_roots()
        self.reset_root_flags()
        # What a program can leave at a root and is not put back (a devices
        # root that denies by default): only a fresh guest is clean.
        for target in self.mounts():
            try:
                with open(os.path.join(target, "devices.list")) as f:
                    rules = f.read().strip()
            except OSError:
                continue
            if rules != "a *:* rwm":
                self.stuck = True
                raise RuntimeError(f"the devices root says {rules!r}, not 'a *:* rwm'")

    def mkhier(self, spec):
        err = self.mount(spec, spec)
        if err is None:
            self.restore_roots()
        return err

    def rmhier(self, dirname):
        target = os.path.join(CGROUP, dirname)
        if dirname not in self.mounted:
            return 2  # ENOENT, as rmdir of a missing directory of the view
        if any(e.is_dir(follow_symlinks=False) for e in os.scandir(target)):
            return 16  # EBUSY: v1 would keep the hierarchy, unseen, until its groups go
        poll(lambda: self.released(target), 20)
        if libc.umount2(target.encode(), 0) != 0:
            return ctypes.get_errno()
        del self.mounted[dirname]
        os.rmdir(target)
        self.sync_aliases()
        return None

    def clear(self):
        """Every cgroup mount and entry of /sys/fs/cgroup taken away; False if one stays."""
        ok = True
        # v1 keeps a frozen task frozen through SIGKILL: thaw every hierarchy first.
        for target in self.mounts():
            self.thaw(target)
        for target in self.mounts():
            ok &= self.empty(target)
            # Put back now, while mounted: the next layout may not mount
            # this controller, and it would keep what this program wrote.
            try:
                self.restore_target(target)
            except OSError:
                ok = False
            ok &= poll(lambda: self.released(target), 20)
            if libc.umount2(target.encode(), 0) != 0:
                ok = False
        self.mounted = {}
        for entry in os.scandir(CGROUP):
            if entry.is_symlink() or entry.is_file():
                os.unlink(entry.path)
            elif not os.path.ismount(entry.path):
                os.rmdir(entry.path)
        return ok

    def thaw(self, top):
        for g in reversed(groups_deepest_first(top)):  # parents first: a child thaws with them
            state = os.path.join(g, "freezer.state")
            if os.path.exists(state):
                with open(state, "w") as f:
                    f.write("THAWED")

    def empty(self, top):
        """Every group of a hierarchy (thawed) rid of its tasks, and removed."""
        groups = groups_deepest_first(top)
        for g in groups:
            try:
                with open(os.path.join(g, "cgroup.procs")) as f:
                    for pid in f.read().split():
                        if int(pid) != os.getpid():
                            os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        return all(rmdir_retry(g) for g in groups)

    def teardown(self, run):
        for d in self.mounted:
            self.thaw(os.path.join(CGROUP, d))
        run.kill_all()
        clean = self.clear() and not self.stuck
        self.stuck = False
        return clean

    def alive(self):
        return None


class V2:
    """cgxfs over a fresh base of a cgroup2 mount (the guest's, or the host's)."""

    def __init__(self, build, work=WORK, cgroup2=CGROUP, base=BASE):
        self.cgxfs = os.path.join(build, "bin", "cgxfs")
        self.work, self.cgroup2, self.base = work, cgroup2, base
        self.root = self.view = os.path.join(work, "view")
        self.daemon = None
        self.log = os.path.join(work, "cgxfs.log")

    def setup(self, layout):
        os.makedirs(self.view, exist_ok=True)
        self.remove_base()
        with open(self.log, "w") as log:
            self.daemon = subprocess.Popen(
                [self.cgxfs, "--cgroup2", self.cgroup2, "--base", self.base, "--log",
                 os.path.join(self.work, "deprecations.jsonl"), "--hierarchies",
                 ";".join(layout), "-f", self.view], stdout=log, stderr=subprocess.STDOUT)
        first = os.path.join(self.view, v1files.boot_dir(layout[0]))
        if not poll(lambda: os.path.isdir(first) or self.daemon.poll() is not None, 20):
            raise RuntimeError("cgxfs did not serve its view within 20 s")
        if self.daemon.poll() is not None:
            raise RuntimeError(f"cgxfs exited {self.daemon.returncode}: {self.log_tail()}")

    def mkhier(self, spec):
        return errno_of(os.mkdir, os.path.join(self.view, spec))

    def rmhier(self, dirname):
        return errno_of(os.rmdir, os.path.join(self.view, dirname))

    def alive(self):
        """None while cgxfs runs, else its exit status."""
        return self.daemon.poll() if self.daemon else None

    def log_tail(self, lines=30):
        try:
            with open(self.log) as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def remove_base(self):
        base = os.path.join(self.cgroup2, self.base)
        if not os.path.isdir(base):
            return True
        with open(os.path.join(base, "cgroup.kill"), "w") as f:
            f.write("1")

        def empty():
            with open(os.path.join(base, "cgroup.events")) as f:
                return "populated 0" in f.read()
        poll(empty, 10)
        return all(rmdir_retry(g) for g in groups_deepest_first(base)) and rmdir_retry(base)

    def teardown(self, run):
        run.kill_all()
        if self.daemon:
            subprocess.run(["fusermount3", "-u", self.view], stderr=subprocess.DEVNULL)
            try:
                self.daemon.wait(10)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()
                subprocess.run(["umount", "-l", self.view], stderr=subprocess.DEVNULL)
            self.daemon = None
        return self.remove_base()


def run_script(platform, job):
    """The program as shell.py renders it, run as tests/vm/diff-guest runs a
    script: in a private mount namespace, over the classic layout (under
    cgxfs: its view bound over /sys/fs/cgroup)."""
    result = {"transcript": [], "invariant": None, "error": None, "tainted": False}
    start = time.monotonic()
    script = os.path.join(WORK, "program.sh")
    with open(script, "w") as f:
        f.write(shell.render(job["program"]))
    run = runner.Runner(platform, FIFOS)
    try:
        platform.setup(v1files.CLASSIC)
        bind = f"mount --rbind {platform.root} /sys/fs/cgroup && " if platform.root != CGROUP else ""
        out = subprocess.run(["unshare", "-m", "--propagation", "private", "bash", "-c",
                              f"{bind}cd /tmp && exec bash {script}"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             timeout=job.get("timeout", PROGRAM_TIMEOUT))
        result["transcript"] = out.stdout.rstrip("\n").split("\n")
    except Exception:
        result["error"] = traceback.format_exc()
    return finish(platform, run, result, start)


def finish(platform, run, result, start):
    """@result with its time, once @platform is clean again (or tainted)."""
    result["seconds"] = time.monotonic() - start
    try:
        if not platform.teardown(run):
            result["tainted"] = True
    except Exception:
        result["tainted"] = True
        result["error"] = (result["error"] or "") + "cleanup: " + traceback.format_exc()
    return result


def run_job(platform, job, fifos=FIFOS):
    if job.get("shell"):
        return run_script(platform, job)
    program = job["program"]
    allow = set(job.get("allow", []))
    result = {"transcript": [], "invariant": None, "error": None, "checks": 0,
              "check_seconds": 0.0, "tainted": False}
    shutil.rmtree(fifos, ignore_errors=True)
    os.makedirs(fifos)
    start = time.monotonic()

    view = []
    ever_set = set()  # v2 limit files some v1 group of this program set

    def daemon_gone(i):
        """Whether cgxfs is gone (the error then names step @i). A daemon that
        crashed may take a while to exit (a core, ASan's report)."""
        status = platform.alive()
        if status is None and not os.path.ismount(platform.root):  # stat: ENOTCONN
            poll(lambda: platform.alive() is not None, 10)
            status = platform.alive()
        if status is not None and not result["error"]:
            result["error"] = f"cgxfs exited {status} after step {i}:\n{platform.log_tail(200)}"
        return status is not None

    def after_step(i, step, run):
        if daemon_gone(i) or not job.get("check") or result["invariant"]:
            return
        t = time.monotonic()
        try:
            if not view or result["checks"] % FULL_READ_EVERY == 0:
                view[:] = [check.View(platform.view)]
            else:
                view[0].refresh(step)
            ever_set.update(check.set_files(view[0]))
            failures = check.check(view[0], platform.cgroup2, platform.base,
                                   run.procs.values(), run.names(), ever_set)
        except OSError as e:
            if e.errno in (errno.ENOTCONN, errno.ECONNABORTED) and daemon_gone(i):
                return
            failures = [("check", f"could not read: {e}")]
        # A process that exited takes its part of a split limit back only
        # when the daemon sees its leaf empty (cgroup.events, at once but
        # not before the exit returns): what the parts say settles. Nothing
        # can use the stale part meanwhile: the group has no member left to
        # fork, and one that joins is rebalanced for before it moves.
        # The parts of a split also move at every rebalance (the watcher's,
        # once a second), and the checker reads them one file at a time: an
        # old part beside a new one may add up to more than the kernel ever
        # held (shrinks are written before grows). A sum over the limit is a
        # divergence when the next reading shows it too.
        settling = step["op"] in ("exit", "thread_exit")
        retry = ("limit", "split", "limits-file") if settling else ("split",)
        deadline = time.monotonic() + (3 if settling else 0.1)
        while failures and all(f[0] in retry for f in failures) and \
                time.monotonic() < deadline:
            time.sleep(0.1)
            try:
                view[:] = [check.View(platform.view)]
                failures = check.check(view[0], platform.cgroup2, platform.base,
                                       run.procs.values(), run.names(), ever_set)
            except OSError as e:
                failures = [("check", f"could not read: {e}")]
        result["checks"] += 1
        result["check_seconds"] += time.monotonic() - t
        failures = [f for f in failures if f[0] not in allow]
        if failures:
            result["invariant"] = {"step": i, "desc": runner.describe(step),
                                   "failures": [f"{k}: {m}" for k, m in failures]}

    def alarm(*_):
        raise Timeout()

    run = runner.Runner(platform, fifos, after_step)
    signal.signal(signal.SIGALRM, alarm)
    signal.alarm(job.get("timeout", PROGRAM_TIMEOUT))
    try:
        platform.setup(program["layout"])
        result["transcript"] = run.run(program)
        daemon_gone(len(program["steps"]))
    except Timeout:
        result["error"] = f"timed out after {job.get('timeout', PROGRAM_TIMEOUT)} s"
    except Exception:
        result["error"] = traceback.format_exc()
    finally:
        signal.alarm(0)
    return finish(platform, run, result, start)


def serve(mode, outdir):
    jobs, results = os.path.join(outdir, "jobs"), os.path.join(outdir, "results")
    os.makedirs(results, exist_ok=True)
    os.makedirs(WORK, exist_ok=True)
    platform = V1() if mode == "v1" else V2(os.environ["CGX_BUILD"])
    if not netdev.setup():
        print(f"guest {mode}: no {netdev.DEV}: send steps skip", flush=True)
    while True:
        names = sorted((n for n in os.listdir(jobs) if n.endswith(".json")),
                       key=lambda n: int(n.split(".")[0])) if os.path.isdir(jobs) else []
        if not names:
            time.sleep(0.2)
            continue
        path = os.path.join(jobs, names[0])
        try:
            with open(path) as f:
                job = json.load(f)
        except (OSError, ValueError):  # taken back by the host meanwhile
            continue
        if job.get("quit"):
            os.unlink(path)
            return 0
        result = run_job(platform, job)
        tmp = os.path.join(results, names[0] + ".tmp")
        with open(tmp, "w") as f:
            json.dump(result, f)
        os.rename(tmp, os.path.join(results, names[0]))
        try:
            os.unlink(path)
        except OSError:
            pass
        print(f"guest {mode}: job {names[0]} in {result['seconds']:.1f}s"
              f"{' (error)' if result['error'] else ''}", flush=True)
        if result["tainted"]:
            return 3


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1], os.environ["VM_OUT"]))

"""Runs a generated program against a v1 tree and prints what it sees.

The transcript has one line per step, "NNN STEP -> RESULT", where RESULT is
"ok", the errno's text as the shell prints it, or what a read showed with
newlines as "|". Pids and tids are shown by name (P1, P1.t1, P1.2); a pid
the program did not make is left out of a root group and shown as "?"
elsewhere; statistics show their shape only (v1files.read_rule). Nothing in
it depends on timing or on which kernel answered, so the transcripts of the
two guests compare line by line (shell.py prints the same from bash).

The platform (a v1 kernel, or cgxfs) is given as an object with root (the
directory holding the hierarchies) and mkhier(spec)/rmhier(dir) returning
None or an errno.
"""

import errno
import os
import select
import signal
import time

import known
import netdev
import v1files
import worker

ANSWER_TIMEOUT = 4.0   # s: a frozen worker never answers
EXIT_TIMEOUT = 5.0     # s: a killed process leaves once reaped
FREEZING_TIMEOUT = 5.0  # s: v1's FREEZING while tasks enter the refrigerator
DYING_CHILD_TIMEOUT = 5.0  # s: a removed child's css goes offline from a work item
SEND_TIMEOUT = 2.0  # s: a datagram reaches its class as it is sent, through HTB at 1 Gbit/s


# How each step reads in a transcript; {where} is the group ("h/path").
FORMATS = {
    "mkdir": "mkdir {where}", "rmdir": "rmdir {where}", "ls": "ls {where}",
    "rename": "rename {where} {h}/{to}", "mkhier": "mkhier {spec}", "rmhier": "rmhier {h}",
    "spawn": "spawn {proc}", "fork": "fork {proc} {child}", "exit": "exit {proc}",
    "thread": "thread {proc} {thread}", "thread_exit": "thread_exit {proc} {thread}",
    "move": "move {proc} {where}/{file}", "selfmove": "selfmove {proc} {where}/{file}",
    "home": "home {proc}", "write": "write {where}/{file} '{value}'",
    "read": "read {where}/{file}", "probe": "probe {proc} {dev} {mode}",
    "send": "send {proc}",
}


def describe(step):
    if step["op"] == "dump":
        return "dump full" if step.get("full") else "dump"
    where = f"{step['h']}/{step['path']}".rstrip("/") if "h" in step and "path" in step else ""
    return FORMATS[step["op"]].format(where=where, **step)


# Steps that cannot change what cgroup2 holds: the invariant is not checked after them.
READ_ONLY = {"read", "ls", "dump", "probe", "send"}


def errtext(err):
    return os.strerror(err)


class Runner:
    def __init__(self, platform, fifo_dir, after_step=None):
        self.platform = platform
        self.root = platform.root
        self.fifo_dir = fifo_dir
        self.after_step = after_step  # (index, step, runner) -> None
        self.procs = {}    # name -> pid
        self.threads = {}  # thread name -> (proc name, tid)
        self.children = set()  # pids this process forked (to reap)
        self.fds = {}      # name -> (cmd fd, ack fd, pending bytes)
        self.seq = 0
        self.hiers = []

    # -- names of pids ----------------------------------------------------------------------
    def names(self):
        n = {pid: name for name, pid in self.procs.items()}
        for tname, (_, tid) in self.threads.items():
            n[tid] = tname
        return n

    def show_ids(self, text, root):
        names = self.names()
        shown = []
        for word in text.split():
            if int(word) in names:
                shown.append(names[int(word)])
            elif not root:
                shown.append("?")
        return " ".join(sorted(shown))

    # -- workers ----------------------------------------------------------------------------
    def make_fifos(self, name):
        for ext in ("cmd", "ack"):
            path = os.path.join(self.fifo_dir, f"{name}.{ext}")
            if os.path.exists(path):
                os.unlink(path)
            os.mkfifo(path)
        cmd = os.open(os.path.join(self.fifo_dir, f"{name}.cmd"), os.O_RDWR)
        ack = os.open(os.path.join(self.fifo_dir, f"{name}.ack"), os.O_RDWR | os.O_NONBLOCK)
        self.fds[name] = [cmd, ack, b""]

    def answer(self, name, seq, timeout=ANSWER_TIMEOUT):
        """The words of @name's answer to @seq, or None after @timeout."""
        entry = self.fds[name]
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in entry[2]:
                line, entry[2] = entry[2].split(b"\n", 1)
                words = line.decode().split("\t")
                if words[0] == str(seq):
                    return words[1:]
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([entry[1]], [], [], left)[0]:
                return None
            entry[2] += os.read(entry[1], 4096)

    def command(self, name, *words):
        self.seq += 1
        os.write(self.fds[name][0], ("\t".join((str(self.seq),) + words) + "\n").encode())
        return self.answer(name, self.seq)

    def result(self, words):
        if words is None:
            return "no answer"
        if words[0] == "ok":
            return "ok"
        return errtext(int(words[1]))

    def spawn(self, name):
        self.make_fifos(name)
        pid = os.fork()
        if pid == 0:
            try:
                worker.serve(self.fifo_dir, name)
            finally:
                os._exit(0)
        self.children.add(pid)
        ready = self.answer(name, 0, 10)
        if not ready:
            return "no answer"
        self.procs[name] = pid
        return "ok"

    def fork(self, parent, child):
        self.make_fifos(child)
        words = self.command(parent, "fork", child)
        if words is None or words[0] != "ok":
            return self.result(words)
        if not self.answer(child, 0, 10):
            return "no answer"
        self.procs[child] = int(words[1])
        return "ok"

    def gone(self, pid):
        if pid in self.children:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:
                self.children.discard(pid)
            return bool(done)
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            return True

    def exit(self, name):
        pid = self.procs[name]
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            # A worker that died on its own (a bug of the harness): say so on both kernels alike.
            return "already gone"
        deadline = time.monotonic() + EXIT_TIMEOUT
        while not self.gone(pid):
            if time.monotonic() > deadline:
                return "still there"
            time.sleep(0.02)
        del self.procs[name]
        for t in [t for t, (p, _) in self.threads.items() if p == name]:
            del self.threads[t]
        return "ok"

    def reap(self):
        for pid in list(self.children):
            self.gone(pid)

    # -- files ------------------------------------------------------------------------------
    def path(self, step, *more):
        parts = [self.root, step["h"]] + ([step["path"]] if step.get("path") else []) + list(more)
        return os.path.join(*parts)

    def write(self, path, value):
        try:
            fd = os.open(path, os.O_WRONLY)
        except OSError as e:
            return errtext(e.errno)
        try:
            os.write(fd, (value + "\n").encode())
            return "ok"
        except OSError as e:
            return errtext(e.errno)
        finally:
            os.close(fd)

    def read_raw(self, path):
        with open(path, "rb") as f:
            return f.read().decode(errors="replace")

    def show(self, path, name, root):
        """What a read of file @name at @path shows, comparable between kernels."""
        try:
            text = self.read_raw(path)
            if name == "freezer.state":
                deadline = time.monotonic() + FREEZING_TIMEOUT
                while text.strip() == "FREEZING" and time.monotonic() < deadline:
                    time.sleep(0.05)
                    text = self.read_raw(path)
        except OSError as e:
            return errtext(e.errno)
        rule = v1files.read_rule(name)
        if rule == "ids":
            return "= " + self.show_ids(text, root)
        if rule == "devices":
            text = v1files.nonzero_devices(text)
        if rule in ("shape", "devices"):
            text = v1files.shape(text)
        if rule == "hits":
            text = v1files.hits(text)
        return "= " + text.rstrip("\n").replace("\n", "|")

    def groups(self, hier):
        """The groups of a hierarchy, "" first, parents before children."""
        out = []
        top = os.path.join(self.root, hier)
        for dirpath, dirnames, _ in os.walk(top):
            dirnames.sort()
            out.append("" if dirpath == top else os.path.relpath(dirpath, top))
        return sorted(out, key=lambda g: g.split("/"))

    def dump(self, full):
        lines = []
        for hier in sorted(self.hiers):
            try:
                groups = self.groups(hier)
            except OSError as e:
                lines.append(f"  {hier}: {errtext(e.errno)}")
                continue
            for g in groups:
                step = {"h": hier, "path": g}
                tasks = self.show(self.path(step, "tasks"), "tasks", not g)
                if full or tasks != "= ":
                    lines.append(f"  {hier}/{g}".rstrip("/") + f" tasks {tasks}")
                if not full:
                    continue
                try:
                    files = sorted(os.listdir(self.path(step)))
                except OSError as e:
                    lines.append(f"  {hier}/{g}: {errtext(e.errno)}")
                    continue
                for name in files:
                    p = self.path(step, name)
                    if name in ("tasks", "cgroup.procs") or name in known.UNREAD \
                            or os.path.isdir(p):
                        continue
                    if not os.stat(p).st_mode & 0o444:
                        continue
                    lines.append(f"  {hier}/{g}".rstrip("/") + f" {name} {self.show(p, name, not g)}")
        return lines

    # -- steps ------------------------------------------------------------------------------
    def need(self, *names):
        for n in names:
            if n not in self.procs:
                return f"skip: no process {n}"
        return None

    def do(self, step):
        op = step["op"]
        if op in ("spawn",):
            if step["proc"] in self.procs:
                return f"skip: {step['proc']} exists"
            return self.spawn(step["proc"])
        if op in ("fork", "exit", "thread", "thread_exit", "move", "selfmove", "home", "probe",
                  "send"):
            missing = self.need(step["proc"])
            if missing:
                return missing
        if op == "mkdir":
            return self.syscall(os.mkdir, self.path(step))
        if op == "rmdir":
            return self.syscall(os.rmdir, self.path(step))
        if op == "rename":
            return self.syscall(os.rename, self.path(step),
                                os.path.join(self.root, step["h"], step["to"]))
        if op == "mkhier":
            err = self.platform.mkhier(step["spec"])
            if err is None:
                self.hiers.append(step["spec"])
            return "ok" if err is None else errtext(err)
        if op == "rmhier":
            err = self.platform.rmhier(step["h"])
            if err is None and step["h"] in self.hiers:
                self.hiers.remove(step["h"])
            return "ok" if err is None else errtext(err)
        if op == "fork":
            if step["child"] in self.procs:
                return f"skip: {step['child']} exists"
            return self.fork(step["proc"], step["child"])
        if op == "exit":
            return self.exit(step["proc"])
        if op == "thread":
            if step["thread"] in self.threads:
                return f"skip: {step['thread']} exists"
            words = self.command(step["proc"], "thread", step["thread"])
            if words and words[0] == "ok":
                self.threads[step["thread"]] = (step["proc"], int(words[1]))
            return self.result(words)
        if op == "thread_exit":
            if self.threads.get(step["thread"], (None,))[0] != step["proc"]:
                return f"skip: no thread {step['thread']}"
            words = self.command(step["proc"], "thread_exit", step["thread"])
            if words and words[0] == "ok":
                del self.threads[step["thread"]]
            return self.result(words)
        if op == "move":
            return self.write(self.path(step, step["file"]), str(self.procs[step["proc"]]))
        if op == "selfmove":
            return self.result(self.command(step["proc"], "write",
                                            self.path(step, step["file"]), "0"))
        if op == "home":
            bad = []
            for hier in sorted(self.hiers):
                r = self.write(os.path.join(self.root, hier, "cgroup.procs"),
                               str(self.procs[step["proc"]]))
                if r != "ok":
                    bad.append(f"{hier}: {r}")
            return "; ".join(bad) or "ok"
        if op == "write":
            result = self.write(self.path(step, step["file"]), step["value"])
            deadline = time.monotonic() + DYING_CHILD_TIMEOUT
            while result == errtext(errno.EINVAL) and self.dying_child_refuses(step) and \
                    time.monotonic() < deadline:
                time.sleep(0.05)
                result = self.write(self.path(step, step["file"]), step["value"])
            return result
        if op == "read":
            return self.show(self.path(step, step["file"]), step["file"], not step["path"])
        if op == "ls":
            try:
                entries = sorted(os.listdir(self.path(step)))
            except OSError as e:
                return errtext(e.errno)
            return "= " + " ".join(e + ("/" if os.path.isdir(self.path(step, e)) else "")
                                   for e in entries)
        if op == "probe":
            return self.result(self.command(step["proc"], "open", step["dev"], step["mode"]))
        if op == "send":
            return self.send(step["proc"])
        if op == "dump":
            return "\n".join(["="] + self.dump(step.get("full", False)))
        raise ValueError(f"unknown step {op}")

    def dying_child_refuses(self, step):
        """Kernel v1 refuses a devices "a" rule while the group has children, and counts a
        child removed just now until its css goes offline, from a work item: with none
        listed, an EINVAL is that timing, which cgxfs does not have."""
        if step["file"] not in ("devices.allow", "devices.deny") or \
                not step["value"].lstrip().startswith("a"):
            return False
        try:
            return not any(e.is_dir() for e in os.scandir(self.path(step)))
        except OSError:
            return False

    def send(self, name):
        """The class of d0 that a datagram @name sends now reaches."""
        before = netdev.counts()
        if before is None:
            return "skip: no " + netdev.DEV
        words = self.command(name, "send", netdev.ADDRESS)
        if not words or words[0] != "ok":
            return self.result(words)
        deadline = time.monotonic() + SEND_TIMEOUT
        while True:
            after = netdev.counts() or {}
            grown = sorted(c for c in after if after[c] > before.get(c, 0))
            if grown or time.monotonic() > deadline:
                return "= " + (" ".join(grown) or "nowhere")
            time.sleep(0.02)

    def syscall(self, fn, *args):
        try:
            fn(*args)
            return "ok"
        except OSError as e:
            return errtext(e.errno)

    def run(self, program):
        """The transcript lines of @program (its layout already set up)."""
        self.hiers = [v1files.boot_dir(spec) for spec in program["layout"]]
        lines = []
        for i, step in enumerate(program["steps"], 1):
            result = self.do(step)
            self.reap()
            lines.append(f"{i:03d} {describe(step)} -> {result}")
            if self.after_step and step["op"] not in READ_ONLY:
                self.after_step(i, step, self)
        return lines

    def kill_all(self):
        for name in list(self.procs):
            try:
                os.kill(self.procs[name], signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + EXIT_TIMEOUT
        while any(not self.gone(pid) for pid in self.procs.values()):
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        self.procs.clear()
        self.threads.clear()
        for cmd, ack, _ in self.fds.values():
            os.close(cmd)
            os.close(ack)
        self.fds.clear()

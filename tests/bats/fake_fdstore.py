#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""systemd's file descriptor store as cgxfs --fdstore sees it, for keepalive.bats.

    fake_fdstore.py SCENARIO CGXFS CG2 BASE MOUNTPOINT DIR

Binds DIR/notify as $NOTIFY_SOCKET, keeps what FDSTORE=1 hands it under its
FDNAME, drops a name on FDSTOREREMOVE=1 (sd_notify(3)), and starts the next
daemon with the store in $LISTEN_FDS (sd_listen_fds(3)). Prints what it saw,
one fact a line, for the test to match.

  reuse  a daemon killed; the next takes the connection up from the store
  stale  the mount gone at the stop while the store kept its FUSE_INIT; the
         next daemon mounts anew and must leave one entry per name
"""
import atexit
import os
import socket
import subprocess
import sys

scenario, cgxfs, cg2, base, mnt, workdir = sys.argv[1:]
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(workdir + "/notify")
sock.settimeout(30)
env = dict(os.environ, NOTIFY_SOCKET=workdir + "/notify")
args = ["-f", "--fdstore", "--cgroup2", cg2, "--base", base, "--log", "", mnt]
store = []  # (name, fd), in the order stored, as systemd keeps them


def serve_store():
    """Applies the daemon's messages to the store until READY=1; returns them."""
    messages = []
    while True:
        msg, fds, _, _ = socket.recv_fds(sock, 1024, 4)
        for fd in fds:
            os.set_inheritable(fd, False)  # a daemon gets the store in $LISTEN_FDS only
        fields = dict(line.split("=", 1) for line in msg.decode().split("\n") if "=" in line)
        messages.append(msg.decode().replace("\n", " "))
        if fields.get("FDSTORE") == "1":
            store.append((fields["FDNAME"], fds[0]))
        elif fields.get("FDSTOREREMOVE") == "1":
            for name, fd in [e for e in store if e[0] == fields["FDNAME"]]:
                os.close(fd)
                store.remove((name, fd))
        if fields.get("READY") == "1":
            return messages


def start_from_store():
    def hand_down():
        for i, (_, fd) in enumerate(store):
            os.dup2(fd, 3 + i)

    names = ":".join(name for name, _ in store)
    return subprocess.Popen(["sh", "-c", 'LISTEN_PID=$$ exec "$@"', "sh", cgxfs] + args,
                            env=dict(env, LISTEN_FDS=str(len(store)), LISTEN_FDNAMES=names),
                            preexec_fn=hand_down, close_fds=False, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


def memfds_of(pid):
    """The inode of each FUSE_INIT memfd the daemon holds."""
    inodes = []
    for fd in os.listdir("/proc/%d/fd" % pid):
        path = "/proc/%d/fd/%s" % (pid, fd)
        # A serving daemon opens and closes fds of its own meanwhile (a request's).
        try:
            if os.readlink(path).startswith("/memfd:cgxfs-fuse-init"):
                inodes.append(os.stat(path).st_ino)
        except FileNotFoundError:
            pass
    return inodes


def stop(daemon):
    daemon.terminate()
    _, err = daemon.communicate()
    return err


# Never the test's stdout: a daemon left running would keep its `run` waiting.
daemon = subprocess.Popen([cgxfs] + args, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
# A scenario that fails half way leaves no daemon serving behind it.
atexit.register(lambda: daemon.poll() is None and daemon.kill())
serve_store()
print("stored", " ".join(sorted(name for name, _ in store)))

if scenario == "reuse":
    os.mkdir(mnt + "/memory/g2")
    with open(mnt + "/memory/g2/notify_on_release", "w") as f:
        f.write("1")
    held = os.open(mnt + "/memory/g2/notify_on_release", os.O_RDONLY)
    ino = os.stat(mnt + "/memory/g2").st_ino
    daemon.kill()
    daemon.wait()
    daemon = start_from_store()
    print("messages", " | ".join(serve_store()))
    print("after restart", os.pread(held, 100, 0).decode().strip(),
          os.stat(mnt + "/memory/g2").st_ino == ino)
    print("store", " ".join(sorted(name for name, _ in store)))
    os.close(held)
    err = stop(daemon)
elif scenario == "stale":
    # What the trial saw under systemd 252: the stop unmounts, systemd sees
    # POLLHUP on /dev/fuse and drops it, the memfd stays in the store.
    old_init = os.fstat(dict(store)["fuse-init"]).st_ino
    stop(daemon)
    subprocess.run(["umount", "-l", mnt], check=True)
    for name, fd in [e for e in store if e[0] == "fuse"]:
        os.close(fd)
        store.remove((name, fd))
    daemon = start_from_store()
    print("messages", " | ".join(serve_store()))
    print("store", " ".join(sorted(name for name, _ in store)))
    held = memfds_of(daemon.pid)
    print("daemon memfds", len(held), "old one held", old_init in held)
    print("answers", os.path.isdir(mnt + "/memory"))
    err = stop(daemon)
else:
    sys.exit("unknown scenario " + scenario)
print("stderr:", err.replace("\n", " | "))
# The store lets go, as systemd does at a stop: the connection ends.
for _, fd in store:
    os.close(fd)

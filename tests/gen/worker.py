#!/usr/bin/env python3
"""A process a generated program moves around: it forks, starts and ends
threads, writes and opens files when told to.

    worker.py DIR NAME

Commands come as lines "SEQ<TAB>VERB<TAB>ARG..." on the FIFO DIR/NAME.cmd;
each answer is "SEQ<TAB>ok[<TAB>VALUE]" or "SEQ<TAB>err<TAB>ERRNO<TAB>TEXT" on
DIR/NAME.ack. Once ready it says "0<TAB>ok<TAB>PID". Both FIFOs are opened
read-write, so neither side ever blocks in open() and a frozen worker only
delays its answers (SEQ lets the asker drop the late ones).

    fork CHILD         fork; the child serves CHILD's FIFOs (made beforehand)
    thread TNAME       start a thread; answers its tid
    thread_exit TNAME  end that thread
    write PATH VALUE   open PATH for writing and write VALUE and a newline
    open PATH MODE     open PATH with MODE r, w or rw, and close it
    send ADDRESS       send one UDP datagram to ADDRESS port 9 from a new socket

The runner forks this from itself (serve()); a shell script runs this file.
"""

import errno
import os
import signal
import socket
import sys
import threading


def serve(fifo_dir, name):
    # Children the worker forks are reaped by the kernel, never left as zombies.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    cmd = os.open(os.path.join(fifo_dir, name + ".cmd"), os.O_RDWR)
    ack = os.open(os.path.join(fifo_dir, name + ".ack"), os.O_RDWR)
    threads = {}

    def answer(seq, *words):
        os.write(ack, ("\t".join((seq,) + words) + "\n").encode())

    answer("0", "ok", str(os.getpid()))
    pending = b""
    while True:
        chunk = os.read(cmd, 4096)
        if not chunk:
            os._exit(0)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            seq, verb, *args = line.decode().split("\t")
            if verb == "fork":
                try:
                    pid = os.fork()
                except OSError as e:  # EAGAIN past pids.max: the worker lives on
                    answer(seq, "err", str(e.errno), os.strerror(e.errno))
                    continue
                if pid == 0:
                    os.close(cmd)
                    os.close(ack)
                    serve(fifo_dir, args[0])
                answer(seq, "ok", str(pid))
            elif verb == "thread":
                started, stop = threading.Event(), threading.Event()
                box = []

                def body(box=box, started=started, stop=stop):
                    box.append(threading.get_native_id())
                    started.set()
                    stop.wait()

                t = threading.Thread(target=body, daemon=True)
                try:
                    t.start()
                except RuntimeError:  # clone refused past pids.max: the worker lives on
                    answer(seq, "err", str(errno.EAGAIN), os.strerror(errno.EAGAIN))
                    continue
                started.wait()
                threads[args[0]] = (t, stop)
                answer(seq, "ok", str(box[0]))
            elif verb == "thread_exit":
                t, stop = threads.pop(args[0])
                stop.set()
                t.join()
                answer(seq, "ok")
            elif verb in ("write", "open"):
                try:
                    if verb == "write":
                        fd = os.open(args[0], os.O_WRONLY)
                        try:
                            os.write(fd, (args[1] + "\n").encode())
                        finally:
                            os.close(fd)
                    else:
                        flags = {"r": os.O_RDONLY, "w": os.O_WRONLY, "rw": os.O_RDWR}[args[1]]
                        os.close(os.open(args[0], flags))
                    answer(seq, "ok")
                except OSError as e:
                    answer(seq, "err", str(e.errno), os.strerror(e.errno))
            elif verb == "send":
                # A new socket each time: cgroup2 keeps a socket in the cgroup that made it.
                try:
                    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                        s.sendto(b"x" * 64, (args[0], 9))
                    answer(seq, "ok")
                except OSError as e:
                    answer(seq, "err", str(e.errno), os.strerror(e.errno))
            else:
                answer(seq, "err", "22", os.strerror(22))


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])

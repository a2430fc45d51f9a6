#!/usr/bin/python3
# Registers memory event listeners in bulk, as an unprivileged user flooding
# cgxfs would: event-flood.py MODE COUNT GROUP [THRESHOLD].
#   distinct  COUNT eventfds, each registered once on GROUP/memory.usage_in_bytes
#   same      one eventfd registered COUNT times with the same file and threshold
#   soak      COUNT attempts cycling through a new eventfd, a duplicate of the
#             last registration and another threshold on the last eventfd
# Prints one line "ok N ERRNAME N ..." once done, then holds every eventfd
# until killed (a registration ends when no process holds its eventfd).
# /usr/bin/python3 on purpose: a user other than root runs it.
import errno
import os
import resource
import sys
import time

mode, count, group = sys.argv[1], int(sys.argv[2]), sys.argv[3]
threshold = sys.argv[4] if len(sys.argv) > 4 else "1G"

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

cfd = os.open(f"{group}/memory.usage_in_bytes", os.O_RDONLY)
control = os.open(f"{group}/cgroup.event_control", os.O_WRONLY)
results = {}
eventfds = []


def register(efd, args):
    try:
        os.write(control, f"{efd} {cfd} {args}".encode())
        name = "ok"
    except OSError as e:
        name = errno.errorcode.get(e.errno, str(e.errno))
    results[name] = results.get(name, 0) + 1
    return name == "ok"


def new_eventfd():
    try:
        eventfds.append(os.eventfd(0, os.EFD_NONBLOCK))
        return eventfds[-1]
    except OSError as e:
        # The flooder's own table is full: count it, keep trying duplicates.
        name = "own-" + errno.errorcode.get(e.errno, str(e.errno))
        results[name] = results.get(name, 0) + 1
        return eventfds[-1] if eventfds else None


if mode == "distinct":
    for _ in range(count):
        efd = new_eventfd()
        if efd is not None:
            register(efd, threshold)
elif mode == "same":
    efd = new_eventfd()
    for _ in range(count):
        register(efd, threshold)
elif mode == "soak":
    last = new_eventfd()
    for i in range(count):
        step = i % 3
        if step == 0:
            efd = new_eventfd()
            if efd is not None and register(efd, threshold):
                last = efd
        elif step == 1:
            register(last, threshold)
        else:
            register(last, f"{i % 4096 + 1}M")
else:
    sys.exit(f"unknown mode {mode}")

print(" ".join(f"{name} {n}" for name, n in sorted(results.items())), flush=True)
while True:
    time.sleep(1000)

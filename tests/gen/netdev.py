"""d0, the device a generated program's packets leave by (the "send" step).

A dummy device with an HTB root 10: and three classes: 10:1 and 10:2, which
the classids and ifpriomap values of gen.NET_VALUES name, and 10:3 for
what nothing classifies. The tc "cgroup" filter is set up as v1 users set
it up: on kernel v1 it gives a packet its sender's net_cls.classid; on a
cgroup2 kernel it finds none, and the class comes from the priority cgxfs's
egress program gives (HTB takes a priority naming a class before filters).
Both guests set it up once (guest.py); the host's generated runs have none.
"""

import subprocess

DEV = "d0"
ADDRESS = "10.9.0.2"  # d0 has 10.9.0.1/24; dummy needs no neighbour
CLASSES = ("10:1", "10:2", "10:3")


def setup():
    """Makes d0 unless it is there; False where this kernel cannot (no dummy module)."""
    if subprocess.run(["ip", "link", "show", DEV], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode == 0:
        return True
    cmds = [["ip", "link", "add", DEV, "type", "dummy"],
            # No IPv6: the kernel's own router solicitations would add packets.
            ["sysctl", "-qw", f"net.ipv6.conf.{DEV}.disable_ipv6=1"],
            ["ip", "link", "set", DEV, "txqueuelen", "1000", "up"],
            ["ip", "addr", "add", "10.9.0.1/24", "dev", DEV],
            ["tc", "qdisc", "add", "dev", DEV, "root", "handle", "10:", "htb", "default", "3"]]
    cmds += [["tc", "class", "add", "dev", DEV, "parent", "10:", "classid", c, "htb",
              "rate", "1gbit"] for c in CLASSES]
    cmds.append(["tc", "filter", "add", "dev", DEV, "parent", "10:", "protocol", "ip", "prio",
                 "10", "handle", "1:", "cgroup"])
    for c in cmds:
        if subprocess.run(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
            subprocess.run(["ip", "link", "del", DEV], stderr=subprocess.DEVNULL)
            return False
    return True


def counts():
    """Packets sent by each class of d0, or None without d0."""
    out = subprocess.run(["tc", "-s", "class", "show", "dev", DEV], capture_output=True,
                         text=True)
    if out.returncode:
        return None
    sent, klass = {}, None
    for line in out.stdout.splitlines():
        words = line.split()
        if words[:1] == ["class"]:
            klass = words[2]
        elif words[:1] == ["Sent"] and klass:
            sent[klass] = int(words[3])
    return sent

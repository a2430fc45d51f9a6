# Real traffic through HTB and PRIO classes, for the net_cls and net_prio
# suites: the host's (in a network namespace of the test's own) and the
# guests' (the guest's own namespace). Sourced; needs ip, tc and python3.

# Bytes of one datagram of PAYLOAD bytes on an Ethernet-like device: UDP,
# IPv4 and Ethernet headers, as tc counts them.
NETCLASS_PAYLOAD=200
NETCLASS_WIRE=$((NETCLASS_PAYLOAD + 8 + 20 + 14))

# HTB root 10: on device $1 with classes 10:1 and 10:2 (10:1 capped at
# $2, 10:2 unlimited) and unclassified traffic going straight through.
netclass_htb_setup() {
	local dev=$1 rate=${2:-100mbit}
	tc qdisc replace dev "$dev" root handle 10: htb
	tc class add dev "$dev" parent 10: classid 10:1 htb rate "$rate" ceil "$rate"
	tc class add dev "$dev" parent 10: classid 10:2 htb rate 1gbit
}

# PRIO root 20: on device $1: bands 20:1, 20:2, 20:3, chosen by priority.
netclass_prio_setup() {
	tc qdisc replace dev "$1" root handle 20: prio bands 3 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
}

# "CLASS PACKETS BYTES" for each class of device $1, sorted.
netclass_counters() {
	tc -s class show dev "$1" | awk '
		/^class/ { class = $3 }
		/Sent/ { print class, $4, $2 }' | sort
}

# The packets and bytes of class $2 on device $1: "PACKETS BYTES".
netclass_class() {
	netclass_counters "$1" | awk -v c="$2" '$1 == c { print $2, $3 }'
}

# Sends $2 datagrams of NETCLASS_PAYLOAD bytes to address $1 port 9, each
# from a new socket (so that a socket made after a move or a write is the
# one that counts), as the process that runs it. SO_PRIORITY $3 when given.
netclass_send() {
	python3 - "$1" "$2" "${3:-}" <<'PY'
import socket, sys
addr, n, prio = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for _ in range(n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if prio:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_PRIORITY, int(prio))
    s.sendto(b"x" * 200, (addr, 9))
    s.close()
PY
}

# A sender that keeps one socket: it sends a datagram to $1 port 9 for each
# line it reads on FIFO $2, as the process that runs it (exec it).
netclass_socket_sender() {
	exec python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
with open(sys.argv[2]) as poke:
    for _ in poke:
        s.sendto(b"x" * 200, (sys.argv[1], 9))' "$1" "$2"
}

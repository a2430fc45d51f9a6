# Differential: net_cls and net_prio with real packets. Two dummy devices:
# d0 with HTB classes 10:1 and 10:2 and the cgroup filter v1 users set up
# (cgroup2 has no net_cls for it to read: under cgxfs the class comes from
# the priority its egress program gives), d1 with a PRIO qdisc whose bands
# take the priorities net_prio gives. Each sender sends from new sockets,
# so that the group it is in when it sends is the one that counts.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/netclass-traffic.bash" || exit 1
cd /sys/fs/cgroup || exit 1
h=net_cls,net_prio
for d in d0 d1; do
  ip link add $d type dummy || exit 1
  # No IPv6: the kernel's own router solicitations would add packets.
  echo 1 >/proc/sys/net/ipv6/conf/$d/disable_ipv6
  ip link set $d txqueuelen 1000 up
done
ip addr add 10.9.0.1/24 dev d0
ip addr add 10.9.1.1/24 dev d1
netclass_htb_setup d0 100kbit
tc filter add dev d0 parent 10: protocol ip prio 10 handle 1: cgroup
# Bands: priority 5 -> 20:1, 6 -> 20:2, anything else -> 20:3.
tc qdisc add dev d1 root handle 20: prio bands 3 priomap 2 2 2 2 2 0 1 2 2 2 2 2 2 2 2 2

# Sends $3 datagrams to $2 from a new process of group $1.
send() {
  bash -c 'echo $$ >"$1/tasks" || exit 99; shift; netclass_send "$@"' _ "$h/$1" "$2" "$3" "${4:-}"
}
export -f netclass_send
# Waits for HTB to send what its rate held back, then prints the classes of $1.
counters() {
  for _ in $(seq 100); do
    tc -s qdisc show dev $1 | grep -q 'backlog 0b 0p' && break
    sleep 0.2
  done
  netclass_counters $1 | sed 's/^/  /'
}

mkdir $h/a $h/b $h/none $h/p $h/q
echo 0x100001 >$h/a/net_cls.classid
echo 0x100002 >$h/b/net_cls.classid
echo "## classid: a=10:1 b=10:2, none unclassified"
send a 10.9.0.2 10
send b 10.9.0.2 7
send none 10.9.0.2 5
counters d0
echo "## a new classid takes effect for the packets after it"
echo 0x100002 >$h/a/net_cls.classid
send a 10.9.0.2 4
echo 0x100001 >$h/a/net_cls.classid
counters d0
echo "## a process that moves takes its packets along"
bash -c 'echo $$ >"$1/tasks"; netclass_send 10.9.0.2 3; echo $$ >"$2/tasks"; netclass_send 10.9.0.2 6' _ $h/a $h/b
counters d0
echo "## a child takes its parent's classid when made"
mkdir $h/a/child
echo 0x100002 >$h/a/net_cls.classid
send a/child 10.9.0.2 2
counters d0
echo "## SO_PRIORITY wins"
send a/child 10.9.0.2 3 $((0x100002))
counters d0
echo "## the rate limit holds: 10:1 at 100kbit is over its limit, 10:2 is not"
bash -c 'echo $$ >"$1/tasks"; python3 -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(100): s.sendto(b\"x\" * 200, (\"10.9.0.2\", 9))"' _ $h/a/child
tc -s class show dev d0 | awk '/^class/ { c = $3 } /overlimits/ { print "  " c, ($9 + 0 > 0 ? "over its limit" : "within") }' | sort
counters d0

echo "## ifpriomap: p=5 q=6 on d1, q with a classid too; none without"
echo "d1 5" >$h/p/net_prio.ifpriomap
echo "d1 6" >$h/q/net_prio.ifpriomap
echo 0x100001 >$h/q/net_cls.classid
send p 10.9.1.2 3
send q 10.9.1.2 4
send none 10.9.1.2 2
counters d1
echo "## q's classid still classifies on d0, where q has no entry"
send q 10.9.0.2 5
counters d0
echo "## ifpriomap entry removed: p's packets fall to band 3"
echo "d1 0" >$h/p/net_prio.ifpriomap
send p 10.9.1.2 2
counters d1
echo "## ifpriomap: $(grep -E '^d[01] ' $h/p/net_prio.ifpriomap | tr '\n' ' ')/ $(grep -E '^d[01] ' $h/q/net_prio.ifpriomap | tr '\n' ' ')"

for g in a/child a b none p q; do rmdir $h/$g; done
ip link del d0
ip link del d1

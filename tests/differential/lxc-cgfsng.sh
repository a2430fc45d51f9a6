# Differential: LXC's cgfsng driver on a legacy (v1) host, as plain shell:
# lxc.monitor.NAME in every hierarchy, cgroup.clone_children set to 1 on the
# cpuset parent so that lxc.payload.NAME starts with cpus and mems, a name
# collision answered EEXIST and retried as NAME-1 (the groups already made
# removed first), the lxc.cgroup.* settings in the order of the config
# (devices last), the init moved through each hierarchy's tasks, lxc-freeze's
# freezer.state polling, a group the container's own init makes inside the
# payload, and lxc-stop's cleanup through lxc.pivot. Only errnos, read-backs
# and names are printed, never pids or usage values.
cd /sys/fs/cgroup || exit 1
E=/tmp/lxc-cgfsng.err
. "${0%/*}/view.bash"   # try
# The errno text is what follows the last ": " of the message.
wr() { local e; if { echo "$2" > "$1"; } 2>$E; then echo ok; else read -r e < $E; echo "${e##*: }"; fi; }
r1() { local v; read -r v < "$1" 2>$E || { read -r v < $E; v=${v##*: }; }; echo "$v"; }
rd() { local a; mapfile -t a < "$1" 2>$E || { read -r a < $E; echo "${a##*: }"; return; }; ((${#a[@]} == 0)) || printf '%s|' "${a[@]}"; }
yn() { if "$@"; then echo yes; else echo no; fi; }
names() { # the pids of file $1 as names, sorted
  local p a out=()
  mapfile -t a < "$1"
  for p in "${a[@]}"; do
    case $p in "$mon") out+=(MONITOR) ;; "$init") out+=(INIT) ;; "$inner") out+=(INNER) ;; *) out+=(OTHER) ;; esac
  done
  ((${#out[@]} == 0)) || { out=$(printf '%s\n' "${out[@]}" | sort); echo ${out//$'\n'/ }; }
}
# The root's clone_children is the host's: give it back whatever happens.
read -r clone0 < cpuset/cgroup.clone_children
trap 'echo "$clone0" > /sys/fs/cgroup/cpuset/cgroup.clone_children' EXIT

# Every hierarchy as cgfsng finds it, the name=systemd one included.
hiers="cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb pids rdma misc systemd"
n=c1

echo "## the cpuset hierarchy's parent"
echo "root clone_children=$(r1 cpuset/cgroup.clone_children) cpus=$(r1 cpuset/cpuset.cpus) mems=$(r1 cpuset/cpuset.mems)"

echo "## lxc.monitor.$n: made before clone_children is set"
sleep 1000 & mon=$!
init= inner=
for h in $hiers; do printf '%s ' "$h:$(try mkdir $h/lxc.monitor.$n)"; done
echo
echo "monitor cpuset: clone_children=$(r1 cpuset/lxc.monitor.$n/cgroup.clone_children) cpus=[$(r1 cpuset/lxc.monitor.$n/cpuset.cpus)] mems=[$(r1 cpuset/lxc.monitor.$n/cpuset.mems)]"
echo "join it empty: $(wr cpuset/lxc.monitor.$n/cgroup.procs $mon)"
# cpuset1_initialize(): an empty cpus or mems is copied from the parent
echo "copy cpus: $(wr cpuset/lxc.monitor.$n/cpuset.cpus "$(r1 cpuset/cpuset.cpus)") mems: $(wr cpuset/lxc.monitor.$n/cpuset.mems "$(r1 cpuset/cpuset.mems)")"
for h in $hiers; do printf '%s ' "$h:$(wr $h/lxc.monitor.$n/cgroup.procs $mon)"; done
echo
echo "monitor in: $(for h in $hiers; do printf '%s ' "[$(names $h/lxc.monitor.$n/cgroup.procs)]"; done)"

echo "## cgroup.clone_children=1 on the parent"
echo "write 1: $(wr cpuset/cgroup.clone_children 1) -> $(r1 cpuset/cgroup.clone_children)"
echo "write 2: $(wr cpuset/cgroup.clone_children 2) -> $(r1 cpuset/cgroup.clone_children)"
echo "write x: $(wr cpuset/cgroup.clone_children x) -> $(r1 cpuset/cgroup.clone_children)"
echo "write 1 again: $(wr cpuset/cgroup.clone_children 1) -> $(r1 cpuset/cgroup.clone_children)"
echo "clone_children of the other roots: $(for h in memory devices freezer; do r1 $h/cgroup.clone_children; done | tr '\n' ' ')"

echo "## lxc.payload.$n: a stale memory group collides"
mkdir memory/lxc.payload.$n
made=()
for h in $hiers; do
  r=$(try mkdir $h/lxc.payload.$n)
  printf '%s ' "$h:$r"
  [ "$r" = ok ] || break
  made+=($h)
done
echo
# the groups made so far are removed before the next name is tried
for h in "${made[@]}"; do printf '%s ' "undo $h:$(try rmdir $h/lxc.payload.$n)"; done
echo
P=lxc.payload.$n-1
for h in $hiers; do printf '%s ' "$h:$(try mkdir $h/$P)"; done
echo
echo "stale group removed: $(try rmdir memory/lxc.payload.$n)"
echo "payload cpuset: clone_children=$(r1 cpuset/$P/cgroup.clone_children) cpus=[$(r1 cpuset/$P/cpuset.cpus)] mems=[$(r1 cpuset/$P/cpuset.mems)] same as the root: $(yn test "$(r1 cpuset/$P/cpuset.cpus)" = "$(r1 cpuset/cpuset.cpus)")"
echo "other payloads: memory clone_children=$(r1 memory/$P/cgroup.clone_children) devices.list=$(rd devices/$P/devices.list)"

echo "## lxc.cgroup.* in the config's order, devices last"
echo "memory.limit_in_bytes 256M: $(wr memory/$P/memory.limit_in_bytes 268435456) -> $(r1 memory/$P/memory.limit_in_bytes)"
echo "memory.limit_in_bytes 256M as text '256M': $(wr memory/$P/memory.limit_in_bytes 256M) -> $(r1 memory/$P/memory.limit_in_bytes)"
echo "cpuset.cpus 0: $(wr cpuset/$P/cpuset.cpus 0) -> $(r1 cpuset/$P/cpuset.cpus)"
echo "cpuset.cpus 0-1023: $(wr cpuset/$P/cpuset.cpus 0-1023) -> $(r1 cpuset/$P/cpuset.cpus)"
echo "cpuset.mems 0: $(wr cpuset/$P/cpuset.mems 0) -> $(r1 cpuset/$P/cpuset.mems)"
for r in "deny a" "allow c *:* m" "allow b *:* m" "allow c 1:3 rwm" "allow c 1:5 rwm" "allow c 5:0 rwm" \
         "allow c 5:1 rwm" "allow c 5:2 rwm" "allow c 136:* rwm" "allow c 10:229 rwm" "deny c 1:5 w"; do
  printf '%s ' "'$r':$(wr devices/$P/devices.${r%% *} "${r#* }")"
done
echo
echo "devices.list: $(rd devices/$P/devices.list)"
echo "a malformed rule 'c 1:3 rwx': $(wr devices/$P/devices.allow 'c 1:3 rwx') 'z *:* m': $(wr devices/$P/devices.allow 'z *:* m') 'c 1:3': $(wr devices/$P/devices.allow 'c 1:3')"

echo "## the init enters every hierarchy through tasks"
sleep 1000 & init=$!
for h in $hiers; do printf '%s ' "$h:$(wr $h/$P/tasks $init)"; done
echo
echo "payload tasks: $(for h in $hiers; do printf '%s ' "[$(names $h/$P/tasks)]"; done)"
echo "monitor still alone: $(for h in cpuset memory freezer; do printf '%s ' "[$(names $h/lxc.monitor.$n/tasks)]"; done)"
echo "inside: /dev/null $( (echo $BASHPID > devices/$P/tasks && try head -c1 /dev/null) ) /dev/zero $( (echo $BASHPID > devices/$P/tasks && try dd if=/dev/zero of=/dev/null count=1 status=none) ) /dev/kmsg $( (echo $BASHPID > devices/$P/tasks && try head -c1 /dev/kmsg) )"
echo "Cpus_allowed_list of INIT: $(awk '/Cpus_allowed_list/ {print $2}' /proc/$init/status)"

echo "## the container's init makes its own groups inside the payload"
sleep 1000 & inner=$!
for h in $hiers; do printf '%s ' "$h:$(try mkdir $h/$P/init.scope)"; done
echo
echo "nested cpuset: clone_children=$(r1 cpuset/$P/init.scope/cgroup.clone_children) cpus=[$(r1 cpuset/$P/init.scope/cpuset.cpus)] mems=[$(r1 cpuset/$P/init.scope/cpuset.mems)]"
echo "nested devices.list: $(rd devices/$P/init.scope/devices.list)"
echo "nested widens the devices, 'a': $(wr devices/$P/init.scope/devices.allow a) 'c 1:7 rwm': $(wr devices/$P/init.scope/devices.allow 'c 1:7 rwm') narrows 'c 1:3 rwm': $(wr devices/$P/init.scope/devices.deny 'c 1:3 rwm')"
echo "nested devices.list after: $(rd devices/$P/init.scope/devices.list)"
for h in $hiers; do printf '%s ' "$h:$(wr $h/$P/init.scope/tasks $inner)"; done
echo
echo "payload=[$(names freezer/$P/tasks)] init.scope=[$(names freezer/$P/init.scope/tasks)]"
echo "nested memory limit 512M over the payload's 256M: $(wr memory/$P/init.scope/memory.limit_in_bytes 536870912) -> $(r1 memory/$P/init.scope/memory.limit_in_bytes) hierarchical: $(grep '^hierarchical_memory_limit ' memory/$P/init.scope/memory.stat)"
echo "cpuset.cpus of the nested group outside the payload's, 0-1: $(wr cpuset/$P/init.scope/cpuset.cpus 0-1) -> $(r1 cpuset/$P/init.scope/cpuset.cpus)"

echo "## lxc-freeze: FROZEN written, freezer.state polled until it says FROZEN"
seen=
for _ in {1..100}; do
  echo FROZEN > freezer/$P/freezer.state
  read -r s < freezer/$P/freezer.state
  case $s in FREEZING | FROZEN) ;; *) seen+=" $s" ;; esac
  [ "$s" = FROZEN ] && break
  sleep 0.05
done
echo "state: $s other states seen:[${seen# }]"
echo "nested: $(r1 freezer/$P/init.scope/freezer.state) self_freezing=$(r1 freezer/$P/init.scope/freezer.self_freezing) parent_freezing=$(r1 freezer/$P/init.scope/freezer.parent_freezing)"
echo "payload: self_freezing=$(r1 freezer/$P/freezer.self_freezing) parent_freezing=$(r1 freezer/$P/freezer.parent_freezing)"
echo "thaw the nested only: $(wr freezer/$P/init.scope/freezer.state THAWED) -> $(r1 freezer/$P/init.scope/freezer.state)"
echo "a task moved in while frozen: $(wr freezer/$P/tasks $mon) -> [$(names freezer/$P/tasks)] back: $(wr freezer/lxc.monitor.$n/tasks $mon)"
echo "lxc-unfreeze: $(wr freezer/$P/freezer.state THAWED) -> $(r1 freezer/$P/freezer.state) nested $(r1 freezer/$P/init.scope/freezer.state)"
echo "lowercase 'frozen': $(wr freezer/$P/freezer.state frozen) FREEZING: $(wr freezer/$P/freezer.state FREEZING) -> $(r1 freezer/$P/freezer.state)"

echo "## lxc-stop: kill, the monitor to lxc.pivot, the trees removed"
echo "rmdir the busy payload: $(try rmdir memory/$P) with a child: $(try rmdir devices/$P)"
{ # bash reports the killed jobs, with their pids, on stderr
  kill -9 $init $inner
  wait $init $inner
} 2>/dev/null
for _ in {1..50}; do [ -s memory/$P/tasks ] || [ -s memory/$P/init.scope/tasks ] || break; sleep 0.1; done
for h in $hiers; do printf '%s ' "$h:$(try rmdir $h/$P/init.scope),$(try rmdir $h/$P)"; done
echo
for h in $hiers; do printf '%s ' "$h:$(try mkdir $h/lxc.pivot),$(wr $h/lxc.pivot/cgroup.procs $mon),$(try rmdir $h/lxc.monitor.$n)"; done
echo
echo "lxc.pivot holds: [$(names memory/lxc.pivot/tasks)] cpuset cpus=[$(r1 cpuset/lxc.pivot/cpuset.cpus)]"
{ kill -9 $mon; wait $mon; } 2>/dev/null
for _ in {1..50}; do [ -s memory/lxc.pivot/tasks ] || break; sleep 0.1; done
for h in $hiers; do printf '%s ' "$h:$(try rmdir $h/lxc.pivot)"; done
echo
echo "clone_children back: $(wr cpuset/cgroup.clone_children "$clone0") -> $(r1 cpuset/cgroup.clone_children)"

# tests/clients/systemd.bash: the body of systemd-nspawn.sh and systemd-unshare.sh.
# Client tier (tests/vm/README.md): an old userland's init as a container's
# PID 1. systemd 252 of a Debian 12 root (scripts/install-clients) boots in
# legacy mode, as an image whose systemd knows only v1 does
# (systemd.unified_cgroup_hierarchy=0 systemd.legacy_systemd_cgroup_controller=1
# on its command line), in v1 groups "ct" made for the container:
#   LAUNCHER=nspawn   systemd-nspawn --boot, SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=0,
#                     --register=no --keep-unit (the guest has no systemd, no
#                     bus). nspawn mounts the controller hierarchies read-only
#                     for the container, so its units get no limits, on v1 too.
#   LAUNCHER=unshare  unshare --pid --mount --uts --ipc --cgroup, a read-only
#                     sysfs, a /dev of a few nodes, chroot: systemd mounts the
#                     hierarchies itself and gives its units their limits.
# Inside, a unit reports when the boot is over: the system state, failed
# units, each unit's state and control group, /proc/1/cgroup, the cgroup
# mounts, systemd-cgls, and the v1 limits of a service with MemoryLimit=,
# CPUShares=, BlockIOWeight= and TasksMax=; then it stops that service, runs a
# scope and powers off. Outside: the container's groups, and in the v2 guest
# the real cgroup2 limits of the service.
. "$(dirname "${BASH_SOURCE[0]}")/effects.bash"
. "$(dirname "${BASH_SOURCE[0]}")/effects-log.bash"
. "$(dirname "${BASH_SOURCE[0]}")/debian-rootfs.bash"

work=/run/cgx-systemd root=/run/cgx-systemd/root ctl=/run/cgx-systemd/ctl
hierarchies=(cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb
	pids rdma misc systemd)
mkdir -p "$work" "$ctl"
debian_rootfs "$root" || exit 1
cd /sys/fs/cgroup || exit 1

# What the container runs once booted: a report, then the end of its life.
cat >"$root/ctl-inside" <<'INSIDE'
#!/bin/sh
# No pid, no time, no id: what both kernels must show alike.
exec >/ctl/report 2>&1
echo "state: $(systemctl is-system-running --wait)"
echo "failed: $(systemctl list-units --failed --plain --no-legend | awk '{print $1}' | tr '\n' ' ')"
for u in -.slice init.scope system.slice svc.service report.service systemd-journald.service \
	dbus.service systemd-logind.service; do
	echo "$u: $(systemctl show -p ActiveState --value -- "$u") $(systemctl show -p ControlGroup --value -- "$u")"
done
systemctl -q is-failed systemd-logind.service && journalctl -b -u systemd-logind -u dbus -o cat --no-pager | tail -n 15
echo "/proc/1/cgroup:"
cat /proc/1/cgroup
echo "cgroup mounts:"
awk '$5 ~ "^/sys/fs/cgroup" { for (i = 7; $i != "-"; i++); print $4, $5, $6, $(i + 1), $(i + 3) }' \
	/proc/self/mountinfo | sort
echo "cgls:"
systemd-cgls --no-pager 2>&1 | grep -v '→' | sed -E 's/─ *[0-9]+ /─PID /; s/ \(#[0-9]+\)//'
echo "svc's v1 limits:"
for f in memory/memory.limit_in_bytes cpu,cpuacct/cpu.shares pids/pids.max; do
	echo "$f: $(cat "/sys/fs/cgroup/${f%%/*}/system.slice/svc.service/${f#*/}" 2>&1 | sed 's/.*: //')"
done
echo "blkio weight files: $(ls /sys/fs/cgroup/blkio/system.slice/svc.service 2>&1 | grep -c weight)"
echo ready >/ctl/ready
read -r _ </ctl/go
exec >/ctl/report2 2>&1
systemctl stop svc.service
echo "svc after stop: $(systemctl show -p ActiveState --value svc.service)"
for h in memory pids cpu,cpuacct systemd; do
	[ -d "/sys/fs/cgroup/$h/system.slice/svc.service" ] && echo "$h: svc.service's group is left"
done
systemd-run --quiet --scope --unit=probe /bin/sh -c \
	'echo "a scope: $(grep -E "name=systemd|:memory:|:pids:" /proc/self/cgroup | tr "\n" " ")"'
echo "powering off"
systemctl poweroff
INSIDE
chmod 755 "$root/ctl-inside"
units=$root/etc/systemd/system
cat >"$units/report.service" <<'UNIT'
[Unit]
Description=cgx test: report when the boot is over
After=multi-user.target
[Service]
ExecStart=/ctl-inside
[Install]
WantedBy=multi-user.target
UNIT
cat >"$units/svc.service" <<'UNIT'
[Unit]
Description=cgx test: a service with v1-era resource directives
[Service]
ExecStart=/bin/sleep infinity
MemoryLimit=64M
CPUShares=512
BlockIOWeight=300
TasksMax=40
[Install]
WantedBy=multi-user.target
UNIT
mkdir -p "$units/multi-user.target.wants"
ln -s ../report.service ../svc.service "$units/multi-user.target.wants/"
# What a container has no use for, as LXC's templates mask it: udev, kernel
# modules and sysctls are the host's, and no console login.
for u in systemd-udevd.service systemd-udev-trigger.service systemd-modules-load.service \
	systemd-sysctl.service systemd-binfmt.service proc-sys-fs-binfmt_misc.automount \
	sys-kernel-debug.mount sys-kernel-tracing.mount sys-kernel-config.mount \
	sys-fs-fuse-connections.mount getty@tty1.service console-getty.service; do
	ln -sf /dev/null "$units/$u"
done
echo ct >"$root/etc/hostname"
mkdir -p "$root/ctl"
mkfifo "$ctl/go" "$ctl/moved"

init_args=(systemd.unified_cgroup_hierarchy=0 systemd.legacy_systemd_cgroup_controller=1)
case $LAUNCHER in
nspawn)
	launch() {
		exec env SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=0 systemd-nspawn -q --boot -D "$root" \
			--register=no --keep-unit --console=pipe --bind="$ctl:/ctl" "${init_args[@]}"
	}
	;;
unshare)
	# The container's /dev: a few nodes bound from the guest's, console
	# included (systemd writes its status there); /sys read-only, as a
	# container manager gives it (CONTAINER_INTERFACE).
	launch() {
		mount --bind "$ctl" "$root/ctl"
		exec env -i container=cgx-unshare PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			unshare --pid --mount --uts --ipc --cgroup --fork --mount-proc="$root/proc" \
			/bin/sh -c '
				root=$1; shift
				mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
				mount -t tmpfs -o mode=755,nosuid tmpfs "$root/dev"
				for d in null zero full random urandom tty; do
					touch "$root/dev/$d"; mount --bind "/dev/$d" "$root/dev/$d"
				done
				touch "$root/dev/console"; mount --bind /dev/null "$root/dev/console"
				mkdir "$root/dev/pts" "$root/dev/shm"
				ln -s /proc/self/fd "$root/dev/fd"
				hostname ct
				exec chroot "$root" /lib/systemd/systemd "$@"' sh "$root" "${init_args[@]}"
	}
	;;
*)
	echo "LAUNCHER must be nspawn or unshare"
	exit 1
	;;
esac

# systemd moves a service's process into its groups one hierarchy at a time
# (cg_attach_everywhere()): the pages it touches on the way stay charged to
# the transient leaves, which cgxfs keeps, each with a part of the group's
# memory limit (tests/clients/README.md, "Known limits"). So the effect is
# the tightest memory.max on the path, plus the parts of the base's empty
# leaves, making up the limit.
memory_split_holds() {
	local pid=$1 want=$2 cg c v tight=max held=0
	effect_on || return 0
	cg=$(effect_resolve "$pid") || { effect_why="no cgroup holds $pid"; return 1; }
	while read -r c; do
		read -r v <"$(effect_base)$c/memory.max" 2>/dev/null || continue
		[[ $v != max && ($tight == max || $v -lt $tight) ]] && tight=$v
	done < <(effect_path "$cg")
	[[ $tight == "$want" ]] && return 0
	while read -r c; do
		[[ -s $c/cgroup.procs ]] && continue
		read -r v <"$c/memory.max" 2>/dev/null && [[ $v != max ]] && held=$((held + v))
	done < <(find "$(effect_base)/" -type d -name '@*')
	[[ $tight != max ]] && ((tight < want && tight + held >= want)) && return 0
	effect_why="memory.max: the tightest on $cg is $tight, and empty leaves hold $held, not $want"
	return 1
}

for h in "${hierarchies[@]}"; do mkdir "$h/ct"; done
# A new cpuset has no CPU and no node: a move into it is ENOSPC.
cat cpuset/cpuset.cpus >cpuset/ct/cpuset.cpus
cat cpuset/cpuset.mems >cpuset/ct/cpuset.mems
# The launcher starts in the groups: moved there while it waits on a fifo,
# as runc moves its container's first process.
(
	read -r _ <"$ctl/moved"
	launch
) >"$ctl/launcher.out" 2>&1 &
launcher=$!
for ((i = 0; i < 100; i++)); do
	[[ $(<"/proc/$launcher/wchan") == @(fifo_open|wait_for_partner) ]] && break
	sleep 0.1
done
for h in "${hierarchies[@]}"; do echo "$launcher" >"$h/ct/cgroup.procs"; done
echo moved >"$ctl/moved"
started=$SECONDS
for ((i = 0; i < 1500; i++)); do [[ -e $ctl/ready ]] && break; sleep 0.4; done
# The boot's time goes to the guest's console log, not to what is compared.
echo "cgx-systemd: $LAUNCHER container booted in $((SECONDS - started)) s" >/dev/kmsg 2>/dev/null
if [[ ! -e $ctl/ready ]]; then
	echo "the container did not report within 600 s"
	tail -n 20 "$ctl/launcher.out"
	# Its init: the launcher's child (unshare) or grandchild (nspawn's payload).
	init=$(pgrep -f -n '^/(usr/)?lib/systemd/systemd systemd.unified_cgroup_hierarchy=0')
	if [[ -n $init ]]; then
		nsenter -t "$init" -m -p -r -w systemctl list-jobs --no-pager | head -n 20
		nsenter -t "$init" -m -p -r -w journalctl -b --no-pager -o short-monotonic | tail -n 60
	fi
fi
cat "$ctl/report"

echo "-- outside"
find systemd/ct -mindepth 1 -type d \( -name '*.service' -o -name '*.scope' \) | sed 's|.*/ct/||' |
	grep -E 'svc|report|init' | sort
svc=$(find systemd/ct -type d -name svc.service | head -n1)
pid=$(head -n1 "$svc/cgroup.procs" 2>/dev/null)
echo "svc.service has a process: $([[ -n $pid ]] && echo yes || echo no)"
# cgxfs's deprecation log names each unit the container's systemd made
# groups for (issue 21).
effect_logged systemd svc.service report.service init.scope
if [[ $LAUNCHER == unshare ]]; then
	echo "memory/ct/system.slice/svc.service: $(<memory/ct/system.slice/svc.service/memory.limit_in_bytes)"
	effect_until memory_split_holds "$pid" 67108864
	effect_limit "$pid" pids.max 40
	effect_value "$pid" cpu.weight 59
	# What the same units need on a unified systemd: their own drop-ins.
	effect_dropin ct/svc.service "[Service]" MemoryMax=67108864 TasksMax=40 CPUWeight=59
fi
effect_cgroup cg "$pid"

echo go >"$ctl/go"
for ((i = 0; i < 600; i++)); do kill -0 "$launcher" 2>/dev/null || break; sleep 0.2; done
kill -0 "$launcher" 2>/dev/null && { echo "still running 120 s after poweroff"; kill -9 "$launcher"; }
wait "$launcher"
echo "launcher exit: $?"
cat "$ctl/report2"
[[ -z $cg ]] || effect_gone "$cg"

echo "-- after"
for h in "${hierarchies[@]}"; do
	left=$(find "$h/ct" -mindepth 1 -type d | wc -l)
	((left)) && echo "$h: $left groups left"
	find "$h/ct" -mindepth 1 -depth -type d -exec rmdir {} \;
	rmdir "$h/ct"
done
umount "$root/ctl" 2>/dev/null
debian_rootfs_gone "$root"
rm -rf "$work"

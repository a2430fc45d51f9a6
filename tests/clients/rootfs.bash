# tests/clients/rootfs.bash: a busybox root file system for a container.
# Sourced by client scripts:  . "$(dirname "$0")/rootfs.bash"
#
#   busybox_rootfs DIR [APPLET...]   DIR/bin/busybox (Debian's busybox-static)
#       with a relative link per applet (default: what the scripts here
#       run inside), and the empty directories a runtime mounts on.
# `busybox --install` would link to the absolute host path of the copy.
busybox_rootfs() {
	local dir=$1 applet
	shift
	(($#)) || set -- sh cat echo grep ls sleep dd kill ps mkdir rm seq true wc head sed awk
	mkdir -p "$dir/bin" "$dir/sbin" "$dir/etc" "$dir/proc" "$dir/sys" "$dir/dev" "$dir/tmp" \
		"$dir/run" "$dir/var" "$dir/usr" "$dir/root"
	cp /bin/busybox "$dir/bin/busybox"
	for applet in "$@"; do ln -sf busybox "$dir/bin/$applet"; done
}

# tests/clients/debian-rootfs.bash: a Debian 12 root with systemd for a container.
# Sourced by client scripts:  . "$(dirname "$0")/debian-rootfs.bash"
#
#   debian_rootfs DIR       DIR: an overlay of the root scripts/install-clients
#       made (debootstrap --variant=minbase with systemd and dbus), over a
#       tmpfs of its own: the container writes to memory, the cache stays as
#       it was made.
#   debian_rootfs_gone DIR  takes it away.
DEBIAN_ROOTFS=/var/cache/cgx/bookworm-systemd
debian_rootfs() {
	local dir=$1
	[[ -x $DEBIAN_ROOTFS/lib/systemd/systemd ]] ||
		{ echo "$DEBIAN_ROOTFS missing (scripts/install-clients)"; return 1; }
	mkdir -p "$dir" "$dir.rw" &&
		mount -t tmpfs -o mode=755 tmpfs "$dir.rw" &&
		mkdir "$dir.rw/upper" "$dir.rw/work" &&
		mount -t overlay overlay \
			-o "lowerdir=$DEBIAN_ROOTFS,upperdir=$dir.rw/upper,workdir=$dir.rw/work" "$dir"
}
debian_rootfs_gone() {
	umount "$1" && umount "$1.rw" && rmdir "$1" "$1.rw"
}

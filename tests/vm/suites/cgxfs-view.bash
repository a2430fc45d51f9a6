# Serves the v1 view of a v2 guest for one suite: cgxfs on $VIEW over the base
# "cgx" of $CG2, its log in $VM_OUT/cgxfs-$1.log, its pid in $CGXFS_PID_FILE.
# Call start_view NAME from setup_file and stop_view from teardown_file.

VIEW=/run/cgx-view
CG2=/sys/fs/cgroup

start_view() {
  [[ -x ${CGX_BUILD:-}/bin/cgxfs ]] || { echo "CGX_BUILD/bin/cgxfs missing" >&3; return 1; }
  mkdir -p "$VIEW"
  "$CGX_BUILD/bin/cgxfs" --cgroup2 "$CG2" --base cgx -f "$VIEW" \
    >"${VM_OUT:-/tmp}/cgxfs-$1.log" 2>&1 3>&- &
  echo $! >"$BATS_FILE_TMPDIR/cgxfs.pid"
  for _ in $(seq 200); do [[ -e $VIEW/memory/tasks ]] && return 0; sleep 0.1; done
  echo "cgxfs did not serve $VIEW" >&3
  return 1
}

stop_view() {
  fusermount3 -u "$VIEW" 2>/dev/null || umount -l "$VIEW" 2>/dev/null || true
  kill "$(cat "$BATS_FILE_TMPDIR/cgxfs.pid")" 2>/dev/null || true
}

view_daemon_pid() {
  cat "$BATS_FILE_TMPDIR/cgxfs.pid"
}

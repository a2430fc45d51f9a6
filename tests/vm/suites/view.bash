# Sourced by the v2 guest suites: one cgxfs view over the guest's cgroup2 mount.
#
#   view_start VIEW LOGNAME [CGXFS-OPTION...]   starts `cgxfs -f` on VIEW, its
#       log in $VM_OUT/LOGNAME, and waits until VIEW serves its hierarchies
#   view_stop VIEW                              unmounts VIEW and waits for its
#       daemon to end (kill -9 after 5 s)
#   view_pid VIEW                               the pid of VIEW's daemon
#   spawn                                       a sleeper in $pid, killed by
#       sleepers_kill (a suite's teardown)
#   leaf_of PID                                 the v2 directory PID lives in
#
# The daemon's pid is kept in $BATS_FILE_TMPDIR, so a view started in
# setup_file is stopped in teardown_file, and one started in a test by it.

: "${CG2:=/sys/fs/cgroup}"

view_pid_file() { echo "$BATS_FILE_TMPDIR/cgxfs-${1//\//_}.pid"; }

view_pid() { cat "$(view_pid_file "$1")"; }

view_start() {
  local view=$1 log=${VM_OUT:-/tmp}/$2 _
  shift 2
  [[ -x ${CGX_BUILD:-}/bin/cgxfs ]] || { echo "CGX_BUILD/bin/cgxfs missing (CGX_BUILD=${CGX_BUILD:-})" >&3; return 1; }
  mkdir -p "$view"
  # fd 3 closed: bats waits for every holder of it before it finishes.
  "$CGX_BUILD/bin/cgxfs" --cgroup2 "$CG2" "$@" -f "$view" >"$log" 2>&1 3>&- &
  echo $! >"$(view_pid_file "$view")"
  for _ in $(seq 200); do
    [[ -e $view/cpu,cpuacct/tasks || -e $view/pids/tasks ]] && return 0
    sleep 0.1
  done
  echo "cgxfs did not serve $view within 20 s; see $log" >&3
  return 1
}

view_stop() {
  local view=$1 pid _
  fusermount3 -u "$view" 2>/dev/null || umount -l "$view" 2>/dev/null || true
  pid=$(cat "$(view_pid_file "$view")" 2>/dev/null) || return 0
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

# A sleeper with fd 3 closed (bats waits for it otherwise); its pid in $pid.
spawn() {
  sleep 1000 3>&- &
  pid=$!
  SLEEPERS="${SLEEPERS:-} $pid"
}

sleepers_kill() {
  for p in ${SLEEPERS:-}; do kill -9 "$p" 2>/dev/null || true; done
}

leaf_of() {
  echo "$CG2$(sed -n 's/^0:://p' "/proc/$1/cgroup")"
}

#!/usr/bin/env bats
# Runs INSIDE a v1 guest (tests/vm/run-guest v1 ...): the kernel's own v1
# hierarchies. Builds issue 6's "university example" with real processes and
# checks what `cgx-migrate report --scan` says of it, field by field.
# Needs CGX_BUILD (the build directory holding bin/cgx-migrate) and jq (the
# host's, seen over 9p).
#
# The outputs stay in $VM_OUT/university for tests/vm/migrate-university,
# which applies plan.sh in a v2 guest and renders report.html on the host:
#   report.json report.md report.html plan.sh   cgx-migrate's outputs
#   pids    NAME=PID of the example's processes, and UNI= where their programs are
#   untouched.json  a second report, once every hierarchy has groups nobody wrote to
#   facts   the JSON report flattened by one jq run: F[KEY]=VALUE (migrate-facts.jq)
#
# The example: in cpu,cpuacct the roles students (shares 512, quota 50 ms),
# faculty (shares 2048, period 50 ms) and staff (shares 1024, the default);
# in net_cls,net_prio the programs browsers and torrent (class ids, a
# priority map); in memory limits on faculty; in freezer a frozen group "lab"
# holding a student's browser and a torrent of the faculty's; vm.swappiness
# tuned to 30.
#
#   process   cpu,cpuacct  net_cls,net_prio  freezer  memory
#   firefox   /students    /browsers         /lab     /
#   torrent   /faculty     /torrent          /lab     /faculty
#   lecture   /faculty     /                 /        /faculty
#   student   /students    /                 /        /
#   clerk     /staff       /                 /        /
#
# Under TCG every exec costs (jq most of all: ~1 s), so the report is read by
# jq once, in setup_file, and the tests compare with bash alone.

CG=/sys/fs/cgroup

setup_file() {
  export MIGRATE=${CGX_BUILD:-}/bin/cgx-migrate
  [[ -x $MIGRATE ]] || { echo "CGX_BUILD/bin/cgx-migrate missing (CGX_BUILD=${CGX_BUILD:-})" >&3; return 1; }
  command -v jq >/dev/null ||
    { echo "jq is not reachable in the guest (the host's root is shared): scripts/install-deps" >&3; return 1; }
  export OUT=${VM_OUT:-$BATS_FILE_TMPDIR}/university
  local uni=$BATS_FILE_TMPDIR/uni
  rm -rf "$OUT"
  mkdir -p "$OUT" "$uni"

  # A host tuned as many are: the memory root shows vm.swappiness, and groups start with it.
  echo 30 >/proc/sys/vm/swappiness
  mkdir "$CG"/cpu,cpuacct/{students,faculty,staff} "$CG"/net_cls,net_prio/{browsers,torrent} \
    "$CG"/freezer/lab "$CG"/memory/faculty
  echo 512 >"$CG"/cpu,cpuacct/students/cpu.shares
  echo 50000 >"$CG"/cpu,cpuacct/students/cpu.cfs_quota_us
  echo 2048 >"$CG"/cpu,cpuacct/faculty/cpu.shares
  echo 50000 >"$CG"/cpu,cpuacct/faculty/cpu.cfs_period_us
  echo 1024 >"$CG"/cpu,cpuacct/staff/cpu.shares
  echo 0x100001 >"$CG"/net_cls,net_prio/browsers/net_cls.classid
  echo 0x100002 >"$CG"/net_cls,net_prio/torrent/net_cls.classid
  echo 'lo 5' >"$CG"/net_cls,net_prio/torrent/net_prio.ifpriomap
  echo 268435456 >"$CG"/memory/faculty/memory.limit_in_bytes
  echo 134217728 >"$CG"/memory/faculty/memory.soft_limit_in_bytes

  # A browser (sleep under another name: its own comm and exe), and a torrent
  # client that is a shell script blocked in read on a fifo (no child that
  # could be forked before or after its move).
  cp "$(command -v sleep)" "$uni/firefox"
  printf '#!/bin/sh\nread -r line\n' >"$uni/torrent.sh"
  mkfifo "$uni/torrent.fifo"
  local firefox torrent lecture student clerk
  "$uni/firefox" 1000 </dev/null >/dev/null 2>&1 3>&- &
  firefox=$!
  sh "$uni/torrent.sh" <>"$uni/torrent.fifo" >/dev/null 2>&1 3>&- &
  torrent=$!
  sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
  lecture=$!
  sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
  student=$!
  sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
  clerk=$!
  # Their deaths at the end are no news for the output.
  disown -a
  printf 'firefox=%s\ntorrent=%s\nlecture=%s\nstudent=%s\nclerk=%s\nUNI=%s\n' \
    "$firefox" "$torrent" "$lecture" "$student" "$clerk" "$uni" >"$OUT/pids"

  move() { echo "$1" >"$CG/$2/cgroup.procs"; }
  move "$firefox" cpu,cpuacct/students
  move "$firefox" net_cls,net_prio/browsers
  move "$firefox" freezer/lab
  move "$torrent" cpu,cpuacct/faculty
  move "$torrent" net_cls,net_prio/torrent
  move "$torrent" freezer/lab
  move "$torrent" memory/faculty
  move "$lecture" cpu,cpuacct/faculty
  move "$lecture" memory/faculty
  move "$student" cpu,cpuacct/students
  move "$clerk" cpu,cpuacct/staff
  # The shell must have exec'd sh (its cmdline names the script) before the scan.
  local _
  for _ in $(seq 100); do
    [[ $(tr '\0' ' ' <"/proc/$torrent/cmdline") == *torrent.sh* ]] && break
    sleep 0.1
  done
  # Frozen last: v1 freezes asynchronously (FREEZING first).
  echo FROZEN >"$CG"/freezer/lab/freezer.state
  for _ in $(seq 100); do
    [[ $(<"$CG"/freezer/lab/freezer.state) == FROZEN ]] && break
    sleep 0.1
  done

  snapshot >"$OUT/before"
  "$MIGRATE" report --scan --format json -o "$OUT/report.json" 2>"$OUT/report.err"
  "$MIGRATE" report --scan --format markdown -o "$OUT/report.md"
  "$MIGRATE" report --scan --format html -o "$OUT/report.html"
  "$MIGRATE" plan --scan -o "$OUT/plan.sh"
  snapshot >"$OUT/after"
  jq -r -f "$BATS_TEST_DIRNAME/migrate-facts.jq" "$OUT/report.json" >"$OUT/facts"

  # Then a group and a child in every hierarchy, nothing written to them.
  local -a untouched
  mapfile -t untouched < <(awk '$3 == "cgroup" { print $2 "/untouched/child" }' /proc/mounts)
  mkdir -p "${untouched[@]}"
  "$MIGRATE" report --scan --format json -o "$OUT/untouched.json"
  jq -r '[.hierarchies[] | .name as $h | .groups[] | select(.path | startswith("/untouched")) |
      .path as $p | .settings[] |= "\($h):\($p):\(.file)=\(.value)"] |
    "untouched_groups=\(length)", "untouched_settings=\([.[].settings[]] | join(" ") | @sh)"' \
    "$OUT/untouched.json" >"$OUT/untouched"
}

teardown_file() {
  # A v1-frozen task dies only once thawed.
  echo THAWED >"$CG"/freezer/lab/freezer.state 2>/dev/null || true
  local pid
  for pid in $(sed -n 's/^[a-z]*=\([0-9]*\)$/\1/p' "$OUT/pids" 2>/dev/null); do
    kill -9 "$pid" 2>/dev/null || true
  done
}

setup() {
  declare -gA F
  # shellcheck disable=SC1091
  source "$OUT/facts"
  # shellcheck disable=SC1091
  source "$OUT/pids"
}

# Every group of the example and every value it wrote, to see that a scan changes nothing.
snapshot() {
  (cd "$CG" && find . -mindepth 2 -type d | sort)
  grep . "$CG"/cpu,cpuacct/*/cpu.{shares,cfs_quota_us,cfs_period_us} \
    "$CG"/net_cls,net_prio/*/net_cls.classid "$CG"/memory/faculty/memory.*limit_in_bytes \
    "$CG"/freezer/lab/freezer.state "$CG"/*/*/cgroup.procs
}

# The numbers sorted, on one line: how the facts list pids.
sorted() {
  local -a nums=("$@")
  local i j t
  for ((i = 0; i < ${#nums[@]}; i++)); do
    for ((j = i + 1; j < ${#nums[@]}; j++)); do
      if ((nums[j] < nums[i])); then t=${nums[i]} nums[i]=${nums[j]} nums[j]=$t; fi
    done
  done
  echo "${nums[*]}"
}

# [ "${F[KEY]}" = WANT ], saying which key when it is not.
is() {
  [ "${F[$1]-<missing>}" = "$2" ] && return 0
  printf 'F[%s]\n  is   "%s"\n  want "%s"\n' "$1" "${F[$1]-<missing>}" "$2"
  return 1
}

@test "the example is made of real processes in the kernel's v1 groups" {
  [ "$(<"$CG/freezer/lab/freezer.state")" = FROZEN ]
  [[ $(<"/proc/$torrent/cgroup") == *":net_cls,net_prio:/torrent"* ]]
  [[ $(<"/proc/$lecture/cgroup") == *":memory:/faculty"* ]]
  [ "$(<"$CG/memory/faculty/memory.limit_in_bytes")" = 268435456 ]
}

@test "report --scan warns of nothing and changes no group, value or membership" {
  [ ! -s "$OUT/report.err" ] || { cat "$OUT/report.err"; false; }
  [ "$(<"$OUT/before")" = "$(<"$OUT/after")" ]
}

@test "the report names its source, this host and the 6.1 kernel" {
  is schema cgx-migrate/1
  is version 1
  is sources "scan mount table"
  is host "$HOSTNAME"
  is kernel "$(</proc/sys/kernel/osrelease)"
}

@test "every mounted v1 hierarchy is named, in mount order; the four the example uses are in use and diverge" {
  is hierarchies "cpuset cpu,cpuacct blkio memory devices freezer net_cls,net_prio perf_event hugetlb pids rdma misc name=systemd"
  is in_use "cpu,cpuacct memory freezer net_cls,net_prio"
  # Flagged: each has a group on a path where another hierarchy in use has none.
  is divergent_hierarchies "cpu,cpuacct memory freezer net_cls,net_prio"
  is "cpu,cpuacct controllers" "cpu cpuacct"
  is "cpu,cpuacct mountpoint" "$CG/cpu,cpuacct"
  is "cpu,cpuacct named" null
  is "name=systemd named" systemd
  is "name=systemd mountpoint" "$CG/systemd"
  is "cpu,cpuacct nr_groups" 4
  is "cpu,cpuacct nr_tasks" 5
  is "net_cls,net_prio nr_groups" 3
  is "net_cls,net_prio nr_tasks" 2
  is "memory nr_tasks" 2
  is "pids nr_groups" 1
  # Every file of the 6.1 kernel's hierarchies has a row in the table.
  for h in ${F[hierarchies]}; do is "$h unknown_files" ""; done
}

@test "each group is listed at its path with its own processes" {
  is "cpu,cpuacct groups" "/ /faculty /staff /students"
  is "cpu,cpuacct /students tasks" "$(sorted "$firefox" "$student")"
  is "cpu,cpuacct /faculty tasks" "$(sorted "$torrent" "$lecture")"
  is "cpu,cpuacct /staff nr_tasks" 1
  is "freezer /lab tasks" "$(sorted "$firefox" "$torrent")"
  is "net_cls,net_prio /torrent tasks" "$torrent"
  is "memory /faculty tasks" "$(sorted "$torrent" "$lecture")"
  # Processes only in root groups stay where they are: neither listed nor counted.
  is "cpu,cpuacct / nr_tasks" 0
  is "cpu,cpuacct / tasks" ""
  is pids "$(sorted "$firefox" "$torrent" "$lecture" "$student" "$clerk")"
}

@test "the paths where the group trees differ: every group of the example, in path order" {
  is divergent "/browsers /faculty /lab /staff /students /torrent"
  is "divergent /faculty present_in" "cpu,cpuacct memory"
  is "divergent /faculty absent_from" "freezer net_cls,net_prio"
  is "divergent /lab present_in" freezer
  is "divergent /lab absent_from" "cpu,cpuacct memory net_cls,net_prio"
  for g in "cpu,cpuacct /students" "memory /faculty" "freezer /lab" "net_cls,net_prio /browsers"; do
    is "$g shape_divergent" true
  done
  is "cpu,cpuacct / shape_divergent" false
}

@test "the browser in groups on different paths is listed with its comm, exe and groups" {
  is "$firefox multi_hierarchy" true
  is "$firefox comm" firefox
  is "$firefox exe" "$UNI/firefox"
  is "$firefox script" null
  is "$firefox program" "$UNI/firefox"
  is "$firefox cmdline" "$UNI/firefox 1000"
  is "$firefox tuple" "cpu,cpuacct:/students freezer:/lab net_cls,net_prio:/browsers"
}

@test "the torrent script is named by its script, run by the shell's executable" {
  is "$torrent multi_hierarchy" true
  is "$torrent comm" sh
  is "$torrent exe" "$(readlink -f /bin/sh)"
  is "$torrent script" "$UNI/torrent.sh"
  is "$torrent program" "$UNI/torrent.sh"
  is "$torrent cmdline" "sh $UNI/torrent.sh"
  is "$torrent tuple" "cpu,cpuacct:/faculty memory:/faculty freezer:/lab net_cls,net_prio:/torrent"
}

@test "processes whose groups lie on one path are not multi-hierarchy and fold exactly" {
  local sleep_exe
  sleep_exe=$(readlink -f "$(command -v sleep)")
  for pid in "$lecture" "$student" "$clerk"; do
    is "$pid multi_hierarchy" false
    is "$pid fold" exact
    is "$pid comm" sleep
    is "$pid exe" "$sleep_exe"
    is "$pid cmdline" "sleep 1000"
  done
  is "$lecture tuple" "cpu,cpuacct:/faculty memory:/faculty"
  is "$clerk tuple" "cpu,cpuacct:/staff"
}

@test "the leaves: a divergent tuple under its first group in primary order (memory, pids, cpu, ...)" {
  # torrent's memory and cpu groups agree: its leaf nests in /faculty, named for freezer and net_cls.
  is "$torrent v2_leaf" "/faculty/@freezer=lab;net_cls=torrent"
  is "$torrent fold" approximate
  # firefox has no memory group: its cpu group comes first.
  is "$firefox v2_leaf" "/students/@freezer=lab;net_cls=browsers"
  is "$firefox fold" approximate
  # That makes /faculty and /students inner directories: exact tuples go to their @tasks leaves.
  is "$lecture v2_leaf" /faculty/@tasks
  is "$student v2_leaf" /students/@tasks
  is "$clerk v2_leaf" /staff
}

@test "cpu.shares 512 and 2048 become cpu.weight 59 and 174 (runc/crun 2025); 1024 is no setting" {
  # weight = ceil(10^((l^2 + 125 l) / 612 - 7/34)), l = log2(shares)
  is "cpu,cpuacct /students cpu.shares value" 512
  is "cpu,cpuacct /students cpu.shares default" 1024
  is "cpu,cpuacct /students cpu.shares mapping" converted
  is "cpu,cpuacct /students cpu.shares v2_file" cpu.weight
  is "cpu,cpuacct /students cpu.shares v2_value" 59
  is "cpu,cpuacct /students cpu.shares fate" exact
  is "cpu,cpuacct /faculty cpu.shares value" 2048
  is "cpu,cpuacct /faculty cpu.shares v2_value" 174
  is "cpu,cpuacct /staff settings" ""
}

@test "cfs quota and period become cpu.max, each with the group's other value" {
  is "cpu,cpuacct /students cpu.cfs_quota_us value" 50000
  is "cpu,cpuacct /students cpu.cfs_quota_us v2_file" cpu.max
  is "cpu,cpuacct /students cpu.cfs_quota_us v2_value" "50000 100000"
  is "cpu,cpuacct /students cpu.cfs_quota_us fate" exact
  is "cpu,cpuacct /faculty cpu.cfs_period_us value" 50000
  is "cpu,cpuacct /faculty cpu.cfs_period_us v2_value" "max 50000"
  is "cpu,cpuacct /students settings" "cpu.cfs_quota_us cpu.shares"
  is "cpu,cpuacct /faculty settings" "cpu.cfs_period_us cpu.shares"
}

@test "memory.limit_in_bytes becomes memory.max; the soft limit an approximate memory.low" {
  is "memory /faculty settings" "memory.limit_in_bytes memory.soft_limit_in_bytes"
  is "memory /faculty memory.limit_in_bytes value" 268435456
  is "memory /faculty memory.limit_in_bytes v2_file" memory.max
  is "memory /faculty memory.limit_in_bytes v2_value" 268435456
  is "memory /faculty memory.limit_in_bytes fate" exact
  is "memory /faculty memory.soft_limit_in_bytes v2_file" memory.low
  is "memory /faculty memory.soft_limit_in_bytes v2_value" 134217728
  is "memory /faculty memory.soft_limit_in_bytes mapping" approximate
  is "memory /faculty memory.soft_limit_in_bytes fate" approximate
  [[ ${F[memory /faculty memory.soft_limit_in_bytes note]} == *memory.high* ]]
}

@test "the frozen freezer group becomes cgroup.freeze 1" {
  is "freezer /lab settings" freezer.state
  is "freezer /lab freezer.state value" FROZEN
  is "freezer /lab freezer.state v2_file" cgroup.freeze
  is "freezer /lab freezer.state v2_value" 1
  is "freezer /lab freezer.state fate" exact
}

@test "net_cls.classid and net_prio.ifpriomap are lost, each note saying what to use instead" {
  # The kernel reads a class id back in decimal.
  is "net_cls,net_prio /browsers net_cls.classid value" 1048577
  is "net_cls,net_prio /browsers net_cls.classid default" 0
  is "net_cls,net_prio /browsers net_cls.classid mapping" emulated
  is "net_cls,net_prio /browsers net_cls.classid v2_file" null
  is "net_cls,net_prio /browsers net_cls.classid v2_value" null
  is "net_cls,net_prio /browsers net_cls.classid fate" lost
  [[ ${F[net_cls,net_prio /browsers net_cls.classid note]} == *"socket cgroupv2"* ]]
  is "net_cls,net_prio /torrent net_cls.classid value" 1048578
  is "net_cls,net_prio /torrent net_prio.ifpriomap value" "lo 5"
  is "net_cls,net_prio /torrent net_prio.ifpriomap fate" lost
  [[ ${F[net_cls,net_prio /torrent net_prio.ifpriomap note]} == *SO_PRIORITY* ]]
  # The browsers' priority map lists lo at 0, the kernel's own: no setting.
  is "net_cls,net_prio /browsers settings" net_cls.classid
}

@test "groups fold exactly or approximately, by where their processes' leaves lie" {
  # Each of these has a process whose leaf lies outside the group's v2 directory.
  for g in "freezer /lab" "net_cls,net_prio /browsers" "net_cls,net_prio /torrent"; do
    is "$g fold" approximate
  done
  for g in "cpu,cpuacct /faculty" "cpu,cpuacct /staff" "cpu,cpuacct /students" "memory /faculty"; do
    is "$g fold" exact
  done
  is "cpu,cpuacct /faculty v2_path" /faculty
  is "memory /faculty v2_path" /faculty
}

@test "the proposed layout: one directory per v1 path, a leaf per tuple, what folds approximately" {
  is layout "/ /browsers /faculty /faculty/@freezer=lab;net_cls=torrent /faculty/@tasks /lab /staff /students /students/@freezer=lab;net_cls=browsers /students/@tasks /torrent"
  is leaves "/faculty/@freezer=lab;net_cls=torrent /faculty/@tasks /staff /students/@freezer=lab;net_cls=browsers /students/@tasks"
  for leaf in ${F[leaves]}; do is "layout $leaf nr_tasks" 1; done
  is "layout /students/@freezer=lab;net_cls=browsers fold" approximate
  is "layout /students/@freezer=lab;net_cls=browsers hierarchies" ""
  is "layout /faculty/@freezer=lab;net_cls=torrent fold" approximate
  is "layout /faculty/@tasks fold" exact
  is "layout /staff fold" exact
  is "layout /faculty leaf" false
  is "layout /faculty hierarchies" "cpu,cpuacct memory"
  is "layout /faculty approximate_for" ""
  is "layout /students approximate_for" ""
  is "layout /lab approximate_for" freezer
  is "layout /browsers approximate_for" net_cls,net_prio
  is "layout /lab shape_divergent" true
  is "layout / shape_divergent" false
  is "layout / leaf" false
}

@test "the memory root's vm.swappiness is no setting, nor is it in a group that started with it" {
  [ "$(<"$CG/memory/memory.swappiness")" = 30 ]
  [ "$(<"$CG/memory/faculty/memory.swappiness")" = 30 ]
  is "memory / settings" ""
  is "memory /faculty settings" "memory.limit_in_bytes memory.soft_limit_in_bytes"
}

@test "groups nobody wrote to hold no setting, in any of the 13 hierarchies, nor do their children" {
  # shellcheck disable=SC1091
  source "$OUT/untouched"
  [ "$untouched_groups" = 26 ]
  [ -z "$untouched_settings" ] || { echo "settings found: $untouched_settings"; false; }
}

@test "the verdict: needs changes, with every count" {
  is "verdict status" needs-changes
  is "verdict settings" 10
  is "verdict settings_exact" 6
  is "verdict settings_approximate" 1
  is "verdict settings_lost" 3
  is "verdict groups" 7
  is "verdict groups_approximate" 3
  is "verdict groups_shape_divergent" 7
  is "verdict processes" 5
  is "verdict processes_multi_hierarchy" 2
  is "verdict processes_approximate" 2
  is "verdict log_multi_hierarchy" 0
  # The counts are those of the lists.
  is nr_settings 10
}

@test "markdown of the same setup: the verdict, every setting of the JSON as a row, the layout" {
  md=$(<"$OUT/report.md")
  [[ $md == *$'\n**Verdict: needs-changes**\n'* ]]
  [[ $md == *'| `cpu,cpuacct` | `/students` | `cpu.shares` | `512` | `cpu.weight` | `59` | exact |'* ]]
  [[ $md == *'| `net_cls,net_prio` | `/browsers` | `net_cls.classid` | `1048577` | - | - | lost |'* ]]
  local n=0
  while IFS= read -r row; do
    [[ $md == *"$row"* ]] || { echo "missing: $row"; false; }
    n=$((n + 1))
  done <<<"${F[markdown_rows]}"
  [ "$n" = 10 ]
  [[ $md == *$'├── faculty  [cpu,cpuacct memory]; tree shape differs\n│   ├── @freezer=lab;net_cls=torrent  1 process, approximate\n│   └── @tasks  1 process, exact\n'* ]]
  [[ $md == *$'\n│   ├── @freezer=lab;net_cls=browsers  1 process, approximate\n'* ]]
  [[ $md == *'| `freezer` | /sys/fs/cgroup/freezer | 1 | 2 | **diverges** |'* ]]
}

@test "html of the same setup: the four trees in use and the layout, the processes on different paths" {
  html=$(<"$OUT/report.html")
  [ "$(grep -c '<svg ' "$OUT/report.html")" = 5 ]
  [[ $html == *'<p class="verdict needs-changes">Verdict: needs-changes</p>'* ]]
  [[ $html == *"<tr><td>$torrent</td><td>sh</td><td>$UNI/torrent.sh</td>"* ]]
  [[ $html == *"<tr><td>$firefox</td><td>firefox</td><td>$UNI/firefox</td>"* ]]
}

@test "the plan recreates the layout with the converted values, and comments what is lost" {
  plan=$(<"$OUT/plan.sh")
  sh -n "$OUT/plan.sh"
  [[ $plan == *$'\nmkdir -p "$root"/\'faculty/@freezer=lab;net_cls=torrent\'\n'* ]]
  [[ $plan == *$'\necho \'+cpu +memory\' > "$root"/cgroup.subtree_control\n'* ]]
  [[ $plan == *$'\necho \'59\' > "$root"/\'students\'/cpu.weight\n'* ]]
  [[ $plan == *$'\necho \'max 50000\' > "$root"/\'faculty\'/cpu.max\n'* ]]
  [[ $plan == *$'\necho \'268435456\' > "$root"/\'faculty\'/memory.max\n'* ]]
  [[ $plan == *$'\necho \'1\' > "$root"/\'lab\'/cgroup.freeze\n'* ]]
  [[ $plan == *'# net_cls,net_prio:/browsers net_cls.classid=1048577: lost; cgx gives the classid to packets'* ]]
  [[ $plan == *'# net_cls,net_prio:/torrent net_prio.ifpriomap=lo 5: lost; cgx sets skb->priority per device'* ]]
  # One write per converted value, none for the lost ones.
  [ "$(grep -c "^echo '[^+]" "$OUT/plan.sh")" = 7 ]
}

#!/usr/bin/env bats
# Runs INSIDE a v2 guest (booted with cgroup_no_v1=all), started by
# tests/vm/migrate-university. Not registered as a suite of its own (no v2-
# prefix): its input is what a v1 guest left behind.
#
# Applies the plan that v1-migrate-university.bats had cgx-migrate write for
# the university example, under $ROOT on pure cgroup2, and compares the tree
# it builds with the report's proposed layout. Needs MIGRATE_V1: that v1
# guest's university directory (plan.sh, pids, and facts, the flattened
# report.json of migrate-facts.jq).

CG=/sys/fs/cgroup
ROOT=$CG/university

setup_file() {
  [[ -f ${MIGRATE_V1:-}/plan.sh && -f $MIGRATE_V1/facts ]] ||
    { echo "MIGRATE_V1 (${MIGRATE_V1:-unset}) holds no plan.sh and facts of a v1 guest" >&3; return 1; }
  export OUT=${VM_OUT:-$BATS_FILE_TMPDIR}/plan
  rm -rf "$OUT"
  mkdir -p "$OUT" "$ROOT"
  local run
  for run in first second; do
    CGX_ROOT=$ROOT sh "$MIGRATE_V1/plan.sh" >"$OUT/$run.out" 2>&1 || echo "plan.sh: exit $?" >>"$OUT/$run.out"
    state >"$OUT/$run.state"
  done
}

teardown_file() {
  local pid
  for pid in $(cat "$OUT/sleepers" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
}

setup() {
  declare -gA F
  # shellcheck disable=SC1091
  source "$MIGRATE_V1/facts"
}

# The tree under $ROOT and every value the plan writes, read back.
state() {
  (cd "$ROOT" && find . -type d | sort)
  grep . "$ROOT"/cgroup.subtree_control "$ROOT"/*/cpu.{weight,max} "$ROOT"/*/memory.{max,low} \
    "$ROOT"/*/cgroup.freeze
}

# [ "$(<FILE)" = WANT ], saying which file when it is not.
reads() {
  local got
  got=$(<"$ROOT/$1") || return 1
  [ "$got" = "$2" ] && return 0
  printf '%s\n  reads "%s"\n  want  "%s"\n' "$1" "$got" "$2"
  return 1
}

@test "the guest is pure cgroup2: cgroup2 at $CG, no v1 hierarchy mounted" {
  mounts=$(</proc/mounts)
  [[ $mounts == *" $CG cgroup2 "* ]]
  [[ $mounts != *" cgroup "* ]]
}

@test "the plan runs to its end without a message" {
  [ -z "$(<"$OUT/first.out")" ] || { cat "$OUT/first.out"; false; }
}

@test "the plan builds exactly the directories of the report's proposed layout" {
  got=$(cd "$ROOT" && find . -type d | sed 's|^\.$|/|; s|^\./|/|' | sort)
  want=$(printf '%s\n' ${F[layout]} | sort)
  [ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); false; }
  [ -d "$ROOT/students/@freezer=lab;net_cls=browsers" ]
  [ -d "$ROOT/faculty/@tasks" ]
}

@test "every converted value of the report reads back from its v2 file in the group's directory" {
  local n=0
  while IFS=$'\t' read -r path file value; do
    reads "${path#/}/$file" "$value"
    n=$((n + 1))
  done <<<"${F[v2_values]}"
  [ "$n" = 7 ]
}

@test "the values, one by one: weights, cpu.max, memory limits, the frozen lab" {
  reads students/cpu.weight 59
  reads students/cpu.max "50000 100000"
  reads faculty/cpu.weight 174
  reads faculty/cpu.max "max 50000"
  reads faculty/memory.max 268435456
  reads faculty/memory.low 134217728
  reads lab/cgroup.freeze 1
  [[ $(<"$ROOT/lab/cgroup.events") == *"frozen 1"* ]]
  # The controllers the settings need, handed down from the top only.
  reads cgroup.subtree_control "cpu memory"
  reads faculty/cgroup.subtree_control ""
}

@test "groups with nothing to carry, or only what is lost, keep cgroup2's defaults" {
  # staff's cpu.shares was v1's default; browsers and torrent had only net_cls/net_prio values.
  for dir in staff browsers torrent; do
    reads $dir/cpu.weight 100
    reads $dir/cpu.max "max 100000"
    reads $dir/memory.max max
  done
}

@test "each leaf takes a process, which then runs in exactly that directory" {
  for leaf in ${F[leaves]}; do
    sleep 1000 </dev/null >/dev/null 2>&1 3>&- &
    echo $! >>"$OUT/sleepers"
    echo $! >"$ROOT$leaf/cgroup.procs"
    [ "$(<"/proc/$!/cgroup")" = "0::/university$leaf" ]
    [ "$(<"$ROOT$leaf/cgroup.procs")" = "$!" ]
  done
}

@test "running the plan a second time changes nothing" {
  [ -z "$(<"$OUT/second.out")" ] || { cat "$OUT/second.out"; false; }
  [ "$(<"$OUT/first.state")" = "$(<"$OUT/second.state")" ]
}

# tests/clients/effects.bash: the real cgroup2 effect of what a client did.
# Sourced by client scripts (tests/clients/*.sh):  . "$(dirname "$0")/effects.bash"
#
# A client script prints the same on kernel v1 and under cgx-exec over cgxfs
# (tests/vm/diff-run --effects). There, the client sees only the v1 view, so
# its own reads cannot tell whether a limit reached the kernel. In the v2
# guest, tests/vm/diff-guest opens cgxfs's base directory of the real cgroup2
# tree before cgx-exec hides it, and passes it as a directory descriptor:
#   CGX_V2_BASE_FD=N   /proc/self/fd/N is the base (e.g. /sys/fs/cgroup/cgx)
# Without it (the v1 guest, a run by hand) every function here is a no-op.
#
# Each check prints NOTHING when the effect holds and one line starting with
# "effect: " when it does not within 20 s (cgxfs applies some values after
# its reply: a limit split across leaves is rebalanced, a freeze completes),
# so that the v1 and v2 outputs are equal exactly when every effect holds.
# The functions return 0 either way: a script goes on.
#
# TARGET is a pid (its cgroup is looked up in the base's cgroup.procs files,
# since cgx-exec shows /proc/PID/cgroup as v1 would) or a cgroup path relative
# to the base starting with "/" (from effect_cgroup, for a process gone since).
# "The path" of a TARGET is its cgroup and each ancestor below the base.
#
#   effect_cgroup VAR TARGET        VAR := TARGET's cgroup ("/a/b"); "" without
#                                   the base (so VAR works as a TARGET in v1 too)
#   effect_limit TARGET FILE VALUE  the tightest FILE on the path (memory.max,
#                                   pids.max, memory.swap.max; "max" = none) is VALUE
#   effect_value TARGET FILE VALUE  FILE reads VALUE in a cgroup of the path
#                                   (cpu.weight, cpu.max, io.weight, cpuset.cpus)
#   effect_frozen TARGET 0|1        cgroup.events of TARGET's cgroup says "frozen 0|1"
#   effect_event TARGET FILE KEY    KEY in FILE counts at least 1 in a cgroup of
#                                   the path (memory.events oom_kill, pids.events max)
#   effect_gone CGROUP              the cgroup CGROUP ("/a/b") no longer exists
#
# Everything else in the real tree is the runner's: it reports any directory
# created in cgroup2 outside the base while the script ran.

effect_on() { [[ -n ${CGX_V2_BASE_FD:-} ]]; }
effect_base() { printf '/proc/self/fd/%s' "$CGX_V2_BASE_FD"; }
effect_say() { printf 'effect: %s\n' "$*"; }

# The cgroup (relative to the base, "/x/y") holding pid $1, or "/path" as given.
effect_resolve() {
	local target=$1 base f
	if [[ $target == /* ]]; then
		printf '%s' "$target"
		return 0
	fi
	base=$(effect_base)
	# No recursion through the magic link itself: grep -r follows a symlink
	# given as an argument only, which /proc/self/fd/N is.
	f=$(grep -rlx --include=cgroup.procs -- "$target" "$base/" 2>/dev/null | head -n1)
	[[ -n $f ]] || return 1
	f=${f#"$base"}
	f=${f%/cgroup.procs}
	printf '%s' "${f:-/}"
}

# Each cgroup of the path, TARGET's first, one per line ("/a/b", "/a").
effect_path() {
	local cg=$1
	while [[ -n $cg && $cg != / ]]; do
		printf '%s\n' "$cg"
		cg=${cg%/*}
	done
}

effect_target() {  # VAR TARGET: resolve or say why not
	local -n out_=$1
	out_=$(effect_resolve "$2") && [[ -n $out_ ]] && return 0
	effect_say "no cgroup under cgxfs's base holds the process (${3:-check})"
	return 1
}

# shellcheck disable=SC2034  # var_ names the caller's variable
effect_cgroup() {
	local -n var_=$1
	var_=
	effect_on || return 0
	effect_target var_ "$2" "effect_cgroup" || var_=
	return 0
}

# Runs the check $@ (which sets effect_why and returns 1 when the effect
# does not hold) until it holds, for up to 20 s: cgxfs applies some values
# after its reply (a limit split across leaves is rebalanced, a freeze
# completes in the kernel), and a check reads the settled state.
effect_until() {
	local i
	effect_why=
	for ((i = 0; i < 200; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	effect_say "$effect_why"
}

effect_limit_holds() {
	local cg=$1 file=$2 want=$3 c v tight=max where=
	while read -r c; do
		[[ -r $(effect_base)$c/$file ]] || continue
		read -r v <"$(effect_base)$c/$file" || continue
		if [[ $v != max && ($tight == max || $v -lt $tight) ]]; then tight=$v where=$c; fi
	done < <(effect_path "$cg")
	[[ $tight == "$want" ]] && return 0
	effect_why="$file: the tightest on $cg is ${tight}${where:+ (at $where)}, not $want"
	return 1
}
effect_limit() {
	local cg
	effect_on || return 0
	effect_target cg "$1" "$2" || return 0
	effect_until effect_limit_holds "$cg" "$2" "$3"
	return 0
}

effect_value_holds() {
	local cg=$1 file=$2 want=$3 c v seen=
	while read -r c; do
		[[ -r $(effect_base)$c/$file ]] || continue
		v=$(<"$(effect_base)$c/$file") || continue
		[[ $v == "$want" ]] && return 0
		seen+=" $c:'$v'"
	done < <(effect_path "$cg")
	effect_why="$file: no cgroup on $cg reads '$want' (${seen# })"
	return 1
}
effect_value() {
	local cg
	effect_on || return 0
	effect_target cg "$1" "$2" || return 0
	effect_until effect_value_holds "$cg" "$2" "$3"
	return 0
}

effect_frozen_holds() {
	local cg=$1 want=$2 k v
	while read -r k v; do
		[[ $k == frozen && $v == "$want" ]] && return 0
	done <"$(effect_base)$cg/cgroup.events"
	effect_why="cgroup.events of $cg: frozen is not $want"
	return 1
}
effect_frozen() {
	local cg
	effect_on || return 0
	effect_target cg "$1" "cgroup.events" || return 0
	effect_until effect_frozen_holds "$cg" "$2"
	return 0
}

effect_event_holds() {
	local cg=$1 file=$2 key=$3 c k v
	while read -r c; do
		[[ -r $(effect_base)$c/$file ]] || continue
		while read -r k v; do
			[[ $k == "$key" && $v -ge 1 ]] && return 0
		done <"$(effect_base)$c/$file"
	done < <(effect_path "$cg")
	effect_why="$file: $key is 0 on every cgroup of $cg"
	return 1
}
effect_event() {
	local cg
	effect_on || return 0
	effect_target cg "$1" "$2" || return 0
	effect_until effect_event_holds "$cg" "$2" "$3"
	return 0
}

effect_gone_holds() {
	[[ ! -d $(effect_base)$1 ]] && return 0
	effect_why="cgroup $1 is still in the cgroup2 tree"
	return 1
}
effect_gone() {
	effect_on || return 0
	[[ $1 == /* ]] || { effect_say "effect_gone wants a cgroup path, not '$1'"; return 0; }
	effect_until effect_gone_holds "$1"
	return 0
}

#!/usr/bin/env bats
# cgxfs --metrics FILE: node_exporter's textfile format, as promtool reads
# it, with the model's counts, the deprecations by kind and program (a
# bounded label set) and the requests served.

load ../lib/helpers

setup() {
	scratch_setup
	PROM=$LOGDIR/cgx.prom
	PROGRAMS=$(mktemp -d /tmp/cgx-programs.XXXXXX)
	start_cgxfs --metrics "$PROM"
}

teardown() {
	common_teardown
	rm -rf "$PROGRAMS"
}

# The value of the series $1 (name and labels as written) once the file has it at $2 or more.
metric_at_least() {
	local value=
	for _ in $(seq 150); do
		value=$(awk -v s="$1" '$1 == s {print $2}' "$PROM" 2>/dev/null)
		[ -n "$value" ] && [ "$value" -ge "$2" ] && break
		sleep 0.1
	done
	echo "$value"
}

@test "metrics: promtool accepts the file; groups, requests and their histogram add up" {
	mkdir "$MNT/cpu,cpuacct/a" "$MNT/cpu,cpuacct/a/b" "$MNT/memory/m"
	cat "$MNT/cpu,cpuacct/a/cpu.shares" >/dev/null
	[ "$(metric_at_least 'cgx_groups{hierarchy="cpu,cpuacct"}' 2)" = 2 ]
	promtool check metrics <"$PROM"
	[ "$(awk '$1 == "cgx_groups{hierarchy=\"memory\"}" {print $2}' "$PROM")" = 1 ]
	[ "$(awk '$1 == "cgx_groups{hierarchy=\"pids\"}" {print $2}' "$PROM")" = 0 ]
	[ "$(awk '$1 == "cgx_leaves" {print $2}' "$PROM")" = 0 ]
	[ "$(awk '$1 == "cgx_build_info{version=\"0.1.0\"}" {print $2}' "$PROM")" = 1 ]
	[ "$(awk '$1 == "cgx_requests_total{op=\"mkdir\"}" {print $2}' "$PROM")" = 3 ]
	# The histogram's count is its +Inf bucket and the requests' total; buckets only grow.
	awk '
		/^cgx_request_duration_seconds_bucket\{op="read",/ { if ($2 < last) bad = 1; last = $2; inf = $2 }
		$1 == "cgx_request_duration_seconds_count{op=\"read\"}" { count = $2 }
		$1 == "cgx_requests_total{op=\"read\"}" { total = $2 }
		END { exit !(count >= 1 && count == inf && count == total && !bad) }' "$PROM"
	# Written whole: no temporary file stays beside it.
	[ "$(ls "$LOGDIR" | grep -c 'cgx.prom')" = 1 ]
}

@test "metrics: deprecations by program, the first 20 by name, hostile names quoted" {
	mkdir "$MNT/net_cls,net_prio/web"
	local bash_exe name i
	bash_exe=$(readlink -f "$(command -v bash)")
	# A name with a quote, a backslash and a newline: a label must not break the format.
	name=$(printf 'evil"\\\nname')
	cp "$bash_exe" "$PROGRAMS/$name"
	"$PROGRAMS/$name" -c 'echo 7 >"$1"' _ "$MNT/net_cls,net_prio/web/net_cls.classid"
	for i in $(seq 2 22); do
		cp "$bash_exe" "$PROGRAMS/p$i"
		"$PROGRAMS/p$i" -c 'echo 7 >"$1"; echo 8 >"$1"' _ "$MNT/net_cls,net_prio/web/net_cls.classid"
	done
	[ "$(metric_at_least 'cgx_deprecations_total{kind="no-v2-equivalent",program="other"}' 4)" = 4 ]
	promtool check metrics <"$PROM"
	grep -qxF 'cgx_deprecations_total{kind="no-v2-equivalent",program="'"$PROGRAMS"'/evil\"\\\nname"} 1' "$PROM"
	[ "$(awk '$1 == "cgx_deprecations_total{kind=\"no-v2-equivalent\",program=\"'"$PROGRAMS"'/p20\"}" {print $2}' "$PROM")" = 2 ]
	# 20 programs have their own series, p21 and p22 are counted as other.
	[ "$(grep -c '^cgx_deprecations_total{kind="no-v2-equivalent",program="'"$PROGRAMS"'/' "$PROM")" = 20 ]
	! grep -q "program=\"$PROGRAMS/p21\"" "$PROM"
	# The sum over programs is the counter file's count of the kind.
	[ "$(awk '/^cgx_deprecations_total\{kind="no-v2-equivalent",/ {s += $NF} END {print s}' "$PROM")" = \
		"$(awk '$1 == "no-v2-equivalent" {print $2}' "$MNT/cgx.deprecations")" ]
}

@test "metrics: a relative path is refused, before anything is made" {
	run "$CGXFS" --cgroup2 "$CG2" --base "$BASE-2" --metrics cgx.prom "$MNT"
	[ "$status" -ne 0 ]
	[[ "$output" == *"--metrics wants an absolute path"* ]]
	[ ! -d "$CG2/$BASE-2" ]
}

@test "metrics: a file in a directory that does not exist is refused at start, status 2" {
	run "$CGXFS" --cgroup2 "$CG2" --base "$BASE-2" --metrics "$LOGDIR/none/cgx.prom" "$MNT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--metrics $LOGDIR/none/cgx.prom: cannot use the directory $LOGDIR/none: No such file or directory"* ]]
	[ ! -d "$CG2/$BASE-2" ]
	[ ! -e "$LOGDIR/none" ]
}

@test "metrics: a file below something that is no directory is refused at start, status 2" {
	: >"$LOGDIR/plain"
	run "$CGXFS" --cgroup2 "$CG2" --base "$BASE-2" --metrics "$LOGDIR/plain/cgx.prom" "$MNT"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$LOGDIR/plain is not a directory"* ]]
	[ ! -d "$CG2/$BASE-2" ]
}

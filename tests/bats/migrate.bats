#!/usr/bin/env bats
# cgx-migrate: reports of this host, of a copy laid out like /sys/fs/cgroup,
# of a running cgxfs view and of a deprecation log; the formats, the plan,
# the fleet merge, the table, and bad input.

load ../lib/helpers
bats_require_minimum_version 1.5.0

MIGRATE=${CGX_MIGRATE:-$(dirname "$CGXFS")/cgx-migrate}

setup() {
	WORK=$(mktemp -d /tmp/cgx-migrate-test.XXXXXX)
}

teardown() {
	cd /
	for p in ${SLEEPERS:-}; do kill -9 "$p" 2>/dev/null || true; done
	if [ -n "${MNT:-}" ]; then
		stop_cgxfs
		remove_base
		rmdir "$MNT" 2>/dev/null || true
	fi
	if [ -n "${PLAN_ROOT:-}" ] && [ -d "$PLAN_ROOT" ]; then
		find "$PLAN_ROOT" -depth -type d -exec rmdir {} \; 2>/dev/null || true
	fi
	rm -rf "$WORK"
}

json_query() {
	jq -r "$1" "$2"
}

# The v1 hierarchies of the mount table, as /proc/PID/cgroup names them, one a line, sorted.
mounted_hierarchies() {
	awk '$3 == "cgroup" { print $4 }' /proc/mounts | while read -r opts; do
		echo "$opts" | tr ',' '\n' | grep -E '^(cpuset|cpu|cpuacct|blkio|memory|devices|freezer|net_cls|perf_event|net_prio|hugetlb|pids|rdma|misc|name=.*)$' | paste -sd, -
	done | sort -u
}

# Every group directory of the mounted v1 hierarchies, as MOUNTPOINT/PATH, sorted.
list_groups() {
	awk '$3 == "cgroup" { print $2 }' /proc/mounts | while read -r m; do
		find "$m" -mindepth 1 -type d 2>/dev/null
	done | sort
}

# A copy of a university's v1 setup: students get less CPU, browsers a net_cls class,
# and one process sits in /students for cpu but /browsers for net_cls.
make_university() {
	local root=$WORK/cgroup
	mkdir -p "$root/cpu,cpuacct/students" "$root/net_cls,net_prio/browsers" "$root/not-a-hierarchy"
	: >"$root/cpu,cpuacct/tasks"
	: >"$root/net_cls,net_prio/tasks"
	echo 512 >"$root/cpu,cpuacct/students/cpu.shares"
	echo 1024 >"$root/cpu,cpuacct/cpu.shares"
	echo 0x100001 >"$root/net_cls,net_prio/browsers/net_cls.classid"
	ln -s cpu,cpuacct "$root/cpu"
	spawn_sleeper
	echo "$pid" >"$root/cpu,cpuacct/students/tasks"
	echo "$pid" >"$root/net_cls,net_prio/browsers/tasks"
	UNIVERSITY=$root
}

@test "every subcommand answers --help with the usage, on stdout, and no error" {
	local command
	for command in report plan merge table; do
		run --separate-stderr "$MIGRATE" "$command" --help
		[ "$status" = 0 ]
		[[ "$output" == Usage:* ]]
		[ -z "$stderr" ]
	done
	run "$MIGRATE" report --bogus
	[ "$status" = 1 ]
	[[ "$output" == *"unknown option --bogus"* ]]
}

@test "report --scan names this host's v1 hierarchies and their groups" {
	expected=$(mounted_hierarchies)
	[ -n "$expected" ] || skip "this host mounts no cgroup v1 hierarchy"
	list_groups >"$WORK/before"
	run "$MIGRATE" report --scan --format json -o "$WORK/host.json"
	[ "$status" -eq 0 ]
	list_groups >"$WORK/after"
	[ "$(json_query '.schema' "$WORK/host.json")" = cgx-migrate/1 ]
	[ "$(json_query '.version' "$WORK/host.json")" = 1 ]
	[ "$(json_query '.hierarchies[].name' "$WORK/host.json" | sort)" = "$expected" ]
	# Every group of every hierarchy is listed at its path. Groups come and go on a live
	# host: those there before and after must be listed, and nothing that never was.
	jq -r '.hierarchies[] | .mountpoint as $m | .groups[1:][] | $m + .path' "$WORK/host.json" |
		sort >"$WORK/listed"
	[ -z "$(comm -23 <(comm -12 "$WORK/before" "$WORK/after") "$WORK/listed")" ]
	[ -z "$(comm -23 "$WORK/listed" <(sort -u "$WORK/before" "$WORK/after"))" ]
}

@test "report --scan in text names the hierarchies and a verdict" {
	[ -n "$(mounted_hierarchies)" ] || skip "this host mounts no cgroup v1 hierarchy"
	run "$MIGRATE" report --scan
	[ "$status" -eq 0 ]
	[[ "$output" == *"Verdict: "* ]]
	for h in $(mounted_hierarchies); do
		[[ "$output" == *"$h "* ]] || { echo "missing $h"; false; }
	done
	# Not a terminal: no colour codes.
	[[ "$output" != *$'\033['* ]]
}

@test "a copy of a v1 layout: cpu.shares 512 becomes cpu.weight 59 through the table" {
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format json >"$WORK/r.json"
	# The alias symlink and the directory without a tasks file are no hierarchies.
	[ "$(json_query '[.hierarchies[].name] | join(" ")' "$WORK/r.json")" = "cpu,cpuacct net_cls,net_prio" ]
	q='.hierarchies[] | select(.name == "cpu,cpuacct") | .groups[] | select(.path == "/students") | .settings[] | select(.file == "cpu.shares")'
	[ "$(jq -r "$q | .value" "$WORK/r.json")" = 512 ]
	[ "$(jq -r "$q | .mapping" "$WORK/r.json")" = converted ]
	[ "$(jq -r "$q | .v2_file" "$WORK/r.json")" = cpu.weight ]
	[ "$(jq -r "$q | .v2_value" "$WORK/r.json")" = 59 ]
	[ "$(jq -r "$q | .fate" "$WORK/r.json")" = exact ]
	# The root's default shares are no setting.
	[ "$(jq '[.hierarchies[] | select(.name == "cpu,cpuacct") | .groups[0].settings[]] | length' "$WORK/r.json")" = 0 ]
}

@test "a copy of a v1 layout: net_cls.classid has no v2 file, cgx emulates it, and the note says what instead" {
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format json >"$WORK/r.json"
	q='.hierarchies[] | select(.name == "net_cls,net_prio") | .groups[] | select(.path == "/browsers") | .settings[] | select(.file == "net_cls.classid")'
	[ "$(jq -r "$q | .value" "$WORK/r.json")" = 0x100001 ]
	[ "$(jq -r "$q | .mapping" "$WORK/r.json")" = emulated ]
	[ "$(jq -r "$q | .v2_file" "$WORK/r.json")" = null ]
	[ "$(jq -r "$q | .fate" "$WORK/r.json")" = lost ]
	[[ "$(jq -r "$q | .note" "$WORK/r.json")" == *"socket cgroupv2"* ]]
	[ "$(json_query '.verdict.status' "$WORK/r.json")" = needs-changes ]
	[ "$(json_query '.verdict.settings_lost' "$WORK/r.json")" = 1 ]
	[ "$(json_query '.verdict.settings_exact' "$WORK/r.json")" = 1 ]
}

@test "a copy of a v1 layout: the process in two hierarchies is flagged and folds approximately" {
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format json >"$WORK/r.json"
	p=".processes[] | select(.pid == $pid)"
	[ "$(jq -r "$p | .multi_hierarchy" "$WORK/r.json")" = true ]
	[ "$(jq -r "$p | .comm" "$WORK/r.json")" = sleep ]
	[ "$(jq -r "$p | .tuple[\"cpu,cpuacct\"]" "$WORK/r.json")" = /students ]
	[ "$(jq -r "$p | .tuple[\"net_cls,net_prio\"]" "$WORK/r.json")" = /browsers ]
	# cpu is the primary hierarchy: the leaf nests under /students, named for net_cls.
	[ "$(jq -r "$p | .v2_leaf" "$WORK/r.json")" = "/students/@net_cls=browsers" ]
	[ "$(jq -r "$p | .fold" "$WORK/r.json")" = approximate ]
	[ "$(jq -r '.hierarchies[] | select(.name == "net_cls,net_prio") | .groups[1].fold' "$WORK/r.json")" = approximate ]
	[ "$(jq -r '.hierarchies[] | select(.name == "cpu,cpuacct") | .groups[1].tasks[0]' "$WORK/r.json")" = "$pid" ]
	[ "$(jq -r '.divergent_trees | map(.path) | join(" ")' "$WORK/r.json")" = "/browsers /students" ]
	[ "$(jq -r '.v2_layout.children[] | select(.name == "students") | .children[0].name' "$WORK/r.json")" = "@net_cls=browsers" ]
}

@test "a copy of a v1 layout: paths where the trees differ in the layout's order; which hierarchies diverge" {
	make_university
	# /alpha (cpu only) is scanned before /browsers but listed by name; /students/alice is only in cpu.
	mkdir -p "$UNIVERSITY/cpu,cpuacct/alpha" "$UNIVERSITY/cpu,cpuacct/students/alice" "$UNIVERSITY/freezer"
	: >"$UNIVERSITY/freezer/tasks"
	"$MIGRATE" report --scan "$UNIVERSITY" --format json >"$WORK/r.json"
	[ "$(json_query '.divergent_trees | map(.path) | join(" ")' "$WORK/r.json")" = "/alpha /browsers /students /students/alice" ]
	[ "$(json_query '[.hierarchies[] | "\(.name)=\(.divergent)"] | join(" ")' "$WORK/r.json")" = \
		"cpu,cpuacct=true freezer=false net_cls,net_prio=true" ]
}

@test "a copy of a v1 layout: what a group starts with is no setting, nor is the root's vm.swappiness" {
	root=$WORK/cgroup
	mkdir -p "$root/memory/db" "$root/hugetlb/db" "$root/hugetlb/web/cache" "$root/devices/db"
	: >"$root/memory/tasks"
	: >"$root/hugetlb/tasks"
	: >"$root/devices/tasks"
	# A host tuned to vm.swappiness=10: the root shows it, and groups start with it.
	echo 10 >"$root/memory/memory.swappiness"
	echo 10 >"$root/memory/db/memory.swappiness"
	# hugetlb: the kernel's root reads PAGE_COUNTER_MAX pages, a new group that
	# rounded down to whole huge pages, whatever its parent's limit.
	echo 9223372036854771712 >"$root/hugetlb/hugetlb.2MB.limit_in_bytes"
	echo 9223372036852678656 >"$root/hugetlb/db/hugetlb.2MB.limit_in_bytes"
	echo 1073741824 >"$root/hugetlb/web/hugetlb.2MB.limit_in_bytes"
	echo 9223372036852678656 >"$root/hugetlb/web/cache/hugetlb.2MB.limit_in_bytes"
	echo 'a *:* rwm' >"$root/devices/devices.list"
	echo 'a *:* rwm' >"$root/devices/db/devices.list"
	"$MIGRATE" report --scan "$root" --format json >"$WORK/r.json"
	[ "$(jq -r '[.hierarchies[] | .name as $h | .groups[] | .path as $p | .settings[] | "\($h):\($p):\(.file)=\(.value)"] | join(" ")' "$WORK/r.json")" = \
		"hugetlb:/web:hugetlb.2MB.limit_in_bytes=1073741824" ]
}

# A cgxfs view on a scratch base of the host's cgroup2 mount, at $MNT.
start_view() {
	CG2=$(cgroup2_mount)
	[ -n "$CG2" ] || skip "no cgroup2 mount on this host"
	BASE=cgx-test-$$-$RANDOM
	MNT=$(mktemp -d /tmp/cgxfs-mnt.XXXXXX)
	export CG2 BASE MNT
	start_cgxfs
}

@test "report --from a running cgxfs proposes the leaf cgxfs itself chose" {
	start_view
	mkdir "$MNT/cpu,cpuacct/students" "$MNT/net_cls,net_prio/browsers"
	echo 0x100001 >"$MNT/net_cls,net_prio/browsers/net_cls.classid"
	spawn_sleeper
	echo "$pid" >"$MNT/cpu,cpuacct/students/tasks"
	echo "$pid" >"$MNT/net_cls,net_prio/browsers/tasks"
	"$MIGRATE" report --from "$MNT" --format json >"$WORK/r.json"
	[ "$(json_query '.sources[0].kind' "$WORK/r.json")" = cgxfs ]
	# Every hierarchy of the view, none twice (the alias symlinks are skipped).
	[ "$(jq '.hierarchies | length' "$WORK/r.json")" = "$(find "$MNT" -mindepth 1 -maxdepth 1 -type d | wc -l)" ]
	[ "$(jq -r ".processes[] | select(.pid == $pid) | .multi_hierarchy" "$WORK/r.json")" = true ]
	leaf=$(jq -r ".processes[] | select(.pid == $pid) | .v2_leaf" "$WORK/r.json")
	[ "/$BASE$leaf" = "$(v2_path_of "$pid")" ]
	q='.hierarchies[] | select(.name == "net_cls,net_prio") | .groups[] | select(.path == "/browsers") | .settings[0]'
	[ "$(jq -r "$q | .file" "$WORK/r.json")" = net_cls.classid ]
	[ "$(jq -r "$q | .value" "$WORK/r.json")" = 1048577 ]
}

# cgx-migrate ARGS... in a mount namespace of its own where no v1 hierarchy
# is mounted, as on a cgroup2-only host (the host's mounts are not touched:
# the namespace's propagation is private), with a default deprecation log
# of one record on a tmpfs over /var/log.
migrate_without_v1() {
	unshare --mount --propagation private sh -c '
		awk "\$3 == \"cgroup\" { print \$2 }" /proc/self/mounts | sort -r |
			while read -r m; do umount -l "$m" || exit 1; done
		mount -t tmpfs cgx-test /var/log && mkdir /var/log/cgx &&
			echo "{\"v\":2}" >/var/log/cgx/deprecations.jsonl || exit 1
		exec "$@"' sh "$MIGRATE" "$@"
}

@test "report with no v1 hierarchy mounted names the cgxfs view and the log to read instead" {
	start_view
	run --separate-stderr migrate_without_v1 report --format json
	[ "$status" -eq 0 ]
	# Still the mount table's report: what is scanned does not change behind the user's back.
	[ "$(jq -r '.sources[0].kind' <<<"$output")" = scan ]
	[ "$(jq '.hierarchies | length' <<<"$output")" = 0 ]
	grep -qx "cgx-migrate: warning: no cgroup v1 hierarchy is mounted: nothing to migrate in the mount table" <<<"$stderr"
	grep -qxF "cgx-migrate: warning: a cgxfs view is mounted at $MNT, not scanned: cgx-migrate report --from $MNT" <<<"$stderr"
	grep -qxF "cgx-migrate: warning: cgxfs's deprecation log /var/log/cgx/deprecations.jsonl has records: cgx-migrate report --log /var/log/cgx/deprecations.jsonl" <<<"$stderr"
	# plan hints at plan, and not at the log, which it does not read.
	run --separate-stderr migrate_without_v1 plan
	[ "$status" -eq 0 ]
	grep -qxF "cgx-migrate: warning: a cgxfs view is mounted at $MNT, not scanned: cgx-migrate plan --from $MNT" <<<"$stderr"
	! grep -q "deprecation log" <<<"$stderr"
}

write_log() {
	local good='{"v":1,"time":"2026-12-03T11:30:00.123Z","kind":"multi-hierarchy-process","tuple":{"cpu,cpuacct":"/students","net_cls,net_prio":"/browsers"},"pid":100,"ppid":1,"uid":0,"comm":"sh","exe":"/usr/bin/dash","cmdline":["sh","/opt/lab/setup.sh"],"script":"/opt/lab/setup.sh"}'
	local none='{"v":1,"time":"2026-12-03T11:31:00.000Z","kind":"no-v2-equivalent","hierarchy":"net_cls,net_prio","group":"/browsers","file":"net_cls.classid","value":"0x100001","pid":102,"ppid":1,"uid":0,"comm":"netsetup","exe":"/usr/local/bin/netsetup","cmdline":["netsetup"]}'
	{
		echo "$good"
		echo "$good"
		echo "$good"
		echo "$none"
		echo 'this is not json'
		echo '{"v":1,"time":"2026-12-03T11:32:00.000Z","kind":"multi-hier'
		echo '[1,2,3]'
		echo '{"time":"t","kind":"approximate"}'
		echo
		printf '%s' "${none:0:40}"
	} >"$1"
}

@test "a log with good, truncated and garbage lines: records counted by program, the rest skipped" {
	write_log "$WORK/log.jsonl"
	"$MIGRATE" report --log "$WORK/log.jsonl" --format json >"$WORK/r.json"
	[ "$(json_query '.log.lines' "$WORK/r.json")" = 10 ]
	[ "$(json_query '.log.records' "$WORK/r.json")" = 4 ]
	[ "$(json_query '.log.corrupt' "$WORK/r.json")" = 5 ]
	[ "$(json_query '.log.blank' "$WORK/r.json")" = 1 ]
	[ "$(json_query '.log.first_corrupt_line' "$WORK/r.json")" = 5 ]
	[ "$(json_query '.log.by_kind["multi-hierarchy-process"]' "$WORK/r.json")" = 3 ]
	[ "$(json_query '.log.uses[0].program' "$WORK/r.json")" = /opt/lab/setup.sh ]
	[ "$(json_query '.log.uses[0].count' "$WORK/r.json")" = 3 ]
	[ "$(json_query '.log.uses[0].examples[0]' "$WORK/r.json")" = "cpu,cpuacct:/students net_cls,net_prio:/browsers" ]
	[ "$(json_query '.log.uses[1].program' "$WORK/r.json")" = /usr/local/bin/netsetup ]
	[ "$(json_query '.verdict.log_multi_hierarchy' "$WORK/r.json")" = 3 ]
	[ "$(json_query '.verdict.status' "$WORK/r.json")" = needs-changes ]
	run "$MIGRATE" report --log "$WORK/log.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"10 lines, 4 records, 5 corrupt or truncated lines skipped"* ]]
}

@test "a log line of an unknown schema version: a clear error, non-zero, no output file" {
	write_log "$WORK/log.jsonl"
	# The last line was cut off without its newline: end it, then a record from a newer cgxfs.
	printf '\n%s\n' '{"v":3,"time":"2027-01-01T00:00:00.000Z","kind":"approximate"}' >>"$WORK/log.jsonl"
	run "$MIGRATE" report --log "$WORK/log.jsonl" -o "$WORK/out.txt"
	[ "$status" -ne 0 ]
	[[ "$output" == *"log.jsonl:11: deprecation log schema version 3 is unknown"* ]]
	[ ! -e "$WORK/out.txt" ]
	[ -z "$(find "$WORK" -name '.out.txt.*')" ]
}

@test "markdown has the settings table and the layout" {
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format markdown -o "$WORK/r.md"
	grep -qx '## Proposed cgroup2 layout' "$WORK/r.md"
	grep -qF '| `cpu,cpuacct` | `/students` | `cpu.shares` | `512` | `cpu.weight` | `59` | exact |' "$WORK/r.md"
	grep -qF '| `net_cls,net_prio` | `/browsers` | `net_cls.classid` | `0x100001` | - | - | lost |' "$WORK/r.md"
	grep -qF '└── @net_cls=browsers  1 process, approximate' "$WORK/r.md"
	grep -qF '**Verdict: needs-changes**' "$WORK/r.md"
}

@test "html draws every group and leaf as an SVG node, divergent ones marked" {
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format html -o "$WORK/r.html"
	# Two v1 trees and the v2 tree; each svg is well-formed XML.
	[ "$(grep -c '<svg ' "$WORK/r.html")" = 3 ]
	python3 - "$WORK/r.html" <<'PY'
import re, sys, xml.dom.minidom
html = open(sys.argv[1]).read()
svgs = re.findall(r'<svg .*?</svg>', html, re.S)
nodes = [len(re.findall(r'<(circle|rect) ', s)) for s in svgs]
assert nodes == [2, 2, 4], nodes  # / and /students; / and /browsers; /, browsers, students, leaf
for s in svgs:
    xml.dom.minidom.parseString(s)
assert 'class="node divergent"' in html
assert '@net_cls=browsers' in html
PY
}

@test "html renders in headless Chromium to a non-empty screenshot" {
	chromium=$(command -v chromium || command -v chromium-browser || true)
	[ -n "$chromium" ] || skip "chromium is not installed (scripts/install-deps installs it)"
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format html -o "$WORK/r.html"
	HOME=$WORK timeout 120 "$chromium" --headless --no-sandbox --disable-gpu \
		--window-size=1200,1600 --screenshot="$WORK/r.png" "file://$WORK/r.html" 2>/dev/null || true
	[ -s "$WORK/r.png" ]
	[ "$(head -c 8 "$WORK/r.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ "$(stat -c %s "$WORK/r.png")" -gt 20000 ]
}

@test "table --format json lists every row, memory.swappiness with kind none" {
	"$MIGRATE" table --format json >"$WORK/t.json"
	[ "$(json_query '.schema' "$WORK/t.json")" = cgx-migrate-table/1 ]
	[ "$(jq -r '.files[] | select(.file == "memory.swappiness") | .mapping' "$WORK/t.json")" = none ]
	[ "$(jq -r '.files[] | select(.file == "memory.swappiness") | .default' "$WORK/t.json")" = 60 ]
	[ "$(jq -r '.files[] | select(.file == "cpu.shares") | .v2_file' "$WORK/t.json")" = cpu.weight ]
	[ "$(jq -r '.files[] | select(.file == "net_cls.classid") | .controller' "$WORK/t.json")" = net_cls ]
	[ "$(jq '[.files[] | select(.mapping == "unset")] | length' "$WORK/t.json")" = 0 ]
	[ "$(jq '[.files[] | select(.controller and .file and .mode and .mapping)] | length' "$WORK/t.json")" = "$(jq '.files | length' "$WORK/t.json")" ]
	run "$MIGRATE" table
	[ "$status" -eq 0 ]
	[[ "$output" == *"memory.swappiness"*"none"* ]]
}

@test "-o with an unreadable source leaves no file, and keeps an existing one" {
	run "$MIGRATE" report --scan "$WORK/missing" -o "$WORK/out.json" --format json
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot open $WORK/missing"* ]]
	[ ! -e "$WORK/out.json" ]
	echo previous >"$WORK/out.json"
	run "$MIGRATE" report --log "$WORK/missing.jsonl" -o "$WORK/out.json"
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot open the deprecation log"* ]]
	[ "$(cat "$WORK/out.json")" = previous ]
	[ "$(ls -A "$WORK")" = out.json ]
}

@test "bad arguments and sources fail with a message" {
	run "$MIGRATE" report --format yaml
	[ "$status" -ne 0 ]
	[[ "$output" == *'unknown format "yaml"'* ]]
	run "$MIGRATE" frobnicate
	[ "$status" -ne 0 ]
	# A format as an option of its own: the error says how the tool spells it.
	run "$MIGRATE" report --json
	[ "$status" -eq 1 ]
	[[ "$output" == *"unknown option --json: the format is chosen with --format json"* ]]
	run "$MIGRATE" report --frob
	[[ "$output" == *"unknown option --frob"$'\n'* ]]
	run "$MIGRATE" report --log "$WORK"
	[ "$status" -ne 0 ]
	mkdir "$WORK/empty"
	run "$MIGRATE" report --scan "$WORK/empty"
	[ "$status" -ne 0 ]
	[[ "$output" == *"holds no cgroup v1 hierarchy"* ]]
}

@test "plan writes a shell script that recreates the layout with converted values" {
	make_university
	"$MIGRATE" plan --scan "$UNIVERSITY" -o "$WORK/plan.sh"
	sh -n "$WORK/plan.sh"
	grep -qxF "mkdir -p \"\$root\"/'students/@net_cls=browsers'" "$WORK/plan.sh"
	grep -qxF "echo '+cpu' > \"\$root\"/cgroup.subtree_control" "$WORK/plan.sh"
	grep -qxF "echo '59' > \"\$root\"/'students'/cpu.weight" "$WORK/plan.sh"
	grep -qF "# net_cls,net_prio:/browsers net_cls.classid=0x100001: lost; cgx gives the classid to packets" "$WORK/plan.sh"
}

@test "plan applied under a scratch cgroup2 directory builds the report's v2 tree" {
	CG2=$(cgroup2_mount)
	[ -n "$CG2" ] || skip "no cgroup2 mount on this host"
	# Settings need controllers this host may bind to v1: a layout with none to enable.
	root=$WORK/cgroup
	mkdir -p "$root/freezer/jobs/a" "$root/net_cls,net_prio/browsers"
	: >"$root/freezer/tasks"
	: >"$root/net_cls,net_prio/tasks"
	spawn_sleeper
	echo "$pid" >"$root/freezer/jobs/a/tasks"
	echo "$pid" >"$root/net_cls,net_prio/browsers/tasks"
	"$MIGRATE" report --scan "$root" --format json >"$WORK/r.json"
	"$MIGRATE" plan --scan "$root" -o "$WORK/plan.sh"
	PLAN_ROOT=$CG2/cgx-plan-test-$$-$RANDOM
	mkdir "$PLAN_ROOT"
	CGX_ROOT=$PLAN_ROOT sh "$WORK/plan.sh"
	want=$(jq -r '.. | objects | select(has("children")) | .path' "$WORK/r.json" | sort)
	got=$(cd "$PLAN_ROOT" && find . -type d | sed 's|^\.$|/|; s|^\./|/|' | sort)
	[ "$got" = "$want" ]
	[ -d "$PLAN_ROOT/jobs/a/@net_cls=browsers" ]
}

@test "plan --systemd writes slice drop-ins with the equivalent properties" {
	make_university
	"$MIGRATE" plan --scan "$UNIVERSITY" --systemd -o "$WORK/plan.sh"
	sh -n "$WORK/plan.sh"
	mkdir "$WORK/units"
	CGX_UNIT_DIR=$WORK/units sh "$WORK/plan.sh"
	grep -qx 'CPUWeight=59' "$WORK/units/students.slice.d/50-cgx-migrate.conf"
	grep -qx '\[Slice\]' "$WORK/units/students.slice.d/50-cgx-migrate.conf"
	grep -q '^# net_cls,net_prio:/browsers net_cls.classid=0x100001: lost' "$WORK/units/browsers.slice.d/50-cgx-migrate.conf"
	grep -qF 'students-\x40net_cls\x3dbrowsers.slice' "$WORK/plan.sh"
}

@test "a legacy systemd's groups: each unit keeps its name, in the plan and in the log's uses" {
	# What a container's systemd in legacy mode leaves in its v1 view: one
	# group per unit, under the container's own group.
	local root=$WORK/cgroup unit=ct/system.slice/svc.service
	mkdir -p "$root/memory/$unit" "$root/pids/$unit" "$root/cpu,cpuacct/$unit" \
		"$root/systemd/$unit" "$root/systemd/ct/init.scope"
	for h in memory pids cpu,cpuacct systemd; do : >"$root/$h/tasks"; done
	echo 67108864 >"$root/memory/$unit/memory.limit_in_bytes"
	echo 40 >"$root/pids/$unit/pids.max"
	echo 512 >"$root/cpu,cpuacct/$unit/cpu.shares"
	echo 1024 >"$root/cpu,cpuacct/cpu.shares"
	# A second container with a unit of the same name, and a unit of the host's own.
	mkdir -p "$root/memory/ct2/system.slice/svc.service" "$root/memory/system.slice/host.service"
	echo 33554432 >"$root/memory/ct2/system.slice/svc.service/memory.limit_in_bytes"
	echo 16777216 >"$root/memory/system.slice/host.service/memory.limit_in_bytes"
	"$MIGRATE" plan --scan "$root" --systemd -o "$WORK/plan.sh"
	sh -n "$WORK/plan.sh"
	mkdir "$WORK/units" "$WORK/containers"
	CGX_UNIT_DIR=$WORK/units CGX_CONTAINER_UNIT_DIR=$WORK/containers sh "$WORK/plan.sh"
	# Each container's units in a directory of its own, never the host's.
	local conf=$WORK/containers/ct/svc.service.d/50-cgx-migrate.conf
	[ "$(sed -n 1p "$conf")" = "[Service]" ]
	grep -qx 'MemoryMax=67108864' "$conf"
	grep -qx 'TasksMax=40' "$conf"
	grep -qx 'CPUWeight=59' "$conf"
	grep -qx 'MemoryMax=33554432' "$WORK/containers/ct2/svc.service.d/50-cgx-migrate.conf"
	[ "$(cd "$WORK/units" && ls)" = host.service.d ]
	grep -qx 'MemoryMax=16777216' "$WORK/units/host.service.d/50-cgx-migrate.conf"
	[ "$(cd "$WORK/containers" && ls | tr '\n' ' ')" = "ct ct2 " ]
	# A log of that systemd: its records per unit.
	local rec='{"v":2,"time":"2026-12-05T10:00:00.000Z","kind":"named-hierarchy","hierarchy":"name=systemd","pid":7,"ppid":1,"uid":0,"comm":"systemd","exe":"/usr/lib/systemd/systemd","cmdline":["/lib/systemd/systemd"],"program":"/usr/lib/systemd/systemd"'
	{
		echo "$rec"',"group":"/ct/system.slice/svc.service","unit":"svc.service"}'
		echo "$rec"',"group":"/ct/system.slice/svc.service","file":"tasks","unit":"svc.service"}'
		echo "$rec"',"group":"/ct/init.scope","unit":"init.scope"}'
	} >"$WORK/log.jsonl"
	"$MIGRATE" report --log "$WORK/log.jsonl" --format json >"$WORK/r.json"
	[ "$(jq -r '.log.uses[] | "\(.unit) \(.count)"' "$WORK/r.json" | tr '\n' ';')" = "svc.service 2;init.scope 1;" ]
	run "$MIGRATE" report --log "$WORK/log.jsonl"
	[[ "$output" == *"named-hierarchy "*" /usr/lib/systemd/systemd for svc.service  e.g."* ]]
}

@test "every finding has an id, a severity, whether it inhibits, and a remediation" {
	make_university
	write_log "$WORK/log.jsonl"
	"$MIGRATE" report --scan "$UNIVERSITY" --log "$WORK/log.jsonl" --format json >"$WORK/r.json"
	# All fields, of the right kinds, on every finding.
	[ "$(jq '[.findings[] | select((.id | type) == "string" and (.severity | IN("high", "medium", "low", "info"))
		and (.inhibitor | type) == "boolean" and (.title | length) > 0 and (.summary | length) > 0
		and (.remediation | length) > 0)] | length' "$WORK/r.json")" = "$(jq '.findings | length' "$WORK/r.json")" ]
	# Ids are unique, and the summary counts them.
	[ "$(jq '[.findings[].id] | unique | length' "$WORK/r.json")" = "$(jq '.findings | length' "$WORK/r.json")" ]
	[ "$(jq '[.findings[] | select(.inhibitor)] | length' "$WORK/r.json")" = "$(jq .findings_summary.inhibitors "$WORK/r.json")" ]
	finding() { jq -r --arg id "$1" '.findings[] | select(.id == $id) | '"$2" "$WORK/r.json"; }
	# A setting that would be lost blocks the move; one that converts says how, for systemd too.
	[ "$(finding setting-lost:net_cls,net_prio:/browsers:net_cls.classid '"\(.severity) \(.inhibitor)"')" = "high true" ]
	[[ "$(finding setting-converted:cpu,cpuacct:/students:cpu.shares .remediation)" == \
		"Write 59 to cpu.weight of the group's directory; with systemd, in a drop-in of students.slice ([Slice]): CPUWeight=59" ]]
	[ "$(finding "multi-hierarchy-process:$(readlink -f "$(command -v sleep)")" .severity)" = medium ]
	[ "$(finding divergent-tree:cpu,cpuacct .severity)" = low ]
	# The log's uses, by program: a write with no v2 equivalent inhibits.
	[ "$(finding log:no-v2-equivalent:/usr/local/bin/netsetup '"\(.severity) \(.inhibitor)"')" = "high true" ]
	[ "$(finding log:multi-hierarchy-process:/opt/lab/setup.sh .inhibitor)" = false ]
	# Most severe first.
	[ "$(jq -r '[.findings[].severity] | join(" ")' "$WORK/r.json" | tr ' ' '\n' | uniq | tr '\n' ' ')" = "high medium low info " ]
	# Text shows them too, above info.
	run "$MIGRATE" report --scan "$UNIVERSITY" --log "$WORK/log.jsonl"
	[[ "$output" == *"Findings: 2 inhibitors; 2 high, 2 medium, 2 low, 1 info"* ]]
	[[ "$output" == *"[high, inhibitor] net_cls.classid of net_cls,net_prio:/browsers has no cgroup2 equivalent"* ]]
	# Markdown and HTML: the same rows.
	"$MIGRATE" report --scan "$UNIVERSITY" --log "$WORK/log.jsonl" --format markdown >"$WORK/r.md"
	grep -qF '| high | yes | **net\_cls.classid of net\_cls,net\_prio:/browsers has no cgroup2 equivalent**' "$WORK/r.md"
	"$MIGRATE" report --scan "$UNIVERSITY" --log "$WORK/log.jsonl" --format html >"$WORK/r.html"
	grep -qF '<tr><td>high</td><td>yes</td><td><strong>net_cls.classid of net_cls,net_prio:/browsers has no cgroup2 equivalent</strong>' "$WORK/r.html"
}

@test "merge combines host reports into a fleet report" {
	make_university
	"$MIGRATE" report --scan "$UNIVERSITY" --format json -o "$WORK/a.json"
	mkdir -p "$WORK/ok/pids/web"
	: >"$WORK/ok/pids/tasks"
	echo 100 >"$WORK/ok/pids/web/pids.max"
	"$MIGRATE" report --scan "$WORK/ok" --format json -o "$WORK/b.json"
	[ "$(json_query '.verdict.status' "$WORK/b.json")" = ready ]
	"$MIGRATE" merge --format json "$WORK/a.json" "$WORK/b.json" >"$WORK/fleet.json"
	[ "$(json_query '.summary.hosts' "$WORK/fleet.json")" = 2 ]
	[ "$(json_query '.summary.ready' "$WORK/fleet.json")" = 1 ]
	[ "$(json_query '.summary.needs_changes' "$WORK/fleet.json")" = 1 ]
	[ "$(json_query '.multi_hierarchy_programs[0].program' "$WORK/fleet.json")" = "$(readlink -f "$(command -v sleep)")" ]
	[ "$(json_query '.lost_settings[0].file' "$WORK/fleet.json")" = net_cls.classid ]
	# How many hosts are inhibited, by which findings.
	[ "$(json_query '.summary.inhibited' "$WORK/fleet.json")" = 1 ]
	[ "$(jq -r '.inhibitors[] | "\(.id) \(.nr_hosts)"' "$WORK/fleet.json")" = \
		"setting-lost:net_cls,net_prio:/browsers:net_cls.classid 1" ]
	[ "$(jq -r '[.hosts[].inhibitors] | join(" ")' "$WORK/fleet.json")" = "1 0" ]
	run "$MIGRATE" merge "$WORK/a.json" "$WORK/b.json"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ready: 1, ready with approximations: 0, needs changes: 1"* ]]
	[[ "$output" == *"inhibited (cannot move to a cgroup2-only kernel unchanged): 1"* ]]
	[[ "$output" == *"net_cls.classid of net_cls,net_prio:/browsers has no cgroup2 equivalent (setting-lost:net_cls,net_prio:/browsers:net_cls.classid): 1 host"* ]]
}

@test "merge refuses a file that is not a report, or of an unknown version" {
	echo 'not json' >"$WORK/bad.json"
	run "$MIGRATE" merge "$WORK/bad.json"
	[ "$status" -ne 0 ]
	[[ "$output" == *"bad.json: not JSON"* ]]
	echo '{"schema":"cgx-migrate/9","version":9}' >"$WORK/v9.json"
	run "$MIGRATE" merge "$WORK/v9.json" -o "$WORK/fleet.txt"
	[ "$status" -ne 0 ]
	[[ "$output" == *"version 9 is unknown"* ]]
	[ ! -e "$WORK/fleet.txt" ]
}

@test "text is coloured on a terminal only, and never with NO_COLOR" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	make_university
	run script -qec "$MIGRATE report --scan $UNIVERSITY" /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\033[31mneeds-changes'* ]]
	run script -qec "NO_COLOR=1 $MIGRATE report --scan $UNIVERSITY" /dev/null
	[[ "$output" != *$'\033['* ]]
	[[ "$output" == *"Verdict: needs-changes"* ]]
}

# Group names a delegated user picks and a comm any process sets: a report
# must show them, never pass them to the terminal that reads it.
make_hostile_layout() {
	local root=$WORK/cgroup h
	HOSTILE_NAMES=($'\e]0;pwned\a\e[31mred' $'over\rwrite' $'c1\xc2\x9bcsi' $'raw\x9bbyte'
		$'bidi\xe2\x80\xaeevil' $'del\x7f' 'back\slash')
	h=$root/cpu,cpuacct
	mkdir -p "$h"
	: >"$h/tasks"
	for name in "${HOSTILE_NAMES[@]}"; do
		mkdir "$h/$name"
		: >"$h/$name/tasks"
	done
	echo 512 >"$h/${HOSTILE_NAMES[0]}/cpu.shares"
	# A process names itself: comm is whatever it wrote (python itself, not a wrapper script).
	"$(python3 -c 'import sys; print(sys.executable)')" -c 'import time; open("/proc/self/comm", "w").write("x\x1b[2Jy\r"); time.sleep(1000)' \
		</dev/null >/dev/null 2>&1 &
	pid=$!
	SLEEPERS="${SLEEPERS:-} $pid"
	for _ in $(seq 50); do
		[ "$(cat /proc/$pid/comm)" = $'x\e[2Jy\r' ] && break
		sleep 0.1
	done
	echo "$pid" >"$h/${HOSTILE_NAMES[1]}/tasks"
	# In two hierarchies, so that the process and its comm are listed.
	mkdir -p "$root/net_cls,net_prio/other"
	: >"$root/net_cls,net_prio/tasks"
	echo "$pid" >"$root/net_cls,net_prio/other/tasks"
	HOSTILE=$root
}

# Whether FILE holds a control character other than newline, DEL, a C1 control, a
# bidirectional override or a byte that is no UTF-8.
has_raw_controls() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "surrogateescape")
bad = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\udc80-\udcff]", text)
sys.exit(0 if bad else 1)
PY
}

@test "control characters of names and comm are escaped in text, markdown and html" {
	make_hostile_layout
	for format in text markdown html; do
		"$MIGRATE" report --scan "$HOSTILE" --format "$format" -o "$WORK/r.$format"
		! has_raw_controls "$WORK/r.$format" || { echo "raw control in $format"; false; }
	done
	grep -qF 'cpu,cpuacct:/\x1b]0;pwned\x07\x1b[31mred' "$WORK/r.text"
	grep -qF -- '── over\x0dwrite  [cpu,cpuacct]' "$WORK/r.text"
	grep -qF -- '── c1\xc2\x9bcsi' "$WORK/r.text"
	grep -qF -- '── raw\x9bbyte' "$WORK/r.text"
	grep -qF -- '── bidi\xe2\x80\xaeevil' "$WORK/r.text"
	grep -qF -- '── del\x7f' "$WORK/r.text"
	# A backslash doubles, so that a name spelt "\x1b" reads apart from ESC.
	grep -qF -- '── back\\slash' "$WORK/r.text"
	grep -qF "x\\x1b[2Jy\\x0d (" "$WORK/r.text"
	# Markdown: the escape renders as written; in a code span it is written as is.
	grep -qF '| `cpu,cpuacct` | `/\x1b]0;pwned\x07\x1b[31mred` | `cpu.shares` | `512` |' "$WORK/r.markdown"
	grep -qF '| x\\x1b\[2Jy\\x0d |' "$WORK/r.markdown"
	grep -qF '<code>/\x1b]0;pwned\x07\x1b[31mred</code>' "$WORK/r.html"
	grep -qF '<td>x\x1b[2Jy\x0d</td>' "$WORK/r.html"
}

@test "json keeps hostile names whole and valid: C1 escaped, a stray byte as \\udcXX" {
	make_hostile_layout
	"$MIGRATE" report --scan "$HOSTILE" --format json -o "$WORK/r.json"
	! has_raw_controls "$WORK/r.json"
	grep -qF '"\u001b]0;pwned\u0007\u001b[31mred' "$WORK/r.json"
	grep -qF 'c1\u009bcsi' "$WORK/r.json"
	grep -qF 'raw\udc9bbyte' "$WORK/r.json"
	grep -qF 'bidi\u202eevil' "$WORK/r.json"
	# Every name that is UTF-8 reads back byte for byte; the stray byte through surrogateescape.
	python3 - "$WORK/r.json" "${HOSTILE_NAMES[@]}" <<'PY'
import json, os, sys
report = json.load(open(sys.argv[1]))
paths = {g["path"] for h in report["hierarchies"] for g in h["groups"]}
for name in sys.argv[2:]:
    want = "/" + os.fsdecode(os.fsencode(name))
    assert want in paths, (want, paths)
PY
	[ "$(jq -r ".processes[] | select(.pid == $pid) | .comm" "$WORK/r.json")" = $'x\e[2Jy\r' ]
}

@test "a group name past NAME_MAX gets the hashed v2 name cgxfs gives it, not an error" {
	local root=$WORK/cgroup name
	# 255 bytes (what /tmp holds) that need the escape: 257 in v2.
	name=memory.$(head -c 248 /dev/zero | tr '\0' m)
	mkdir -p "$root/cpu,cpuacct/$name"
	: >"$root/cpu,cpuacct/tasks"
	: >"$root/cpu,cpuacct/$name/tasks"
	"$MIGRATE" report --scan "$root" --format json -o "$WORK/r.json"
	hashed=$(python3 -c '
import os, sys
h = 0xcbf29ce484222325
for b in os.fsencode(sys.argv[1]):
    h = ((h ^ b) * 0x100000001b3) & (2**64 - 1)
print("@@~%016x" % h)' "$name")
	[ "$(jq -r '.hierarchies[0].groups[1].path' "$WORK/r.json")" = "/$name" ]
	[ "$(jq -r '.hierarchies[0].groups[1].v2_path' "$WORK/r.json")" = "/$hashed" ]
	[ "$(jq -r '.v2_layout.children[0].name' "$WORK/r.json")" = "$hashed" ]
}

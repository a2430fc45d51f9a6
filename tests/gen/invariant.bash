# The fold's invariant of tests/gen/check.py for the host suites (stress.bats,
# faults.bats): what cgroup2 under $CG2/$BASE must hold, derived from the v1
# state the view at $MNT shows. Extra arguments are pids to check even when
# no group of the view lists them. Prints each failure; fails if any.
gen_invariant() {
	local args=() pid
	for pid in "$@"; do args+=(--pid "$pid"); done
	python3 "$BATS_TEST_DIRNAME/../gen/check.py" --view "$MNT" --cgroup2 "$CG2" --base "$BASE" "${args[@]}"
}

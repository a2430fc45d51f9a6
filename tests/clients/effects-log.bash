# tests/clients/effects-log.bash: what cgx says of a client, beside what it does.
# Sourced after effects.bash (whose effect_on, effect_until and effect_why it
# uses) by client scripts that check cgxfs's deprecation log and cgx-migrate's
# plan of the view; like effects.bash, each check prints nothing when it holds,
# one "effect: " line when it does not within 20 s, and nothing without the base
# (the v1 guest, a run by hand).
#
#   effect_logged PROGRAM UNIT...   cgxfs's deprecation log has a record of a
#                                   program whose path ends in /PROGRAM for each
#                                   UNIT (its "unit" field)
#   effect_dropin UNIT LINE...      `cgx-migrate plan --systemd` of the view
#                                   writes UNIT's own drop-in, holding each LINE;
#                                   a container's unit as GROUP/UNIT (ct/svc.service)
# As effect_until, by the clock: these checks run a program each time (jq
# over the whole log, a report of the whole view), slow in a loaded guest.
effect_within() {
	local deadline=$((SECONDS + $1))
	shift
	effect_why=
	while :; do
		"$@" && return 0
		((SECONDS < deadline)) || break
		sleep 1
	done
	effect_say "$effect_why"
}

# cgxfs's log in the v2 guest (tests/vm/diff-guest starts it with the default).
: "${CGX_DEPRECATION_LOG:=/var/log/cgx/deprecations.jsonl}"

effect_logged_holds() {
	local program=$1 unit missing=
	shift
	for unit; do
		# Over all lines at once: jq -e judges by the last line's result alone.
		jq -en --arg p "/$program" --arg u "$unit" \
			'any(inputs; (.program // "" | endswith($p)) and .unit == $u)' \
			"$CGX_DEPRECATION_LOG" >/dev/null 2>&1 || missing+=" $unit"
	done
	[[ -z $missing ]] && return 0
	effect_why="$CGX_DEPRECATION_LOG: no record of $program for$missing"
	return 1
}
effect_logged() {
	effect_on || return 0
	effect_within 20 effect_logged_holds "$@"
	return 0
}

effect_dropin_holds() {
	local unit=$1 dir line conf missing=
	shift
	dir=$(mktemp -d) || return 1
	"${CGX_BUILD:?}/bin/cgx-migrate" plan --from /sys/fs/cgroup --systemd -o "$dir/plan.sh" &&
		CGX_UNIT_DIR=$dir/host CGX_CONTAINER_UNIT_DIR=$dir/containers \
			sh "$dir/plan.sh" >/dev/null 2>&1
	conf=$dir/host/$unit.d/50-cgx-migrate.conf
	[[ $unit == */* ]] && conf=$dir/containers/$unit.d/50-cgx-migrate.conf
	for line; do grep -qxF -- "$line" "$conf" 2>/dev/null || missing+=" $line"; done
	rm -rf "$dir"
	[[ -z $missing ]] && return 0
	effect_why="cgx-migrate plan --systemd: $unit's drop-in lacks$missing"
	return 1
}
effect_dropin() {
	effect_on || return 0
	effect_within 20 effect_dropin_holds "$@"
	return 0
}

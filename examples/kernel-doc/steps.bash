# Sourced by the examples of examples/kernel-doc (not run on its own).
#
# doc 'COMMAND': runs one command of the kernel's documentation as written,
# printed first as "# COMMAND"; a refusal is printed as its errno message
# ("  refused: Invalid argument"), so that a run shows what the kernel (or
# cgxfs) answered and never a pid, a time or a path of the host.
#
# The documentation mounts a tmpfs over /sys/fs/cgroup. Outside cgx-exec (a
# real v1 host) that would hide the host's hierarchies, so the example runs
# itself again in a private mount namespace; cgx-exec already gives it one.
if [[ $(readlink /proc/self/ns/mnt) == "$(readlink /proc/1/ns/mnt)" ]]; then
	exec unshare --mount --propagation private bash "$0" "$@"
fi

doc_err=$(mktemp)
# An example defines cleanup() to undo what it made, quietly and whatever
# step it got to; it runs on every exit, also after a failure.
trap 'declare -F cleanup >/dev/null && cleanup >/dev/null 2>&1; rm -f "$doc_err"' EXIT

doc() {
	local rc
	echo "# $1"
	eval "$1" 2>"$doc_err"
	rc=$?
	((rc == 0)) || echo "  refused: $(head -n1 "$doc_err" | sed 's/.*: //')"
	return $rc
}

# The exit status of COMMAND... run with its stderr dropped: bash's own
# "PID Killed" line for a child that died by a signal names a pid.
status_of() {
	local rc
	rc=$( { "$@"; } >/dev/null 2>&1; echo $?)
	echo "$rc"
}

# For cleanup(): this shell back to the root of HIERARCHY, then each GROUP
# removed, deepest first as given.
leave_groups() {
	local hierarchy=$1
	shift
	cd /
	echo $$ >"$hierarchy/tasks"
	rmdir "$@"
}

# yes or no: the test arguments hold.
yes_no() { if "$@"; then echo yes; else echo no; fi; }

# The highest CPU of a list such as "0-3,6": the documentation's CPU
# numbers do not exist on every machine.
last_cpu() { tr ',-' '\n\n' <"$1" | sed '/^$/d' | tail -n1; }

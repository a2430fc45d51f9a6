"""A generated program as a bash script that reruns alone on either guest.

The script prints what runner.py prints for the same program, line for line
(cgx-gen's self-test runs both in one guest and compares), so a minimal
program found by cgx-gen can go to tests/differential/ as it is and run
under tests/vm/diff-run: on kernel v1 it lays out its hierarchies with
mount -t cgroup, in its own mount namespace and in PID 1's (diff-run gives
each script a copy of the classic one, whose mounts would keep the
controllers bound); under cgxfs (the view over /sys/fs/cgroup) with
mkdir/rmdir of hierarchies. It puts the classic layout back on exit, and
leaves the name=systemd hierarchy alone (a v1 host keeps it; the programs
only use it in the classic layout).
"""

import os
import shlex

import known
import runner
import v1files
from v1files import boot_dir  # noqa: F401  (cgx-gen's shrinker names hierarchies by it)

HERE = os.path.dirname(os.path.abspath(__file__))

PREAMBLE = r'''export LC_ALL=C
cd /sys/fs/cgroup || exit 1
W=$(mktemp -d /tmp/cgxgen.XXXXXX)
cat >"$W/netdev.py" <<'NETDEV'
@NETDEV@
NETDEV
cat >"$W/worker.py" <<'WORKER'
@WORKER@
WORKER
cat >"$W/sys.py" <<'SYS'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
op, args = sys.argv[1], [a.encode() for a in sys.argv[2:]]
try:
    if op == "rename":
        os.rename(sys.argv[2], sys.argv[3])
        r = 0
    elif op == "mount":
        r = libc.mount(b"cgroup", args[1], b"cgroup", 0, args[0])
    else:
        r = libc.umount2(args[0], 0)
    print("ok" if r == 0 else os.strerror(ctypes.get_errno()))
except OSError as e:
    print(os.strerror(e.errno))
SYS

SHAPE='@SHAPE@'
DEVICE_STATS='@DEVICE_STATS@'
HITS='@HITS@'
UNREAD='@UNREAD@'  # left out of dumps while a known bug makes them differ (tests/gen/known.py)
# shellcheck disable=SC2054  # the commas are in the hierarchies' names
CLASSIC=(@CLASSIC@)
# shellcheck disable=SC2054
LAYOUT=(@LAYOUT@)
declare -A D=() PID=() TID=() OWNER=() CMD=() ACK=()
H=()
CGXFS=
[[ $(stat -f -c %T /sys/fs/cgroup) == fuse* ]] && CGXFS=1
seq=0

# R: the result of the last step: ok, the errno's text, or what a read showed.
err() { R=$(<"$W/err"); R=${R##*: }; R=${R:-failed}; }
run() { if "$@" 2>"$W/err" >/dev/null; then R=ok; else err; fi; }
wr() { if (echo "$2" >"$1") 2>"$W/err"; then R=ok; else err; fi; }
# A devices "a" rule: kernel v1 counts a child removed just now until it goes offline (runner.py).
wr_devices() {
  local i
  wr "$1" "$2"
  for ((i = 0; i < 100; i++)); do
    [[ $R == "Invalid argument" && -z $(find "${1%/*}" -mindepth 1 -maxdepth 1 -type d) ]] || break
    sleep 0.05
    wr "$1" "$2"
  done
}
say() { printf '%03d %s -> %s\n' "$1" "$2" "$R"; }

names() {
  local n
  for n in "${!PID[@]}"; do echo "${PID[$n]} $n"; done
  for n in "${!TID[@]}"; do echo "${TID[$n]} $n"; done
}
rd() { # FILE NAME ROOT(1 or empty)
  local out i
  if ! out=$(cat "$1" 2>"$W/err"); then err; return; fi
  if [[ $2 == freezer.state ]]; then
    for ((i = 0; i < 100; i++)); do [[ $out == FREEZING ]] || break; sleep 0.05; out=$(cat "$1"); done
  fi
  if [[ $2 == tasks || $2 == cgroup.procs ]]; then
    names >"$W/names"
    R="= $(awk -v root="$3" 'NR == FNR { n[$1] = $2; next }
      { for (i = 1; i <= NF; i++) if ($i in n) print n[$i]; else if (!root) print "?" }' \
      "$W/names" - <<<"$out" | sort | paste -sd' ')"
    return
  fi
  [[ $2 =~ $DEVICE_STATS ]] && out=$(awk '/^Total/ || !/ 0$/' <<<"$out")
  [[ $2 =~ $SHAPE || $2 =~ $DEVICE_STATS ]] && out=$(sed 's/[0-9]\+/N/g' <<<"$out")
  [[ $2 =~ $HITS ]] && { [[ $out == 0 ]] || out=N; }
  R="= ${out//$'\n'/|}"
}
ls_() {
  local out e l=()
  if ! out=$(ls -A "$1" 2>"$W/err"); then err; return; fi
  for e in $out; do if [[ -d $1/$e ]]; then l+=("$e/"); else l+=("$e"); fi; done
  R="= ${l[*]}"
}
groups() { # the groups of hierarchy $1, "" first, parents before children
  (cd "/sys/fs/cgroup/${D[$1]}" && find . -type d | sed 's|^\./\{0,1\}||' |
    sort -t/ -k1,1 -k2,2 -k3,3 -k4,4 -k5,5)
}
dump() { # [full]
  local h g p f m name out=("=")
  for h in $(printf '%s\n' "${H[@]}" | sort); do
    while IFS= read -r g; do
      p="$h/$g"
      p=${p%/}
      rd "${D[$h]}/$g/tasks" tasks "$([[ -z $g ]] && echo 1)"
      [[ -n $1 || $R != "= " ]] && out+=("  $p tasks $R")
      [[ -n $1 ]] || continue
      while read -r m f; do
        name=${f##*/}
        [[ -d $f || $name == tasks || $name == cgroup.procs || $m != *[4567]* ]] && continue
        [[ " $UNREAD " == *" $name "* ]] && continue
        rd "$f" "$name" "$([[ -z $g ]] && echo 1)"
        out+=("  $p $name $R")
      done < <(stat -c '%a %n' "${D[$h]}/$g"/* | sort -k2)
    done < <(groups "$h")
  done
  R=$(printf '%s\n' "${out[@]}")
}

# Workers: tests/gen/worker.py's protocol over two FIFOs each.
mkf() {
  local fd
  rm -f "$W/$1.cmd" "$W/$1.ack"
  mkfifo "$W/$1.cmd" "$W/$1.ack"
  exec {fd}<>"$W/$1.cmd"; CMD[$1]=$fd
  exec {fd}<>"$W/$1.ack"; ACK[$1]=$fd
}
answer() { # NAME SEQ [TIMEOUT]: the words after SEQ in REPLY
  local line
  while IFS= read -r -t "${3:-4}" -u "${ACK[$1]}" line; do
    [[ ${line%%$'\t'*} == "$2" ]] && { REPLY=${line#*$'\t'}; return 0; }
  done
  return 1
}
cmd() { # NAME VERB ARG...: R from the answer
  seq=$((seq + 1))
  local IFS=$'\t'
  printf '%s\t%s\n' "$seq" "$*" >&"${CMD[$1]}"
  if ! answer "$1" "$seq"; then R="no answer"; return 1; fi
  case $REPLY in ok*) R=ok ;; *) R=${REPLY##*$'\t'}; return 1 ;; esac
}
need() { [[ -n ${PID[$1]:-} ]] && return 0; R="skip: no process $1"; return 1; }
spawn() {
  [[ -n ${PID[$1]:-} ]] && { R="skip: $1 exists"; return; }
  mkf "$1"
  python3 "$W/worker.py" "$W" "$1" </dev/null >/dev/null 2>&1 &
  if answer "$1" 0 10; then PID[$1]=${REPLY#ok$'\t'}; R=ok; else R="no answer"; fi
}
fork() {
  need "$1" || return
  [[ -n ${PID[$2]:-} ]] && { R="skip: $2 exists"; return; }
  mkf "$2"
  cmd "$1" fork "$2" || return
  local pid=${REPLY#ok$'\t'}
  if answer "$2" 0 10; then PID[$2]=$pid; R=ok; else R="no answer"; fi
}
gone() {
  local st
  st=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 0
  [[ -z $st || $st == Z ]]
}
exit_() {
  need "$1" || return
  local i t pid=${PID[$1]}
  kill -9 "$pid"
  for ((i = 0; i < 250; i++)); do gone "$pid" && break; sleep 0.02; done
  gone "$pid" || { R="still there"; return; }
  unset "PID[$1]"
  for t in "${!OWNER[@]}"; do [[ ${OWNER[$t]} == "$1" ]] && unset "TID[$t]" "OWNER[$t]"; done
  R=ok
}
thread() {
  need "$1" || return
  [[ -n ${TID[$2]:-} ]] && { R="skip: $2 exists"; return; }
  cmd "$1" thread "$2" && { TID[$2]=${REPLY#ok$'\t'}; OWNER[$2]=$1; }
}
thread_exit() {
  need "$1" || return
  [[ ${OWNER[$2]:-} == "$1" ]] || { R="skip: no thread $2"; return; }
  cmd "$1" thread_exit "$2" && unset "TID[$2]" "OWNER[$2]"
}
move() { need "$1" && wr "$2" "${PID[$1]}"; }
selfmove() { need "$1" && cmd "$1" write "/sys/fs/cgroup/$2" 0; }
home() {
  need "$1" || return
  local h bad=()
  for h in $(printf '%s\n' "${H[@]}" | sort); do
    wr "${D[$h]}/cgroup.procs" "${PID[$1]}"
    [[ $R == ok ]] || bad+=("$h: $R")
  done
  R=ok
  if ((${#bad[@]})); then R=$(printf '%s; ' "${bad[@]}"); R=${R%; }; fi
}
probe() { need "$1" && cmd "$1" open "$2" "$3"; }
# d0 (tests/gen/netdev.py) is made at the first send and left for the guest's end.
NET=
send() {
  need "$1" || return
  [[ -n $NET ]] || NET=$(cd "$W" && python3 -c 'import netdev; print("yes" if netdev.setup() else "no")')
  [[ $NET == yes ]] || { R="skip: no d0"; return; }
  local before after i
  before=$(cd "$W" && python3 -c 'import netdev; print(netdev.counts())')
  cmd "$1" send 10.9.0.2 || return
  for ((i = 0; i < 100; i++)); do
    R=$(cd "$W" && python3 -c 'import ast, netdev, sys
b, a = ast.literal_eval(sys.argv[1]), netdev.counts()
print(" ".join(sorted(c for c in a if a[c] > b.get(c, 0))))' "$before")
    [[ -n $R ]] && break
    sleep 0.02
  done
  R="= ${R:-nowhere}"
}
rename_() { R=$(python3 "$W/sys.py" rename "$1" "$2"); }

# Hierarchies: mount -t cgroup on kernel v1, mkdir/rmdir of the view's on cgxfs.
bound() { awk 'NR > 1 && $2 != 0 { print $1 }' /proc/cgroups; }
released() { # DIR: its removed groups gone for good (an umount before would leave it alive)
  local c i
  for ((i = 0; i < 200; i++)); do
    for c in $(awk '$3 == "cgroup" && $2 == "/sys/fs/cgroup/'"$1"'" { print $4 }' /proc/self/mounts |
      tr , ' '); do
      awk -v c="$c" '$1 == c && $3 != 1 { bad = 1 } END { exit bad }' /proc/cgroups || break
      c=
    done
    [[ -z $c ]] && return
    sleep 0.1
  done
}
v1_mount() { # SPEC DIR
  local c i
  mkdir "$2" 2>"$W/err" || { err; return; }
  # A hierarchy just taken away frees its controllers only once its root is freed.
  for ((i = 0; i < 100; i++)); do
    for c in ${1//,/ }; do
      bound | grep -qx "$c" && ! grep -q "[ ,]${c}[ ,]" <(v1_mounted_options) && break
      c=
    done
    [[ -z $c ]] && break
    sleep 0.05
  done
  R=$(python3 "$W/sys.py" mount "$1" "/sys/fs/cgroup/$2")
  [[ $R == ok ]] || rmdir "$2"
  v1_aliases
}
v1_mounted_options() { awk '$3 == "cgroup" { print " " $4 "," }' /proc/self/mounts; }
v1_aliases() { # cpu -> cpu,cpuacct for each co-mount, as a v1 host and cgxfs show
  local h c
  find /sys/fs/cgroup -maxdepth 1 -type l -delete
  for h in "${H[@]}"; do
    [[ $h == *,* && ${D[$h]} == "$h" ]] || continue
    for c in ${h//,/ }; do [[ $c == name=* || $c == none || -e $c ]] || ln -s "$h" "$c"; done
  done
}
mkhier() {
  if [[ -n $CGXFS ]]; then run mkdir "$1"; else v1_mount "$1" "$1"; fi
  [[ $R == ok ]] && { D[$1]=$1; H+=("$1"); [[ -n $CGXFS ]] || v1_aliases; }
}
rmhier() {
  local d=${D[$1]:-$1} i
  if [[ -n $CGXFS ]]; then
    run rmdir "$d"
  elif ! mountpoint -q "/sys/fs/cgroup/$d"; then
    R="No such file or directory"
  elif [[ -n $(find "$d" -mindepth 1 -maxdepth 1 -type d) ]]; then
    R="Device or resource busy"
  else
    released "$d"
    R=$(python3 "$W/sys.py" umount "/sys/fs/cgroup/$d")
    [[ $R == ok ]] && rmdir "$d"
  fi
  if [[ $R == ok ]]; then
    for i in "${!H[@]}"; do [[ ${H[$i]} == "$1" ]] && unset "H[$i]"; done
    H=("${H[@]}")
    [[ -n $CGXFS ]] || v1_aliases
  fi
}
in_pid1() { # COMMAND...: in PID 1's mount namespace too, when this is another one
  [[ $(readlink /proc/1/ns/mnt) == "$(readlink /proc/self/ns/mnt)" ]] || nsenter -t 1 -m -- "$@"
}
unmount_all() { # every hierarchy but name=systemd, here and in PID 1's namespace
  local m
  for m in $(awk '$3 == "cgroup" && $2 !~ "/systemd$" { print $2 }' /proc/self/mounts); do
    released "${m#/sys/fs/cgroup/}"
    umount "$m"
    in_pid1 umount "$m" 2>/dev/null
    rmdir "$m" 2>/dev/null
  done
  find /sys/fs/cgroup -maxdepth 1 -type l -delete
}
set_layout() { # the program's hierarchies in place of the classic ones
  local spec dir
  if [[ ${LAYOUT[*]} == "${CLASSIC[*]}" ]]; then
    for spec in "${LAYOUT[@]}"; do dir=$(boot_dir "$spec"); D[$dir]=$dir; H+=("$dir"); done
    return
  fi
  if [[ -n $CGXFS ]]; then
    for dir in *; do [[ -d $dir && ! -L $dir && $dir != systemd ]] && rmdir "$dir"; done
  else
    mount -o remount,rw /sys/fs/cgroup
    unmount_all
  fi
  for spec in "${LAYOUT[@]}"; do
    dir=$(boot_dir "$spec")
    if [[ -n $CGXFS ]]; then
      mkdir "$spec" || echo "cannot make hierarchy $spec"
      D[$dir]=$spec
    else
      D[$dir]=$dir
      v1_mount "$spec" "$dir"
      [[ $R == ok ]] || echo "cannot mount $spec: $R"
    fi
    H+=("$dir")
  done
  [[ -n $CGXFS ]] || v1_aliases
}
boot_dir() { # "cpu,cpuacct" -> cpu,cpuacct; "none,name=jobs" -> jobs
  local w c=() n=
  for w in ${1//,/ }; do
    case $w in none) ;; name=*) n=${w#name=} ;; *) c+=("$w") ;; esac
  done
  if ((${#c[@]})); then local IFS=,; echo "${c[*]}"; else echo "$n"; fi
}
restore() { # the workers gone, the groups removed, the classic layout back
  local h g pid i
  for h in "${H[@]}"; do
    while IFS= read -r g; do
      [[ -e ${D[$h]}/$g/freezer.state ]] && echo THAWED >"${D[$h]}/$g/freezer.state"
    done < <(groups "$h")
  done
  for pid in "${PID[@]}"; do kill -9 "$pid" 2>/dev/null; done
  for h in "${H[@]}"; do
    # shellcheck disable=SC2038  # what goes to xargs is pids, not names
    find "${D[$h]}" -mindepth 2 -name cgroup.procs -exec cat {} + | xargs -r kill -9 2>/dev/null
  done
  for h in "${H[@]}"; do
    for g in $(find "${D[$h]}" -mindepth 1 -type d | sort -r); do
      for ((i = 0; i < 50; i++)); do rmdir "$g" 2>/dev/null && break; sleep 0.1; done
    done
  done
  if [[ ${LAYOUT[*]} != "${CLASSIC[*]}" ]]; then
    if [[ -n $CGXFS ]]; then
      for h in "${H[@]}"; do rmdir "${D[$h]}"; done
      for h in "${CLASSIC[@]}"; do [[ $h == *name=* ]] || mkdir "$h"; done
    else
      unmount_all
      H=() D=()
      for h in "${CLASSIC[@]}"; do
        [[ $h == *name=* ]] && continue
        v1_mount "$h" "$h"
        in_pid1 mount -t cgroup -o "$h" cgroup "/sys/fs/cgroup/$h"
      done
      # The tmpfs is the same in both namespaces: its links are made once.
      ln -s cpu,cpuacct cpu; ln -s cpu,cpuacct cpuacct
      ln -s net_cls,net_prio net_cls; ln -s net_cls,net_prio net_prio
      mount -o remount,ro /sys/fs/cgroup
    fi
  fi
  rm -rf "$W"
}
trap restore EXIT
'''


def q(s):
    """@s quoted for bash, in double quotes where that needs no escape."""
    if s and not any(c in s for c in "\"$`\\!"):
        return s if shlex.quote(s) == s else f'"{s}"'
    return shlex.quote(s)


def hier_ref(h):
    return '"${D[' + h + ']:-' + h + '}"'


def path_ref(step, *more):
    """The step's group (and file) as a path relative to /sys/fs/cgroup, for bash."""
    rest = "/".join(([step["path"]] if step.get("path") else []) + list(more))
    return hier_ref(step["h"]) + (q("/" + rest) if rest else "")


def step_line(i, step):
    op = step["op"]
    desc = q(runner.describe(step))
    root = "" if step.get("path") else "1"
    if op == "mkdir":
        cmd = f"run mkdir {path_ref(step)}"
    elif op == "rmdir":
        cmd = f"run rmdir {path_ref(step)}"
    elif op == "rename":
        cmd = f"rename_ {path_ref(step)} {hier_ref(step['h'])}{q('/' + step['to'])}"
    elif op == "mkhier":
        cmd = f"mkhier {q(step['spec'])}"
    elif op == "rmhier":
        cmd = f"rmhier {q(step['h'])}"
    elif op == "spawn":
        cmd = f"spawn {step['proc']}"
    elif op == "fork":
        cmd = f"fork {step['proc']} {step['child']}"
    elif op == "exit":
        cmd = f"exit_ {step['proc']}"
    elif op == "thread":
        cmd = f"thread {step['proc']} {step['thread']}"
    elif op == "thread_exit":
        cmd = f"thread_exit {step['proc']} {step['thread']}"
    elif op == "move":
        cmd = f"move {step['proc']} {path_ref(step, step['file'])}"
    elif op == "selfmove":
        cmd = f"selfmove {step['proc']} {path_ref(step, step['file'])}"
    elif op == "home":
        cmd = f"home {step['proc']}"
    elif op == "write":
        devices_all = step["file"] in ("devices.allow", "devices.deny") and \
            step["value"].lstrip().startswith("a")
        cmd = f"{'wr_devices' if devices_all else 'wr'} {path_ref(step, step['file'])} " \
              f"{q(step['value'])}"
    elif op == "read":
        cmd = f"rd {path_ref(step, step['file'])} {q(step['file'])} {q(root)}"
    elif op == "ls":
        cmd = f"ls_ {path_ref(step)}"
    elif op == "probe":
        cmd = f"probe {step['proc']} {q(step['dev'])} {step['mode']}"
    elif op == "send":
        cmd = f"send {step['proc']}"
    elif op == "dump":
        cmd = "dump" + (" full" if step.get("full") else "")
    else:
        raise ValueError(op)
    return f"{cmd}; say {i} {desc}"


def render(program):
    with open(os.path.join(HERE, "worker.py")) as f:
        worker = f.read().rstrip("\n")
    with open(os.path.join(HERE, "netdev.py")) as f:
        net = f.read().rstrip("\n")
    pre = (PREAMBLE.replace("@WORKER@", worker)
           .replace("@NETDEV@", net)
           .replace("@SHAPE@", v1files.SHAPE_FILES)
           .replace("@DEVICE_STATS@", v1files.DEVICE_STATS)
           .replace("@HITS@", v1files.HITS_FILES)
           .replace("@UNREAD@", " ".join(sorted(known.UNREAD)))
           .replace("@CLASSIC@", " ".join(q(s) for s in v1files.CLASSIC))
           .replace("@LAYOUT@", " ".join(q(s) for s in program["layout"])))
    head = [
        "#!/bin/bash",
        f"# cgx-gen seed {program.get('seed')} (generator version {program.get('version')}): "
        f"{len(program['steps'])} steps over the layout",
        "#   " + "; ".join(program["layout"]),
        "# Reruns alone on either guest: tests/vm/diff-run --build build THIS.sh (kernel v1,",
        "# and cgxfs's view over /sys/fs/cgroup); prints one line per step as",
        "# tests/gen/runner.py does, pids by name. Written by tests/gen/shell.py.",
    ]
    body = ["set_layout"] + [step_line(i, s) for i, s in enumerate(program["steps"], 1)]
    return "\n".join(head) + "\n" + pre + "\n".join(body) + "\n"


def render_steps_summary(program):
    """The steps as one line each, for a report."""
    return [f"{i:03d} {runner.describe(s)}" for i, s in enumerate(program["steps"], 1)]

# PROVISIONAL until h-clients' effects.bash: v2_expect PID FILE[:KEY] VALUE
# checks FILE (or the KEY line of a flat-keyed FILE) of PID's leaf under the
# base (directory fd CGX_V2_BASE_FD); silent when it holds or outside the v2
# guest. A split limit is rebalanced at least once a second (docs/mapping.md),
# so the value is polled for up to 3 s.
v2_expect() {
  [[ -n ${CGX_V2_BASE_FD:-} ]] || return 0
  local base=/proc/self/fd/$CGX_V2_BASE_FD leaf f=$2 key='' got='' i
  leaf=$(grep -rlxs --include=cgroup.procs "$1" "$base/" | head -1)
  leaf=${leaf%/cgroup.procs}
  [[ -n $leaf ]] || { echo "v2: pid $1 in no leaf of the base"; return; }
  if [[ $f == *:* ]]; then key=${f#*:}; f=${f%%:*}; fi
  for i in $(seq 30); do
    if [[ -n $key ]]; then got=$(awk -v k="$key" '$1 == k {print $2}' "$leaf/$f")
    else got=$(<"$leaf/$f"); fi
    [[ $got != "$3" ]] || return 0
    sleep 0.1
  done
  echo "v2: $f${key:+ $key} of ${leaf#"$base"} is $got, not $3"
}

# PROVISIONAL until h-clients' effects.bash: v2_expect PID FILE[:KEY] VALUE
v2_expect() {
  [[ -n ${CGX_V2_BASE_FD:-} ]] || return 0
  local base=/proc/self/fd/$CGX_V2_BASE_FD leaf f=$2 key= got
  leaf=$(grep -rlxs --include=cgroup.procs "$1" "$base" | head -1)
  leaf=${leaf%/cgroup.procs}
  [[ -n $leaf ]] || { echo "v2: pid $1 in no leaf of the base"; return; }
  if [[ $f == *:* ]]; then key=${f#*:}; f=${f%%:*}; fi
  if [[ -n $key ]]; then got=$(awk -v k="$key" '$1 == k {print $2}' "$leaf/$f")
  else got=$(<"$leaf/$f"); fi
  [[ $got == "$3" ]] || echo "v2: $f${key:+ $key} of ${leaf#"$base"} is $got, not $3"
}

# Shared by the differential scripts (sourced, not run): the small helpers
# that print what a v1 file answers, written once. A script names this file
# (`. "${0%/*}/view.bash"`), so its recording's key covers it too (diff-run
# script_key): changing a helper here means recording those scripts again.
#
# Builtins and forks only, never an exec per case (but try_each_line's sed):
# under qemu TCG each exec costs some 40-65 ms, more than the write or read it
# checks, and a script makes hundreds of cases. Each helper prints what the
# pipeline of coreutils named beside it printed, byte for byte (the guest runs
# with LC_ALL=C, so read -N counts bytes).

# try CMD...: "ok", or the errno message of a refusal (what follows the last
# ": " of the whole message, as bash, the kernel and coreutils end it with
# strerror), in a fork without an exec.
try() { local out; if out=$("$@" 2>&1); then echo ok; else echo "${out##*: }"; fi; }

# try_each_line CMD...: "ok", or every line of the message, each cut after its
# last ": " (`sed 's/.*: //'`, one exec: for the scripts whose failures print
# several lines, which try folds into one).
try_each_line() { local out; if out=$("$@" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi; }

# try_last_line CMD...: "ok", or the errno message of the message's last line
# (`tail -n1 | sed 's/.*: //'`, by expansions), "failed" for a silent failure.
try_last_line() { local out; if out=$("$@" 2>&1); then echo ok; else out=${out:-failed}; out=${out##*$'\n'}; echo "${out##*: }"; fi; }

# put FILE VALUE: writes VALUE and a newline as `bash -c "echo V > F"` did,
# one write(2); with try, the refusal's errno.
put() { echo "$2" >"$1"; }

# show_head FILE: the first 80 bytes of FILE with each newline as '|'
# (`head -c 80 F | tr '\n' '|'`). An open error is bash's message on stderr.
show_head() { local s; IFS= read -r -N 80 s <"$1"; echo "${s//$'\n'/|}"; }

# show_head_errno FILE: as show_head, but an open or read error is its errno
# message and each line is cut after its last ": "
# (`head -c 80 F 2>&1 | sed 's/.*: //' | tr '\n' '|'`): for the files that
# refuse a read (blkio.reset_stats, memory.force_empty). The message goes
# through the scratch file $view_err, as a $(...) would cost a fork per read.
view_err=/tmp/view.err
show_head_errno() {
  local s r= l
  IFS= read -r -N 80 s 2>"$view_err" <"$1"
  if [ -s "$view_err" ]; then read -r s <"$view_err"; s+=$'\n'; fi
  while [[ $s == *$'\n'* ]]; do l=${s%%$'\n'*}; r+="${l##*: }|"; s=${s#*$'\n'}; done
  echo "$r${s##*: }"
}

# bar FILE: all of FILE with each newline as '|' (`tr '\n' '|' < F`), for
# lists longer than show_head's 80 bytes.
bar() { local s; IFS= read -r -d '' s <"$1"; echo "${s//$'\n'/|}"; }

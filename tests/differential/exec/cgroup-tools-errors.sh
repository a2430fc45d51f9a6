# Differential, run under cgx-exec (vm-differential-exec).
# Debian's cgroup-tools (libcgroup 2.0.2) refused: their messages and exit
# codes for missing groups, controllers and files, and a bad value.
command -v cgset >/dev/null || { echo "cgset missing"; exit 1; }
st() { echo "$1 status $2"; }

cgcreate -g cpu,memory:/t; st cgcreate $?
cgset -r cpu.shares=512 t; st cgset $?
sleep 1000 &
sp=$!
cgset -r cpu.shares=512 nope; st "cgset on a missing group" $?
cgset -r cpu.shares=abc t; st "cgset bad value" $?
cgget -n -v -r cpu.shares t
cgset -r cpu.nosuchfile=1 t; st "cgset missing file" $?
cgget -r cpu.shares nope; st "cgget on a missing group" $?
cgcreate -g nosuch:/x; st "cgcreate unknown controller" $?
cgexec -g cpu:nope true; st "cgexec into a missing group" $?
cgclassify -g memory:nope $sp 2>&1 | sed 's/pid [0-9]*/pid PID/'
st "cgclassify into a missing group" "${PIPESTATUS[0]}"
cgdelete -g cpu:/nope; st "cgdelete a missing group" $?
kill $sp; wait $sp 2>/dev/null
rmdir /sys/fs/cgroup/cpu,cpuacct/t /sys/fs/cgroup/memory/t; st rmdir $?

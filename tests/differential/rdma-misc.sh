# Differential: rdma and misc on a machine without RDMA devices or misc
# capacities: empty files, and the kernel's errno for every write.
cd /sys/fs/cgroup || exit 1
. "${0%/*}/view.bash"   # try, put, bar

mkdir -p rdma/r misc/m
for f in rdma/r/rdma.max rdma/r/rdma.current misc/misc.capacity misc/m/misc.max misc/m/misc.current misc/m/misc.events; do
  echo "$f $(stat -c %a $f) [$(bar $f)]"
done
for v in "mlx4_0 hca_handle=2" "mlx4_0 hca_handle=max hca_object=3" "mlx4_0" "mlx4_0 bogus=1" \
         "mlx4_0 hca_handle=-1" "mlx4_0 hca_handle=" "mlx4_0 hca_handle" "" " "; do
  echo "rdma.max '$v': $(try put rdma/r/rdma.max "$v")"
done
for v in "sev 5" "sev max" "sev" "bogus 1" "sev -1" "sev abc" ""; do
  echo "misc.max '$v': $(try put misc/m/misc.max "$v")"
done
rmdir rdma/r misc/m

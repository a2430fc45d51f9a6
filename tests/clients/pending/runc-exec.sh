# Client tier, pending (tests/clients/README.md, "Known limits"): runc's
# default container read with runc exec (runc.bash).
# Back in tests/clients/, source "$(dirname "$0")/runc.bash".
RUNC_EXEC=1
. "$(dirname "$0")/../runc.bash"

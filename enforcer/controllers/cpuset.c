// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuset (kernel/cgroup/cpuset.c, legacy_files) on cgroup2's cpuset.cpus
 * and cpuset.mems of the leaves.
 *
 * v1 rules kept: a child starts with no CPUs and no memory nodes and
 * refuses tasks until it has both (ENOSPC); cgroup.clone_children copies the
 * parent's at mkdir; a child must stay within its parent (EACCES) and hold
 * its children (EBUSY); exclusive siblings may not overlap (EINVAL); a
 * populated cpuset cannot be emptied (ENOSPC). The root follows the online
 * CPUs and memory nodes and cannot be written (EACCES).
 *
 * In v2 the values go to each leaf whose cpuset group is the one written:
 * v2 nests effective CPUs by itself, and the inner directories, which hold
 * no processes, keep v2's default of all. The flags other than the lists
 * have no v2 equivalent and only keep their v1 values.
 */
#include "../knob.h"
#include "../cpulist.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MAX_NUMNODES of Debian's kernels (NODES_SHIFT 10): nodelist_parse()'s bound. */
#define MAX_NUMNODES 1024

struct cpuset {
	struct cpulist cpus, mems;
	bool cpu_exclusive, mem_exclusive;
};

static bool is_root(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	return dir == ctx->tree.base;
}

static int read_system_list(const char *path, const char *fallback, struct cpulist *list)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;

	if (read_file_at(AT_FDCWD, path, &text) < 0)
		return cpulist_parse(fallback, CPULIST_MAX_BITS, list);
	return cpulist_parse(text.buf, CPULIST_MAX_BITS, list);
}

/* nr_cpu_ids: one past the highest possible CPU, the bound of cpulist_parse(). */
static unsigned int nr_cpu_ids(void)
{
	struct cpulist possible;
	unsigned int nr = 1;

	if (read_system_list("/sys/devices/system/cpu/possible", "0", &possible) < 0)
		return 1;
	for (unsigned int bit = 0; bit < CPULIST_MAX_BITS; bit++)
		if (possible.bits[bit / 64] >> (bit % 64) & 1)
			nr = bit + 1;
	return nr;
}

static bool stored_flag(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
			const char *name)
{
	const char *text = cgx_value_named(ctx, dir, hier, name);

	return text && strtoull(text, NULL, 10);
}

/* The value last written to @name, NULL when never written (the row's default is not the root's).
 */
static const char *written_value(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
				 const char *name)
{
	int file = v1_file_find(&ctx->hiers.hier[hier], name);
	const struct v1_group *group = dir->group[hier];

	if (file < 0 || !group || (unsigned int)file >= group->nr_values)
		return NULL;
	return group->values[file];
}

/* The root's lists are the machine's; its exclusive flags start set. */
static int cpuset_load(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier,
		       struct cpuset *cs)
{
	const char *cpus, *mems;
	int r;

	if (is_root(ctx, dir)) {
		const char *cpu_excl = written_value(ctx, dir, hier, "cpuset.cpu_exclusive");
		const char *mem_excl = written_value(ctx, dir, hier, "cpuset.mem_exclusive");

		cs->cpu_exclusive = !cpu_excl || strtoull(cpu_excl, NULL, 10);
		cs->mem_exclusive = !mem_excl || strtoull(mem_excl, NULL, 10);
		if ((r = read_system_list("/sys/devices/system/cpu/online", "0", &cs->cpus)) < 0)
			return r;
		return read_system_list("/sys/devices/system/node/has_memory", "0", &cs->mems);
	}
	cs->cpu_exclusive = stored_flag(ctx, dir, hier, "cpuset.cpu_exclusive");
	cs->mem_exclusive = stored_flag(ctx, dir, hier, "cpuset.mem_exclusive");
	cpus = cgx_value_named(ctx, dir, hier, "cpuset.cpus");
	mems = cgx_value_named(ctx, dir, hier, "cpuset.mems");
	if ((r = cpulist_parse(cpus ? cpus : "", CPULIST_MAX_BITS, &cs->cpus)) < 0)
		return r;
	return cpulist_parse(mems ? mems : "", CPULIST_MAX_BITS, &cs->mems);
}

/* is_cpuset_subset() */
static bool cpuset_subset(const struct cpuset *p, const struct cpuset *q)
{
	return cpulist_subset(&p->cpus, &q->cpus) && cpulist_subset(&p->mems, &q->mems) &&
	       p->cpu_exclusive <= q->cpu_exclusive && p->mem_exclusive <= q->mem_exclusive;
}

/* validate_change() of the legacy hierarchy: whether @cur may become @trial. */
static int validate_change(struct cgx_ctx *ctx, struct v2_dir *cur, unsigned int hier,
			   const struct cpuset *old, const struct cpuset *trial)
{
	struct v2_dir *parent = cur->parent;
	unsigned long long tasks;
	struct cpuset other;
	int r;

	for (struct v2_dir *c = cgx_group_next_child(cur, hier, NULL); c;
	     c = cgx_group_next_child(cur, hier, c)) {
		if ((r = cpuset_load(ctx, c, hier, &other)) < 0)
			return r;
		if (!cpuset_subset(&other, trial))
			return -EBUSY;
	}
	if (is_root(ctx, cur))
		return 0;
	if ((r = cpuset_load(ctx, parent, hier, &other)) < 0)
		return r;
	if (!cpuset_subset(trial, &other))
		return -EACCES;
	for (struct v2_dir *c = cgx_group_next_child(parent, hier, NULL); c;
	     c = cgx_group_next_child(parent, hier, c)) {
		if (c == cur)
			continue;
		if ((r = cpuset_load(ctx, c, hier, &other)) < 0)
			return r;
		if ((trial->cpu_exclusive || other.cpu_exclusive) &&
		    cpulist_intersects(&trial->cpus, &other.cpus))
			return -EINVAL;
		if ((trial->mem_exclusive || other.mem_exclusive) &&
		    cpulist_intersects(&trial->mems, &other.mems))
			return -EINVAL;
	}
	if ((r = tasks_count_below(ctx, cur, hier, &tasks)) < 0)
		return r;
	if (tasks && ((!cpulist_empty(&old->cpus) && cpulist_empty(&trial->cpus)) ||
		      (!cpulist_empty(&old->mems) && cpulist_empty(&trial->mems))))
		return -ENOSPC;
	return 0;
}

static int list_text(const struct cpulist *list, struct strbuf *out)
{
	return cpulist_format(list, out);
}

/* cpuset.cpus and cpuset.mems of one leaf, from the group its tuple names. */
static int leaf_write(struct cgx_ctx *ctx, struct v2_dir *leaf, const struct cpuset *cs)
{
	_cleanup_strbuf_ struct strbuf cpus = STRBUF_INIT, mems = STRBUF_INIT;
	_cleanup_close_ int fd = cgx_dir_open(ctx, leaf);
	int r;

	if (fd < 0)
		return fd;
	if ((r = list_text(&cs->cpus, &cpus)) < 0 || (r = list_text(&cs->mems, &mems)) < 0)
		return r;
	/* Memory nodes first: v2 checks nothing between the two, v1 tasks need both. */
	if ((r = write_file_at(fd, "cpuset.mems", mems.buf, mems.len)) < 0)
		return r;
	return write_file_at(fd, "cpuset.cpus", cpus.buf, cpus.len);
}

static int cpuset_apply_leaf(struct cgx_ctx *ctx, struct v2_dir *leaf, unsigned int hier)
{
	struct v2_dir *group = leaf->leaf_tuple->coord[hier];
	struct cpuset cs;
	int r;

	/* In the root a task may use everything: v2's default already says so. */
	if (is_root(ctx, group) || !cgx_has_controller(ctx, "cpuset"))
		return 0;
	if ((r = cpuset_load(ctx, group, hier, &cs)) < 0)
		return r;
	return leaf_write(ctx, leaf, &cs);
}

/*
 * An empty list is v2's default: the CPUs and nodes of the parent. v2
 * refuses to empty a cpuset with tasks below it (ENOSPC: the tasks leaf a
 * group directory turning inner has just filled), so such a directory gets
 * its cpuset group's lists instead, which v1 keeps a superset of every
 * list below; sync_region() keeps them so.
 */
static int cpuset_reset_leaf(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int hier)
{
	struct cpuset cs = {0};
	int r;

	if (!cgx_has_controller(ctx, "cpuset"))
		return 0;
	if ((r = leaf_write(ctx, dir, &cs)) != -ENOSPC)
		return r;
	if ((r = cpuset_load(ctx, fold_group_of(dir, hier), hier, &cs)) < 0)
		return r;
	return leaf_write(ctx, dir, &cs);
}

/*
 * The directories of @group's region that are no leaf (its own, those of
 * other hierarchies' groups below it) and still hold a list: emptied, or
 * given @group's lists again after a change.
 */
static int sync_region(struct cgx_ctx *ctx, struct v2_dir *group, struct v2_dir *dir,
		       unsigned int hier)
{
	_cleanup_strbuf_ struct strbuf cpus = STRBUF_INIT;
	_cleanup_close_ int fd = -1;
	int r;

	if (dir != group && dir->group[hier])
		return 0;
	if (!dir->leaf_tuple && (fd = cgx_dir_open(ctx, dir)) >= 0 &&
	    read_file_at(fd, "cpuset.cpus", &cpus) == 0 && strcmp(cpus.buf, "\n") &&
	    (r = cpuset_reset_leaf(ctx, dir, hier)) < 0)
		return cgx_log_errno(r, "cannot set the cpuset of %s", dir->name);
	v2_dir_for_each_child (child, dir)
		if ((r = sync_region(ctx, group, child, hier)) < 0)
			return r;
	return 0;
}

static int sync_leaves(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	for (struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next) {
		int r;

		if (leaf->leaf_tuple->coord[hier] != group)
			continue;
		if ((r = cpuset_apply_leaf(ctx, leaf, hier)) < 0)
			return cgx_log_errno(r, "cannot set the cpuset of leaf %s", leaf->name);
	}
	return is_root(ctx, group) || !cgx_has_controller(ctx, "cpuset")
		       ? 0
		       : sync_region(ctx, group, group, hier);
}

/* cpuset_can_attach() on the legacy hierarchy: a task needs CPUs and memory to run on. */
static int cpuset_can_attach(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	struct cpuset cs;
	int r;

	if ((r = cpuset_load(ctx, group, hier, &cs)) < 0)
		return r;
	return cpulist_empty(&cs.cpus) || cpulist_empty(&cs.mems) ? -ENOSPC : 0;
}

/* cpuset_css_online(): with clone_children, a new cpuset starts as a copy of its parent. */
static void cpuset_online(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int hier)
{
	_cleanup_strbuf_ struct strbuf cpus = STRBUF_INIT, mems = STRBUF_INIT;
	const char *clone = cgx_value_named(ctx, group->parent, hier, "cgroup.clone_children");
	struct cpuset parent, sibling;

	if (!clone || strcmp(clone, "1\n"))
		return;
	/* Siblings with exclusive CPUs or memory would overlap the copy. */
	for (struct v2_dir *c = cgx_group_next_child(group->parent, hier, NULL); c;
	     c = cgx_group_next_child(group->parent, hier, c))
		if (cpuset_load(ctx, c, hier, &sibling) < 0 || sibling.cpu_exclusive ||
		    sibling.mem_exclusive)
			return;
	if (cpuset_load(ctx, group->parent, hier, &parent) < 0 ||
	    list_text(&parent.cpus, &cpus) < 0 || list_text(&parent.mems, &mems) < 0 ||
	    cgx_value_set_named(ctx, group, hier, "cpuset.cpus", cpus.buf) < 0 ||
	    cgx_value_set_named(ctx, group, hier, "cpuset.mems", mems.buf) < 0)
		cgx_log(CGX_LOG_WARNING, "cgroup.clone_children: cpuset of %s not copied",
			group->name);
}

/* Stores the lists or flags of @trial as the group's values, all or none. */
static int cpuset_commit(const struct v1_file_ctx *fc, const char *name, const char *text)
{
	const char *old = cgx_value_named(fc->ctx, fc->dir, fc->hier, name);
	_cleanup_free_ char *before = old ? strdup(old) : NULL;
	int r;

	if (old && !before)
		return -ENOMEM;
	if ((r = cgx_value_set_named(fc->ctx, fc->dir, fc->hier, name, text)) < 0)
		return r;
	if ((r = sync_leaves(fc->ctx, fc->dir, fc->hier)) < 0) {
		cgx_value_set_named(fc->ctx, fc->dir, fc->hier, name, before ? before : "\n");
		sync_leaves(fc->ctx, fc->dir, fc->hier);
	}
	return r;
}

static int list_show(const struct v1_file_ctx *fc, bool cpus, struct strbuf *out)
{
	struct cpuset cs;
	int r;

	if ((r = cpuset_load(fc->ctx, fc->dir, fc->hier, &cs)) < 0)
		return r;
	return list_text(cpus ? &cs.cpus : &cs.mems, out);
}

static int cpus_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return list_show(fc, true, out);
}

static int mems_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	return list_show(fc, false, out);
}

/*
 * update_cpumask() / update_nodemask(): strstrip, the root is read-only,
 * an empty text clears, numbers past the bitmap are ERANGE, CPUs or nodes
 * the machine does not have are EINVAL, then validate_change().
 */
static int list_write(const struct v1_file_ctx *fc, char *buf, bool cpus)
{
	const char *name = cpus ? "cpuset.cpus" : "cpuset.mems";
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	struct cpuset old, trial, top;
	struct cpulist *list = cpus ? &trial.cpus : &trial.mems;
	char *value = strstrip(buf);
	int r;

	if (is_root(fc->ctx, fc->dir))
		return -EACCES;
	if ((r = cpuset_load(fc->ctx, fc->dir, fc->hier, &old)) < 0 ||
	    (r = cpuset_load(fc->ctx, fc->ctx->tree.base, fc->hier, &top)) < 0)
		return r;
	trial = old;
	if ((r = cpulist_parse(value, cpus ? nr_cpu_ids() : MAX_NUMNODES, list)) < 0)
		return r;
	if (!cpulist_subset(list, cpus ? &top.cpus : &top.mems))
		return -EINVAL;
	if (cpulist_equal(list, cpus ? &old.cpus : &old.mems))
		return 0;
	if ((r = validate_change(fc->ctx, fc->dir, fc->hier, &old, &trial)) < 0)
		return r;
	if ((r = knob_require(fc, "cpuset")) < 0)
		return r;
	if ((r = list_text(list, &text)) < 0)
		return r;
	return cpuset_commit(fc, name, text.buf);
}

/* cpuset.c's max_write_len: a list may name each of NR_CPUS (Debian's: 8192). */
#define LIST_MAX_WRITE (100U + 6 * 8192)

static int cpus_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)len;
	return list_write(fc, buf, true);
}

static int mems_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	(void)len;
	return list_write(fc, buf, false);
}

static int flag_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	const char *name = fc->ctx->hiers.hier[fc->hier].files[fc->file]->name;
	struct cpuset cs;
	int r;

	/* The root's exclusive flags read 1 until written. */
	if (!strcmp(name, "cpuset.cpu_exclusive") || !strcmp(name, "cpuset.mem_exclusive")) {
		if ((r = cpuset_load(fc->ctx, fc->dir, fc->hier, &cs)) < 0)
			return r;
		return strbuf_addf(out, "%d\n",
				   name[7] == 'c' ? cs.cpu_exclusive : cs.mem_exclusive);
	}
	return strbuf_addf(out, "%d\n", stored_flag(fc->ctx, fc->dir, fc->hier, name));
}

/* cpuset_write_u64() -> update_flag(): any u64, stored as 0 or 1, checked as a change. */
static int flag_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	const char *name = fc->ctx->hiers.hier[fc->hier].files[fc->file]->name;
	unsigned long long value;
	struct cpuset old, trial;
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	if ((r = cpuset_load(fc->ctx, fc->dir, fc->hier, &old)) < 0)
		return r;
	trial = old;
	if (!strcmp(name, "cpuset.cpu_exclusive"))
		trial.cpu_exclusive = value;
	else if (!strcmp(name, "cpuset.mem_exclusive"))
		trial.mem_exclusive = value;
	if ((r = validate_change(fc->ctx, fc->dir, fc->hier, &old, &trial)) < 0)
		return r;
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, value ? "1\n" : "0\n");
}

/* memory_pressure_enabled changes no cpuset: no validation. */
static int global_flag_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	unsigned long long value;
	int r;

	(void)len;
	if ((r = kstrtoull(buf, 0, &value)) < 0)
		return r;
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, value ? "1\n" : "0\n");
}

/*
 * sched_domain_level_max: build_sched_domains() stacks every topology level
 * over every CPU, whether or not a level adds CPUs to the one below, and
 * numbers them from 0. Debian's kernels list SMT, CLS (cluster) and MC,
 * then DIE; a NUMA kernel (sysfs has nodes) appends sched_init_numa()'s
 * NODE level and one more per larger node distance. So a 6.1 guest of two
 * cores on one node stacks 5 levels, and takes relax levels 0-3.
 */
static unsigned int sched_domain_level_max(void)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	unsigned long distances[64];
	unsigned int levels = 4, nr = 0;
	char *p, *end;

	if (read_file_at(AT_FDCWD, "/sys/devices/system/node/node0/distance", &text) < 0)
		return levels - 1;
	/* One distance per online node: NODE is the smallest, NUMA each larger one. */
	for (p = text.buf; nr < ARRAY_SIZE(distances); p = end) {
		unsigned long d = strtoul(p, &end, 10);
		bool seen = false;

		if (end == p)
			break;
		for (unsigned int i = 0; i < nr; i++)
			seen |= distances[i] == d;
		if (!seen)
			distances[nr++] = d;
	}
	return levels + (nr ? nr : 1) - 1;
}

/* update_relax_domain_level(): -1 (the system default) or a level below sched_domain_level_max. */
static int relax_domain_write(const struct v1_file_ctx *fc, char *buf, size_t len)
{
	char text[32];
	long long level;
	int r;

	(void)len;
	if ((r = kstrtoll(buf, 0, &level)) < 0)
		return r;
	if (level < -1 || level >= (long long)sched_domain_level_max())
		return -EINVAL;
	snprintf(text, sizeof(text), "%lld\n", level);
	return cgx_value_set(fc->ctx, fc->dir, fc->hier, fc->file, text);
}

static int zero_read(const struct v1_file_ctx *fc, struct strbuf *out)
{
	(void)fc;
	return strbuf_add(out, "0\n", 2);
}

#define FLAG_ROW(file, dflt, map)                                                                  \
	{                                                                                          \
		.name = file, .mode = 0644, .default_value = dflt, .read = flag_read,              \
		.write = flag_write, .v2 = map                                                     \
	}
/* cpuset_css_online() copies the parent's spread flags to a new cpuset. */
#define INHERITED_FLAG_ROW(file, dflt, map)                                                        \
	{                                                                                          \
		.name = file, .mode = 0644, .flags = V1F_INHERIT, .default_value = dflt,           \
		.read = flag_read, .write = flag_write, .v2 = map                                  \
	}

static const struct v1_file cpuset_files[] = {
	FLAG_ROW("cpuset.cpu_exclusive", "0\n",
		 V2_NONE("cpuset.cpus.partition \"root\" gives a cgroup CPUs of its own")),
	{.name = "cpuset.cpus",
	 .mode = 0644,
	 .default_value = "\n",
	 .read = cpus_read,
	 .write = cpus_write,
	 .v2 = V2_SAME("cpuset.cpus"),
	 .max_write_len = LIST_MAX_WRITE},
	{.name = "cpuset.effective_cpus",
	 .mode = 0444,
	 .read = cpus_read,
	 .v2 = V2_STATISTIC("cpuset.cpus.effective")},
	{.name = "cpuset.effective_mems",
	 .mode = 0444,
	 .read = mems_read,
	 .v2 = V2_STATISTIC("cpuset.mems.effective")},
	FLAG_ROW("cpuset.mem_exclusive", "0\n",
		 V2_NONE("cgroup2 has no exclusive memory nodes; give siblings disjoint "
			 "cpuset.mems")),
	FLAG_ROW("cpuset.mem_hardwall", "0\n",
		 V2_NONE("cgroup2 has no hardwall: kernel allocations may use any node")),
	FLAG_ROW("cpuset.memory_migrate", "0\n",
		 V2_NONE("cgroup2 always migrates pages when cpuset.mems changes")),
	{.name = "cpuset.memory_pressure",
	 .mode = 0444,
	 .read = zero_read,
	 .v2 = V2_NONE("memory.pressure (PSI) of the memory controller")},
	{.name = "cpuset.memory_pressure_enabled",
	 .mode = 0644,
	 .flags = V1F_ROOT_ONLY,
	 .default_value = "0\n",
	 .write = global_flag_write,
	 .v2 = V2_NONE("PSI is always on: memory.pressure")},
	INHERITED_FLAG_ROW("cpuset.memory_spread_page", "0\n",
			   V2_NONE("no page cache spreading in cgroup2; set the NUMA policy of the "
				   "process (numactl --interleave)")),
	INHERITED_FLAG_ROW(
		"cpuset.memory_spread_slab", "0\n",
		V2_NONE("no slab spreading in cgroup2; set the NUMA policy of the process")),
	{.name = "cpuset.mems",
	 .mode = 0644,
	 .default_value = "\n",
	 .read = mems_read,
	 .write = mems_write,
	 .v2 = V2_SAME("cpuset.mems"),
	 .max_write_len = LIST_MAX_WRITE},
	FLAG_ROW("cpuset.sched_load_balance", "1\n",
		 V2_NONE("cpuset.cpus.partition \"isolated\" turns load balancing off")),
	{.name = "cpuset.sched_relax_domain_level",
	 .mode = 0644,
	 .default_value = "-1\n",
	 .write = relax_domain_write,
	 .v2 = V2_NONE("the relax_domain_level= boot parameter, for the whole system")},
};

const struct v1_controller v1_cpuset = {
	.name = "cpuset",
	.files = cpuset_files,
	.nr_files = ARRAY_SIZE(cpuset_files),
	.apply_leaf = cpuset_apply_leaf,
	.reset_leaf = cpuset_reset_leaf,
	.online = cpuset_online,
	.can_attach = cpuset_can_attach,
};

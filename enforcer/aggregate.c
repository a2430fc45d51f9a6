// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Aggregate limits over divergent folds (docs/design.md §3, rule 5).
 *
 * A limit set on a v2 directory covers its subtree. A v1 group G whose
 * processes all live in G's own v2 subtree is limited exactly by the knob
 * written there. When some of them live in leaves nested under another
 * hierarchy's group (the tuple's primary group), the directory no longer
 * covers them: G's limit is then split over its own directory and those
 * outside leaves so that the parts never add up to more than the v1 limit,
 * and the split follows their usage at every rebalance (after a move or a
 * write, and at least once per CGX_REBALANCE_INTERVAL_MS).
 *
 * A directory constrained by several groups (G and its ancestors in the
 * same hierarchy) gets the smallest part any of them grants.
 */
#include "aggregate.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct aggregate_kind {
	const char *controller; /* the v2 controller, also a v1 controller of the hierarchy */
	const char *v1_file;	/* the row whose converter gives the v2 limit */
	const char *v2_file;
	const char *usage_file;
	const char *usage_key; /* a key of usage_file, NULL when the file is one number */
	/*
	 * Memory: each part is its usage plus an even share of what is left,
	 * room to grow for all. Cpu: each part follows its recent usage rate.
	 * The idle floor is what an empty cgroup keeps: a page of kernel
	 * memory, no task, the smallest quota cpu.max takes.
	 */
	struct split_rule rule;
	/*
	 * An empty leaf outside the group still holds some of the limit: pages
	 * charged to it stay until reclaimed. A task count or a rate leaves
	 * with the processes, so there an empty leaf leaves the split.
	 */
	bool empty_leaf_holds;
	/*
	 * The group's own directory may be an idle part too, when no process
	 * is in it or below it. Not for memory: making a leaf there (a move's
	 * mkdir) charges kernel memory to it, which a limit at its usage fails
	 * with ENOMEM.
	 */
	bool own_dir_idles;
};

static const struct aggregate_kind kinds[] = {
	{
		.controller = "memory",
		.v1_file = "memory.limit_in_bytes",
		.v2_file = "memory.max",
		.usage_file = "memory.current",
		.rule = {.unit = 4096, .floor = 4096, .least = 0, .idle_floor = 4096},
		.empty_leaf_holds = true,
	},
	/*
	 * pids.max 0 on an empty leaf: a share of one task there, for every
	 * leaf a process passed through while joining hierarchies one by one
	 * (runc exec), left the container too few to fork. A pids.max under
	 * pids.current refuses forks and nothing else, as v1 does once its
	 * count is past the limit.
	 */
	{
		.controller = "pids",
		.v1_file = "pids.max",
		.v2_file = "pids.max",
		.usage_file = "pids.current",
		.rule = {.unit = 1, .floor = 1, .least = 0, .idle_floor = 0},
		.own_dir_idles = true,
	},
	/* cpu.max takes no quota under 1 ms (tg_set_cfs_bandwidth's min_cfs_quota_period). */
	{
		.controller = "cpu",
		.v1_file = "cpu.cfs_quota_us",
		.v2_file = "cpu.max",
		.usage_file = "cpu.stat",
		.usage_key = "usage_usec",
		.rule = {.by_rate = true,
			 .unit = 1,
			 .floor = 1000,
			 .least = 1000,
			 .idle_floor = 1000},
	},
};

/* A part that is no limit at all: "max". */
#define PART_MAX (~0ULL)

/* One directory's part of one limit, the smallest over the groups that constrain it. */
struct part {
	struct v2_dir *dir;
	const struct aggregate_kind *kind;
	unsigned long long value;
	unsigned long long period; /* cpu.max only */
};

struct plan {
	struct part *parts;
	size_t nr, cap;
	/* The leaf a process is about to enter: not idle, whatever it holds now. */
	const struct v2_dir *arriving;
};

/*
 * The v2 limit of group @dir of @h for @kind, from what v1 stored, through
 * the row's own converter: false when there is none (max).
 */
static bool group_limit(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h,
			const struct aggregate_kind *kind, unsigned long long *limit,
			unsigned long long *period)
{
	const struct cgx_hier *hier = &ctx->hiers.hier[h];
	struct stored_values values = STORED_VALUES(ctx, dir, h);
	_cleanup_strbuf_ struct strbuf v2 = STRBUF_INIT;
	const char *text;
	int file = v1_file_find(hier, kind->v1_file);

	if (file < 0 || !(text = cgx_value_get(ctx, dir, h, file)))
		return false;
	/* A row without a converter carries its value over unchanged (pids.max). */
	if (!hier->files[file]->v2.convert) {
		if (strbuf_add(&v2, text, strlen(text)) < 0)
			return false;
	} else if (hier->files[file]->v2.convert(&values.values, text, &v2) < 0)
		return false;
	if (!v2.buf)
		return false;
	if (!strncmp(v2.buf, "max", 3))
		return false;
	*period = 0;
	return sscanf(v2.buf, "%llu %llu", limit, period) >= 1;
}

static int read_usage(struct cgx_ctx *ctx, struct v2_dir *dir, const struct aggregate_kind *kind,
		      unsigned long long *usage)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	_cleanup_close_ int fd = cgx_dir_open(ctx, dir);
	int r;

	if (fd < 0)
		return fd;
	if ((r = read_file_at(fd, kind->usage_file, &text)) < 0)
		return r;
	*usage = kind->usage_key ? v2_stat_key(text.buf, kind->usage_key)
				 : strtoull(text.buf, NULL, 10);
	return 0;
}

static struct usage_sample *sample_of(struct cgx_ctx *ctx, const struct v2_dir *dir)
{
	struct aggregate_state *state = &ctx->aggregates;
	struct usage_sample *grown;

	for (size_t i = 0; i < state->nr_samples; i++)
		if (state->samples[i].dir == dir)
			return &state->samples[i];
	if (state->nr_samples == state->cap_samples) {
		size_t cap = state->cap_samples ? state->cap_samples * 2 : 16;

		if (!(grown = realloc(state->samples, cap * sizeof(*grown))))
			return NULL;
		state->samples = grown;
		state->cap_samples = cap;
	}
	state->samples[state->nr_samples] = (struct usage_sample){.dir = dir};
	return &state->samples[state->nr_samples++];
}

/*
 * What @dir may use: its usage, or for a rate its growth since the last
 * rebalance, read once per rebalance however many limits ask.
 */
static unsigned long long demand_of(struct cgx_ctx *ctx, struct v2_dir *dir,
				    const struct aggregate_kind *kind)
{
	struct usage_sample *sample;
	unsigned long long usage = 0;

	if (!kind->rule.by_rate)
		return read_usage(ctx, dir, kind, &usage) < 0 ? 0 : usage;
	if (!(sample = sample_of(ctx, dir)))
		return 0;
	if (sample->round == ctx->aggregates.round && sample->round)
		return sample->rate;
	if (read_usage(ctx, dir, kind, &usage) < 0)
		usage = sample->usage;
	sample->rate = usage >= sample->usage && sample->round ? usage - sample->usage : 0;
	sample->usage = usage;
	sample->round = ctx->aggregates.round;
	return sample->rate;
}

static int plan_add(struct plan *plan, struct v2_dir *dir, const struct aggregate_kind *kind,
		    unsigned long long value, unsigned long long period)
{
	for (size_t i = 0; i < plan->nr; i++) {
		struct part *part = &plan->parts[i];

		if (part->dir == dir && part->kind == kind) {
			if (value < part->value)
				*part = (struct part){dir, kind, value, period};
			return 0;
		}
	}
	if (plan->nr == plan->cap) {
		size_t cap = plan->cap ? plan->cap * 2 : 16;
		struct part *grown = realloc(plan->parts, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		plan->parts = grown;
		plan->cap = cap;
	}
	plan->parts[plan->nr++] = (struct part){dir, kind, value, period};
	return 0;
}

/*
 * What an idle part holds: its usage in whole units (a rate keeps nothing),
 * at least @floor. Not less: memory.max under what an empty cgroup holds
 * that cannot be reclaimed (kernel memory) makes the kernel's OOM killer
 * look for a victim there, find none and say so, on every such leaf.
 */
static unsigned long long held_part(const struct split_rule *rule, unsigned long long demand)
{
	unsigned long long held =
		rule->by_rate ? 0 : demand + (rule->unit - demand % rule->unit) % rule->unit;

	return held > rule->idle_floor ? held : rule->idle_floor;
}

void aggregate_split(const struct split_rule *rule, const unsigned long long *demand,
		     const bool *idle, size_t nr, unsigned long long limit,
		     unsigned long long *parts)
{
	unsigned long long unit = rule->unit, reserve, pool, held = 0, total = 0, given = 0;
	size_t live = 0;

	for (size_t i = 0; i < nr; i++) {
		if (idle && idle[i]) {
			parts[i] = held_part(rule, demand[i]);
			held += parts[i];
		} else {
			live++;
		}
	}
	if (!live)
		return;
	/* An idle part cannot grow: what it holds is taken off the limit, the rest is shared. */
	limit = limit > held ? limit - held : 0;
	/*
	 * Half the limit is reserved evenly, so that a newcomer or a part whose
	 * page cache filled its share last time always has room to start; the
	 * other half follows demand above the reserve. More live parts than
	 * floors fit in the limit (five processes of a group of pids.max 3,
	 * each in its own leaf): the reserve is the kernel's least, and the
	 * limit goes by demand.
	 */
	reserve = limit / (2 * live);
	reserve -= reserve % unit;
	if (reserve < rule->floor)
		reserve = live * rule->floor <= limit ? rule->floor : rule->least;
	pool = limit > live * reserve ? limit - live * reserve : 0;
	for (size_t i = 0; i < nr; i++) {
		unsigned long long want;

		if (idle && idle[i])
			continue;
		want = rule->by_rate ? demand[i] : (demand[i] > reserve ? demand[i] - reserve : 0);
		parts[i] = want; /* above the reserve, for now */
		total += want;
	}
	for (size_t i = 0; i < nr; i++) {
		unsigned long long extra;

		if (idle && idle[i])
			continue;
		if (!rule->by_rate && total <= pool)
			extra = parts[i] + (pool - total) / live;
		else
			extra = total ? (unsigned long long)((long double)pool * parts[i] / total)
				      : pool / live;
		parts[i] = reserve + extra - extra % unit;
		given += parts[i];
	}
	/* What rounding left over goes to the first live parts, a unit each. */
	for (size_t i = 0; given + unit <= limit; i = (i + 1) % nr) {
		if (idle && idle[i])
			continue;
		parts[i] += unit;
		given += unit;
	}
}

static int split(struct cgx_ctx *ctx, struct plan *plan, const struct aggregate_kind *kind,
		 struct v2_dir **units, size_t nr, unsigned long long limit,
		 unsigned long long period)
{
	_cleanup_free_ unsigned long long *demand = calloc(nr, sizeof(*demand));
	_cleanup_free_ unsigned long long *parts = calloc(nr, sizeof(*parts));
	_cleanup_free_ bool *idle = calloc(nr, sizeof(*idle));
	int r;

	if (!demand || !parts || !idle)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		demand[i] = demand_of(ctx, units[i], kind);
		/*
		 * A leaf outside no process is in any more stays for the pages
		 * still charged to the group (leaf_prune()): it cannot grow, and
		 * a share of the limit there would be taken from the processes.
		 * So with the group's own directory, for a kind that allows it,
		 * when nothing is in it or below it (every member outside):
		 * half of pids.max kept there left the members too few tasks to
		 * fork. A process on its way in is rebalanced for before it
		 * moves (arriving).
		 */
		if (i == 0)
			idle[i] = kind->own_dir_idles &&
				  !tree_is_ancestor(units[i], plan->arriving) &&
				  cgx_subtree_is_empty(ctx, units[i]) > 0;
		else /* for other kinds drop_empty_leaves() kept only leaves in use */
			idle[i] = kind->empty_leaf_holds && units[i] != plan->arriving &&
				  cgx_dir_is_empty(ctx, units[i]) > 0;
	}
	aggregate_split(&kind->rule, demand, idle, nr, limit, parts);
	for (size_t i = 0; i < nr; i++)
		if ((r = plan_add(plan, units[i], kind, parts[i], period)) < 0)
			return r;
	return 0;
}

/* Leaves whose group in @h is @group or below it, and that lie outside @group's directory. */
static size_t outside_leaves(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int h,
			     struct v2_dir **units, size_t room)
{
	size_t nr = 0;

	tree_for_each_outside_leaf (leaf, &ctx->tree, group, h)
		if (nr < room)
			units[nr++] = leaf;
	return nr;
}

/*
 * Takes out of @units (after the group's own directory) the outside leaves
 * that hold nothing of @kind's limit: no process is there or on its way,
 * and the kind leaves with its processes. Their parts go back to max; a
 * process that comes later is rebalanced for before it moves.
 */
static int drop_empty_leaves(struct cgx_ctx *ctx, struct plan *plan,
			     const struct aggregate_kind *kind, struct v2_dir **units, size_t *nr)
{
	size_t kept = 1;
	int r;

	for (size_t i = 1; i < *nr; i++) {
		if (kind->empty_leaf_holds || units[i] == plan->arriving ||
		    cgx_dir_is_empty(ctx, units[i]) <= 0) {
			units[kept++] = units[i];
			continue;
		}
		if ((r = plan_add(plan, units[i], kind, PART_MAX, 0)) < 0)
			return r;
	}
	*nr = kept;
	return 0;
}

static void note_enforced(struct cgx_ctx *ctx, struct v2_dir *group, unsigned int h,
			  const struct aggregate_kind *kind, size_t nr_parts)
{
	const struct cgx_caller daemon = {own_pid(), 0, 0, true, NULL};
	char detail[512], once[PATH_MAX + 64], path[PATH_MAX];

	snprintf(detail, sizeof(detail),
		 "%s of this group is split over %zu v2 directories and rebalanced from their "
		 "usage: its processes sit under other groups too. Give every controller the "
		 "same groups to make it exact",
		 kind->v2_file, nr_parts);
	/*
	 * Once a run per group and limit: a split that comes and goes with
	 * its processes (a service's scope at every start) is one use.
	 */
	if (tree_path(group, true, path, sizeof(path)) < 0)
		return;
	snprintf(once, sizeof(once), "split:%u:%s:%s", h, path, kind->v2_file);
	deprecation_record(ctx, &(struct deprecation_event){
					.kind = DEPRECATION_APPROXIMATE,
					.caller = &daemon,
					.hier = (int)h,
					.group = group,
					.file = kind->v1_file,
					.v2_dir = group,
					.detail = detail,
					.once = once,
				});
}

/* One group, then its children; each limited group with outside leaves adds its parts. */
static int plan_group(struct cgx_ctx *ctx, struct plan *plan, struct v2_dir *dir, unsigned int h,
		      const struct aggregate_kind *kind)
{
	struct v2_dir *child = NULL;
	unsigned long long limit, period;
	int r;

	while ((child = cgx_group_next_child(dir, h, child)))
		if ((r = plan_group(ctx, plan, child, h, kind)) < 0)
			return r;
	if (dir == ctx->tree.base)
		return 0;
	unsigned int bit = 1u << (kind - kinds);
	/* After a restart nothing says what was split: every limit is checked once. */
	bool was_enforced = (dir->group[h]->limit_enforced & bit) || !ctx->aggregates.checked;
	size_t room = ctx->tree.nr_dirs + 1, nr;
	_cleanup_free_ struct v2_dir **units = NULL;
	bool limited;

	dir->group[h]->limit_enforced &= ~bit;
	limited = group_limit(ctx, dir, h, kind, &limit, &period);
	/* Most groups set no limit and never had a split one: nothing to look for. */
	if (!limited && !was_enforced)
		return 0;
	if (!(units = calloc(room, sizeof(*units))))
		return -ENOMEM;
	units[0] = dir;
	nr = 1 + outside_leaves(ctx, dir, h, units + 1, room - 1);
	if (limited && (r = drop_empty_leaves(ctx, plan, kind, units, &nr)) < 0)
		return r;
	if (!limited) {
		/* The limit is gone: so are its parts, on the directory and every leaf. */
		for (size_t i = 0; i < nr; i++)
			if ((r = plan_add(plan, units[i], kind, PART_MAX, 0)) < 0)
				return r;
		return 0;
	}
	if (nr == 1) {
		/* Exact (again): the directory gets the whole limit back. */
		return was_enforced ? plan_add(plan, dir, kind, limit, period) : 0;
	}
	dir->group[h]->limit_enforced |= bit;
	ctx->aggregates.enforcing = true;
	if (!was_enforced)
		note_enforced(ctx, dir, h, kind, nr);
	return split(ctx, plan, kind, units, nr, limit, period);
}

/*
 * Writes @part when it shrinks (@shrinking) or grows (!@shrinking): all
 * parts shrink before any grows, so the kernel never holds parts that add
 * up to more than the limit, not even between two writes.
 */
static int write_part(struct cgx_ctx *ctx, const struct part *part, bool shrinking)
{
	_cleanup_close_ int fd = cgx_dir_open(ctx, part->dir);
	_cleanup_strbuf_ struct strbuf old = STRBUF_INIT;
	unsigned long long old_value = PART_MAX;
	char value[64];
	int len;

	if (fd < 0)
		return fd;
	if (part->value == PART_MAX)
		len = snprintf(value, sizeof(value), "max");
	else if (part->period)
		len = snprintf(value, sizeof(value), "%llu %llu", part->value, part->period);
	else
		len = snprintf(value, sizeof(value), "%llu", part->value);
	if (read_file_at(fd, part->kind->v2_file, &old) < 0 || !old.len)
		return shrinking ? 0 : write_file_at(fd, part->kind->v2_file, value, len);
	/* Unchanged parts are left alone: no needless reclaim or throttling resets. */
	if (!strncmp(old.buf, value, len) && (old.buf[len] == '\n' || old.buf[len] == ' '))
		return 0;
	sscanf(old.buf, "%llu", &old_value); /* "max ..." stays PART_MAX */
	if ((part->value < old_value) != shrinking)
		return 0;
	return write_file_at(fd, part->kind->v2_file, value, len);
}

struct v2_dir *aggregate_limit_owner(const struct v2_dir *leaf, const struct tuple *tuple,
				     unsigned int hier, const char *controller)
{
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		if (!controller || strcmp(kinds[k].controller, controller))
			continue;
		for (struct v2_dir *g = tuple->coord[hier]; g->parent;
		     g = fold_group_of(g->parent, hier))
			if ((g->group[hier]->limit_enforced & (1u << k)) &&
			    !tree_is_ancestor(g, leaf))
				return g;
	}
	return NULL;
}

bool aggregate_leaf_divergent(const struct cgx_ctx *ctx, const struct v2_dir *leaf)
{
	for (unsigned int h = 0; h < ctx->hiers.nr; h++)
		if (!tree_is_ancestor(leaf->leaf_tuple->coord[h], leaf))
			return true;
	return false;
}

static bool any_divergent_leaf(const struct cgx_ctx *ctx)
{
	for (const struct v2_dir *leaf = ctx->tree.leaves; leaf; leaf = leaf->leaf_next)
		if (aggregate_leaf_divergent(ctx, leaf))
			return true;
	return false;
}

/* Forgets the samples of directories no limit asked about this round. */
static void prune_samples(struct aggregate_state *state)
{
	size_t kept = 0;

	for (size_t i = 0; i < state->nr_samples; i++)
		if (state->samples[i].round == state->round)
			state->samples[kept++] = state->samples[i];
	state->nr_samples = kept;
}

int cgx_aggregate_rebalance(struct cgx_ctx *ctx)
{
	return aggregate_rebalance_for(ctx, NULL);
}

int aggregate_rebalance_for(struct cgx_ctx *ctx, const struct v2_dir *arriving)
{
	struct plan plan = {.arriving = arriving};
	int r = 0;

	/* Whatever asked for it is settled by this pass. */
	ctx->rebalance_wanted = false;
	/* The common case, every fold exact and nothing left to restore, costs one pass. */
	if (ctx->aggregates.checked && !ctx->aggregates.enforcing && !any_divergent_leaf(ctx))
		return 0;
	ctx->aggregates.enforcing = false;
	ctx->aggregates.round++;

	for (size_t k = 0; k < ARRAY_SIZE(kinds) && r == 0; k++) {
		if (!cgx_has_controller(ctx, kinds[k].controller))
			continue;
		for (unsigned int h = 0; h < ctx->hiers.nr && r == 0; h++)
			if (hier_has_controller(&ctx->hiers.hier[h], kinds[k].controller))
				r = plan_group(ctx, &plan, ctx->tree.base, h, &kinds[k]);
	}
	ctx->aggregates.checked = true;
	for (int shrinking = 1; shrinking >= 0; shrinking--) {
		for (size_t i = 0; i < plan.nr && r == 0; i++) {
			if ((r = write_part(ctx, &plan.parts[i], shrinking)) < 0) {
				cgx_log_errno(r, "cannot set %s of %s", plan.parts[i].kind->v2_file,
					      plan.parts[i].dir->name);
				/* Tried again at the next rebalance. */
				ctx->aggregates.enforcing = true;
			}
		}
	}
	free(plan.parts);
	prune_samples(&ctx->aggregates);
	return r;
}

bool cgx_aggregate_enforcing(const struct cgx_ctx *ctx)
{
	return ctx->aggregates.enforcing;
}

bool aggregate_is_limit_file(const char *v2_file)
{
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++)
		if (!strcmp(kinds[k].v2_file, v2_file))
			return true;
	return false;
}

void aggregate_state_release(struct aggregate_state *state)
{
	free(state->samples);
	*state = (struct aggregate_state){0};
}

/* What a walk over the limits set does with each: @dir's limit of @kind in @h. */
typedef int (*limit_visit_t)(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h,
			     const struct aggregate_kind *kind, bool enforced, void *arg);

/* Each limit set in @dir's subtree of @h, parents first. */
static int walk_limits(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h, limit_visit_t visit,
		       void *arg)
{
	struct v2_dir *child = NULL;
	unsigned long long limit, period;
	int r;

	if (dir != ctx->tree.base) {
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			if (!hier_has_controller(&ctx->hiers.hier[h], kinds[k].controller) ||
			    !group_limit(ctx, dir, h, &kinds[k], &limit, &period))
				continue;
			if ((r = visit(ctx, dir, h, &kinds[k],
				       dir->group[h]->limit_enforced & (1u << k), arg)) < 0)
				return r;
		}
	}
	while ((child = cgx_group_next_child(dir, h, child)))
		if ((r = walk_limits(ctx, child, h, visit, arg)) < 0)
			return r;
	return 0;
}

static int walk_all_limits(struct cgx_ctx *ctx, limit_visit_t visit, void *arg)
{
	int r;

	for (unsigned int h = 0; h < ctx->hiers.nr; h++)
		if ((r = walk_limits(ctx, ctx->tree.base, h, visit, arg)) < 0)
			return r;
	return 0;
}

/* One line of cgx.limits: "memory /db memory.max exact". */
static int report_limit(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h,
			const struct aggregate_kind *kind, bool enforced, void *arg)
{
	char path[PATH_MAX];

	if (tree_path(dir, true, path, sizeof(path)) < 0)
		return 0;
	return strbuf_addf(arg, "%s %s %s %s\n", ctx->hiers.hier[h].dir_name, path, kind->v2_file,
			   enforced ? "enforced" : "exact");
}

int cgx_limits_report(struct cgx_ctx *ctx, struct strbuf *out)
{
	int r;

	/* An empty file still reads as text. */
	if ((r = strbuf_add(out, "", 0)) < 0)
		return r;
	return walk_all_limits(ctx, report_limit, out);
}

static int count_limit(struct cgx_ctx *ctx, struct v2_dir *dir, unsigned int h,
		       const struct aggregate_kind *kind, bool enforced, void *arg)
{
	unsigned long long *counts = arg;

	(void)ctx, (void)dir, (void)h, (void)kind;
	counts[enforced]++;
	return 0;
}

void cgx_limits_count(struct cgx_ctx *ctx, unsigned long long *exact, unsigned long long *enforced)
{
	unsigned long long counts[2] = {0, 0};

	walk_all_limits(ctx, count_limit, counts);
	*exact = counts[0];
	*enforced = counts[1];
}

int cgx_aggregate_settle(struct cgx_ctx *ctx)
{
	int r;

	if (!ctx->rebalance_wanted)
		return 0;
	if ((r = cgx_aggregate_rebalance(ctx)) < 0)
		cgx_log_errno(r, "limits not split again yet, the next rebalance follows");
	return r;
}

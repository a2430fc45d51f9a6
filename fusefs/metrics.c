// SPDX-License-Identifier: GPL-2.0-or-later
#include "metrics.h"

#include "kinds.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define CGX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CGX_ASAN 1
#endif
#endif

/*
 * The bytes malloc has handed out and not had back: what the daemon keeps,
 * where RSS also counts what the allocator caches (and, under ASan, its
 * quarantine of freed memory). ASan's allocator stands in for glibc's, whose
 * mallinfo2() it answers with zeros, so it is asked instead.
 */
#ifdef CGX_ASAN
size_t __sanitizer_get_current_allocated_bytes(void);

static unsigned long long heap_in_use(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
static unsigned long long heap_in_use(void)
{
	struct mallinfo2 info = mallinfo2();

	return info.uordblks + info.hblkhd;
}
#endif

/* A label's value as the text format quotes it: \\, \" and \n escaped. */
static int add_label_value(struct strbuf *out, const char *value)
{
	int r = 0;

	for (const char *v = value; *v && r == 0; v++) {
		if (*v == '\\')
			r = strbuf_add(out, "\\\\", 2);
		else if (*v == '"')
			r = strbuf_add(out, "\\\"", 2);
		else if (*v == '\n')
			r = strbuf_add(out, "\\n", 2);
		else
			r = strbuf_add(out, v, 1);
	}
	return r;
}

static int add_header(struct strbuf *out, const char *name, const char *type, const char *help)
{
	return strbuf_addf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static int add_deprecations(struct strbuf *out, const struct cgx_metrics *model)
{
	const struct deprecation_programs *programs = &model->programs;
	int r;

	if ((r = add_header(out, "cgx_deprecations_total", "counter",
			    "Uses of cgroup v1 the deprecation log recorded, by kind and program "
			    "(the first 20 programs seen by name, the rest as other).")) < 0)
		return r;
	for (unsigned int kind = 0; kind < DEPRECATION_NR_KINDS; kind++) {
		for (unsigned int i = 0; i <= programs->nr; i++) {
			bool other = i == programs->nr;
			unsigned long long count =
				other ? programs->other[kind] : programs->count[i][kind];

			/* A program that never made a record of this kind has no series of it. */
			if (!count && !other)
				continue;
			if ((r = strbuf_addf(out, "cgx_deprecations_total{kind=\"%s\",program=\"",
					     deprecation_kind_name(kind))) < 0 ||
			    (r = add_label_value(out, other ? "other" : programs->name[i])) < 0 ||
			    (r = strbuf_addf(out, "\"} %llu\n", count)) < 0)
				return r;
		}
	}
	return 0;
}

static int add_model(struct strbuf *out, const struct cgx_metrics *model)
{
	int r;

	if ((r = add_header(out, "cgx_groups", "gauge",
			    "Groups of the v1 view, its roots not counted, by hierarchy.")) < 0)
		return r;
	for (unsigned int h = 0; h < model->nr_hiers; h++)
		if ((r = strbuf_add(out, "cgx_groups{hierarchy=\"", 22)) < 0 ||
		    (r = add_label_value(out, model->hier_name[h])) < 0 ||
		    (r = strbuf_addf(out, "\"} %llu\n", model->groups[h])) < 0)
			return r;
	if ((r = add_header(out, "cgx_leaves", "gauge",
			    "cgroup2 leaves made for processes whose groups differ by "
			    "hierarchy.")) < 0 ||
	    (r = strbuf_addf(out, "cgx_leaves %llu\n", model->leaves)) < 0 ||
	    (r = add_header(out, "cgx_limits", "gauge",
			    "Limits set on v1 groups: exact in cgroup2, or enforced by cgxfs "
			    "over several directories (cgx.limits).")) < 0 ||
	    (r = strbuf_addf(out, "cgx_limits{state=\"exact\"} %llu\n", model->limits_exact)) < 0 ||
	    (r = strbuf_addf(out, "cgx_limits{state=\"enforced\"} %llu\n",
			     model->limits_enforced)) < 0)
		return r;
	if ((r = add_header(out, "cgx_log_records_lost_total", "counter",
			    "Deprecation records the log file could not take (log_lost).")) < 0 ||
	    (r = strbuf_addf(out, "cgx_log_records_lost_total %llu\n", model->log_lost)) < 0 ||
	    (r = add_header(out, "cgx_log_records_dropped_total", "counter",
			    "Deprecation records past the log file's size cap (log_dropped).")) <
		    0 ||
	    (r = strbuf_addf(out, "cgx_log_records_dropped_total %llu\n", model->log_dropped)) <
		    0 ||
	    (r = add_header(out, "cgx_log_records_folded_total", "counter",
			    "Deprecation records the rate limit folded into a count "
			    "(log_folded).")) < 0 ||
	    (r = strbuf_addf(out, "cgx_log_records_folded_total %llu\n", model->log_folded)) < 0 ||
	    (r = add_header(out, "cgx_journal_records_lost_total", "counter",
			    "Deprecation log lines journald did not take (journal_lost).")) < 0 ||
	    (r = strbuf_addf(out, "cgx_journal_records_lost_total %llu\n", model->journal_lost)) <
		    0)
		return r;
	return add_deprecations(out, model);
}

static int add_requests(struct strbuf *out, const struct request_stats *requests)
{
	unsigned long long total[REQUEST_NR_OPS];
	int r;

	/* Counted from the buckets: the histogram's count and its +Inf bucket agree. */
	for (unsigned int op = 0; op < REQUEST_NR_OPS; op++) {
		total[op] = 0;
		for (unsigned int b = 0; b <= REQUEST_NR_BOUNDS; b++)
			total[op] += requests->bucket[op][b];
	}
	if ((r = add_header(out, "cgx_requests_total", "counter",
			    "FUSE requests served, by operation.")) < 0)
		return r;
	for (unsigned int op = 0; op < REQUEST_NR_OPS; op++)
		if ((r = strbuf_addf(out, "cgx_requests_total{op=\"%s\"} %llu\n",
				     request_op_names[op], total[op])) < 0)
			return r;
	if ((r = add_header(out, "cgx_request_duration_seconds", "histogram",
			    "Time from a FUSE request's arrival to its reply, by operation.")) < 0)
		return r;
	for (unsigned int op = 0; op < REQUEST_NR_OPS; op++) {
		unsigned long long below = 0;

		for (unsigned int b = 0; b < REQUEST_NR_BOUNDS; b++) {
			below += requests->bucket[op][b];
			if ((r = strbuf_addf(
				     out,
				     "cgx_request_duration_seconds_bucket{op=\"%s\",le=\"%g\"} "
				     "%llu\n",
				     request_op_names[op], request_bounds_ns[b] / 1e9, below)) < 0)
				return r;
		}
		if ((r = strbuf_addf(
			     out,
			     "cgx_request_duration_seconds_bucket{op=\"%s\",le=\"+Inf\"} %llu\n"
			     "cgx_request_duration_seconds_sum{op=\"%s\"} %.9f\n"
			     "cgx_request_duration_seconds_count{op=\"%s\"} %llu\n",
			     request_op_names[op], total[op], request_op_names[op],
			     requests->sum_ns[op] / 1e9, request_op_names[op], total[op])) < 0)
			return r;
	}
	return 0;
}

int metrics_write(const char *path, const struct cgx_metrics *model,
		  const struct request_stats *requests)
{
	_cleanup_strbuf_ struct strbuf text = STRBUF_INIT;
	char tmp[PATH_MAX];
	ssize_t n;
	int fd, r;

	if ((r = strbuf_addf(&text,
			     "# HELP cgx_build_info cgxfs's version.\n"
			     "# TYPE cgx_build_info gauge\n"
			     "cgx_build_info{version=\"%s\"} 1\n",
			     CGX_VERSION)) < 0 ||
	    (r = add_model(&text, model)) < 0 || (r = add_requests(&text, requests)) < 0 ||
	    (r = add_header(&text, "cgx_heap_bytes", "gauge",
			    "Heap memory cgxfs holds (allocated and not freed; RSS also "
			    "counts what the allocator keeps for reuse).")) < 0 ||
	    (r = strbuf_addf(&text, "cgx_heap_bytes %llu\n", heap_in_use())) < 0)
		return r;
	/* Not *.prom: the collector reads only those, so never this half-written one. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, text.buf, text.len);
	r = n < 0 ? -errno : (size_t)n == text.len ? 0 : -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

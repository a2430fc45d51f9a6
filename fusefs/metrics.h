/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgxfs --metrics FILE: the model's numbers and the requests served, in
 * the text format node_exporter's textfile collector reads, written whole
 * (a temporary file renamed over FILE) so that a scrape never sees half.
 */
#ifndef CGXFS_METRICS_H
#define CGXFS_METRICS_H

#include "cgx.h"
#include "request_stats.h"

/* How often the watcher writes the file. */
#define METRICS_INTERVAL_MS 5000

/* Writes @model and @requests to @path; -errno. */
int metrics_write(const char *path, const struct cgx_metrics *model,
		  const struct request_stats *requests);

#endif

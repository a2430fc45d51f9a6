/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's findings, as upgrade planners list them (RHEL's leapp): each
 * use of v1 found on the host or in its log, with a stable id, a severity,
 * whether it inhibits the move to a cgroup2-only kernel, and what to do.
 */
#ifndef CGX_MIGRATE_FINDINGS_H
#define CGX_MIGRATE_FINDINGS_H

#include "model.h"

enum finding_severity {
	FINDING_HIGH,
	FINDING_MEDIUM,
	FINDING_LOW,
	FINDING_INFO,
	FINDING_NR_SEVERITIES,
};

struct mig_finding {
	/* The type and its subject: the same on every run over the same host. */
	char *id;
	const char *type; /* "setting-lost", "named-hierarchy", "log-no-v2-equivalent"... */
	enum finding_severity severity;
	/* The host cannot run on a cgroup2-only kernel without a change (or cgx). */
	bool inhibitor;
	char *title, *summary, *remediation;
	size_t seq; /* the order it was found in, kept within a severity */
};

struct mig_findings {
	struct mig_finding *items; /* most severe first, then in the report's order */
	size_t nr, cap;
	unsigned long by_severity[FINDING_NR_SEVERITIES];
	unsigned long inhibitors;
};

/* Every finding of @report into @findings (empty before); -ENOMEM. */
int findings_build(const struct mig_report *report, struct mig_findings *findings);
void findings_release(struct mig_findings *findings);
const char *finding_severity_name(enum finding_severity severity);

#define _cleanup_findings_ __attribute__((cleanup(findings_release)))

#endif

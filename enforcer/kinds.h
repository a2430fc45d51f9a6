/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kinds of v1 use the deprecation log records, with the names its lines
 * carry: one table for the daemon that writes them and for cgx-migrate,
 * which reads them back (migrate/logread.c). The names are on disk: never
 * rename one.
 */
#ifndef CGX_KINDS_H
#define CGX_KINDS_H

/*
 * X(enumerator, name, message id) for every kind, in the order of enum
 * deprecation_kind. The message id is the kind's MESSAGE_ID in the journal
 * (sd-id128(3)), which dist/cgx.catalog explains: on disk too, never change one.
 */
#define DEPRECATION_KINDS(X)                                                                       \
	X(DEPRECATION_MULTI_HIERARCHY_PROCESS, "multi-hierarchy-process",                          \
	  "c9d6d3810bfb4815857330c4981b2cd0")                                                      \
	X(DEPRECATION_DIVERGENT_TREE, "divergent-tree", "1a2a981ad9424edb9a2da02330b971e9")        \
	X(DEPRECATION_NAMED_HIERARCHY, "named-hierarchy", "1a31cb9a02f94f009646a6acf5c5ecd0")      \
	X(DEPRECATION_RUNTIME_HIERARCHY, "runtime-hierarchy", "3afad1d6bf5f473f9d3d6da995dc719d")  \
	X(DEPRECATION_NO_V2_EQUIVALENT, "no-v2-equivalent", "7ebaa0dcdf884b0489293126781bbf1f")    \
	X(DEPRECATION_APPROXIMATE, "approximate", "559be9897a1746869bc30fbea204ea04")              \
	X(DEPRECATION_DELEGATION_REFUSED, "delegation-refused", "5ecd07bb808a4a4889015896964f93c6")

/* The MESSAGE_ID of a summary line: records of one kind the rate limit folded into a count. */
#define DEPRECATION_FOLDED_MESSAGE_ID "38e6d4228b8d4ec9ae2e6faac25e24d4"

#define DEPRECATION_KIND_ENUMERATOR(kind, name, message_id) kind,
enum deprecation_kind {
	DEPRECATION_KINDS(DEPRECATION_KIND_ENUMERATOR) DEPRECATION_NR_KINDS,
};
#undef DEPRECATION_KIND_ENUMERATOR

/* The name of @kind in the log, "?" for none. */
const char *deprecation_kind_name(enum deprecation_kind kind);
/* The journal's MESSAGE_ID of @kind's records (32 hex digits), NULL for none. */
const char *deprecation_kind_message_id(enum deprecation_kind kind);
/* The kind called @name, -ENOENT for a name this version does not know. */
int deprecation_kind_find(const char *name);

#endif

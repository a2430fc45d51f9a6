/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kinds of v1 use the deprecation log records, with the names its lines
 * carry: one table for the daemon that writes them and for cgx-migrate,
 * which reads them back (migrate/logread.c). The names are on disk: never
 * rename one.
 */
#ifndef CGX_KINDS_H
#define CGX_KINDS_H

/* X(enumerator, name) for every kind, in the order of enum deprecation_kind. */
#define DEPRECATION_KINDS(X)                                                                       \
	X(DEPRECATION_MULTI_HIERARCHY_PROCESS, "multi-hierarchy-process")                          \
	X(DEPRECATION_DIVERGENT_TREE, "divergent-tree")                                            \
	X(DEPRECATION_NAMED_HIERARCHY, "named-hierarchy")                                          \
	X(DEPRECATION_RUNTIME_HIERARCHY, "runtime-hierarchy")                                      \
	X(DEPRECATION_NO_V2_EQUIVALENT, "no-v2-equivalent")                                        \
	X(DEPRECATION_APPROXIMATE, "approximate")                                                  \
	X(DEPRECATION_DELEGATION_REFUSED, "delegation-refused")

#define DEPRECATION_KIND_ENUMERATOR(kind, name) kind,
enum deprecation_kind {
	DEPRECATION_KINDS(DEPRECATION_KIND_ENUMERATOR) DEPRECATION_NR_KINDS,
};
#undef DEPRECATION_KIND_ENUMERATOR

/* The name of @kind in the log, "?" for none. */
const char *deprecation_kind_name(enum deprecation_kind kind);
/* The kind called @name, -ENOENT for a name this version does not know. */
int deprecation_kind_find(const char *name);

#endif

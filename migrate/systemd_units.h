/* SPDX-License-Identifier: GPL-2.0-or-later */
/* systemd's names for a v2 layout (systemd_units.c), for plans and findings. */
#ifndef CGX_MIGRATE_SYSTEMD_UNITS_H
#define CGX_MIGRATE_SYSTEMD_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The unit the group at @path was made for, by its last component ("svc.service"). */
bool systemd_own_unit(const char *path, char *unit, size_t size);
/* The unit whose drop-in takes @path's settings: its own, else a slice named for the path. */
void systemd_unit_name(FILE *out, const char *path);
/*
 * The length of @path's container prefix: the groups above a chain of unit
 * names that do not start at the root ("/ct" of /ct/system.slice/svc.service,
 * a container's systemd in legacy mode under the host's group ct); 0 for a
 * chain from the root (the host's own units) or a path that names no unit.
 */
size_t systemd_container_prefix(const char *path);
/*
 * The directory of @path's drop-in, as a shell word: "$dir" for the host's
 * units and slices, "$containers"/'ct' for a container's.
 */
void systemd_unit_dir(FILE *out, const char *path);
/* The drop-in section of that unit: "Service", "Slice"... */
const char *systemd_unit_section(const char *path);
/* The property line(s) of one v2 line of @file, or a comment when systemd has none. */
void systemd_property(FILE *out, const char *file, const char *line);

#endif

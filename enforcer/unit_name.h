/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The systemd unit a cgroup path names: systemd gives each unit with
 * processes a group of its own name (/system.slice/cron.service), in every
 * hierarchy it uses, so a v1 group path or a process's cgroup2 path says
 * which unit a record concerns and which drop-in a migration writes.
 */
#ifndef CGX_UNIT_NAME_H
#define CGX_UNIT_NAME_H

#include <stdbool.h>
#include <stddef.h>

/* UNIT_NAME_MAX of systemd, the NUL included. */
#define UNIT_NAME_SIZE 256

/*
 * The innermost component of @path that is a unit name with a group of
 * its own (service, scope, slice, socket, mount, swap) into @unit; false,
 * and @unit "", when none is. "/ct/system.slice/svc.service/@tasks" names
 * svc.service.
 */
bool unit_name_of_path(const char *path, char *unit, size_t size);
/* The unit file section of @unit's type ("Service", "Slice"...), NULL for no unit. */
const char *unit_name_section(const char *unit);

#endif

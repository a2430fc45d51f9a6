// SPDX-License-Identifier: GPL-2.0-or-later
/* Hierarchy lists: the classic layout, co-mounts, names, and what the kernel refuses. */
#include "check.h"
#include "hierarchy.h"
#include "v1_files.h"

#include <errno.h>
#include <string.h>

/* Every hierarchy keeps the registry's rows of each of its controllers, in their order. */
static bool rows_kept(const struct cgx_hier_set *set)
{
	for (unsigned int i = 0; i < set->nr; i++)
		for (unsigned int c = 0; c < set->hier[i].nr_controllers; c++)
			if (set->hier[i].controller_rows[c] !=
			    v1_controller_find(set->hier[i].controllers[c]))
				return false;
	return true;
}

static int parse(const char *spec)
{
	struct cgx_hier_set set;
	int r = hier_set_parse(&set, spec);

	if (r == 0)
		hier_set_release(&set);
	return r;
}

int main(void)
{
	struct cgx_hier_set set;
	struct hier_alias aliases[CGX_MAX_HIER * CGX_MAX_CONTROLLER];
	unsigned int nr_aliases;

	CHECK_EQ_INT(hier_set_parse(&set, CGX_DEFAULT_HIERARCHIES), 0);
	CHECK_EQ_INT(set.nr, 13);
	CHECK(!strcmp(set.hier[1].dir_name, "cpu,cpuacct"));
	CHECK(!strcmp(set.hier[12].dir_name, "systemd"));
	CHECK(!strcmp(set.hier[12].proc_name, "name=systemd"));
	CHECK_EQ_INT(hier_set_find(&set, "name=systemd"), 12);
	CHECK_EQ_INT(hier_set_find(&set, "memory"), 3);
	CHECK_EQ_INT(hier_set_find(&set, "cpu"), -ENOENT);

	/* The symlinks of the classic layout: cpu, cpuacct, net_cls, net_prio. */
	nr_aliases = hier_set_aliases(&set, aliases);
	CHECK_EQ_INT(nr_aliases, 4);
	CHECK(!strcmp(aliases[0].name, "cpu") && aliases[0].hier == 1);
	CHECK(!strcmp(aliases[3].name, "net_prio") && aliases[3].hier == 6);

	/* Aggregate limits outermost: memory first, then pids, then cpu. */
	CHECK_EQ_INT(set.primary_order[0], 3);
	CHECK_EQ_INT(set.primary_order[1], 9);
	CHECK_EQ_INT(set.primary_order[2], 1);

	/* Every group has the core files; sane_behavior and release_agent only at the root. */
	CHECK(v1_file_find(&set.hier[1], "tasks") >= 0);
	int sane = v1_file_find(&set.hier[1], "cgroup.sane_behavior");
	CHECK(sane >= 0);
	CHECK(v1_file_present(set.hier[1].files[sane], true));
	CHECK(!v1_file_present(set.hier[1].files[sane], false));
	hier_set_release(&set);

	CHECK_EQ_INT(parse("cpu,memory;name=jobs"), 0);
	CHECK_EQ_INT(parse("cpu;cpu"), -EBUSY);
	CHECK_EQ_INT(parse("cpu,memory;memory"), -EBUSY);
	CHECK_EQ_INT(parse("name=a;name=a"), -EBUSY);
	CHECK_EQ_INT(parse("bogus"), -EINVAL);
	CHECK_EQ_INT(parse("cpu,,memory"), -EINVAL);
	CHECK_EQ_INT(parse("cpu;"), -EINVAL);
	CHECK_EQ_INT(parse("name=bad/name"), -EINVAL);
	CHECK_EQ_INT(parse("cpu,cpu"), -EINVAL);
	CHECK_EQ_INT(parse("io"), -EINVAL); /* v1 knows blkio, not io */
	/* The cpuacct symlink of cpu,cpuacct would hide a hierarchy named cpuacct. */
	CHECK_EQ_INT(parse("cpu,cpuacct;name=cpuacct"), -EBUSY);
	/* Long names are kept whole in /proc form. */
	CHECK_EQ_INT(hier_set_parse(&set,
				    "cpuset,cpu,cpuacct,blkio,memory,devices,freezer,net_cls,"
				    "perf_event,net_prio,hugetlb,pids,rdma,misc,name=averyveryvery"
				    "longnamethatgoesonandon"),
		     0);
	CHECK(strstr(set.hier[0].proc_name, ",name=averyveryverylongnamethatgoesonandon") != NULL);
	hier_set_release(&set);

	/* Run-time hierarchies: appended, named as made, refused as mount(2) refuses. */
	struct strbuf kept = STRBUF_INIT;
	struct cgx_hier_set again;

	CHECK_EQ_INT(hier_set_parse(&set, "cpu,cpuacct;memory;name=systemd"), 0);
	CHECK_EQ_INT(hier_set_add(&set, "cpu"), -EBUSY);
	CHECK_EQ_INT(hier_set_add(&set, "memory,pids"), -EBUSY);
	CHECK_EQ_INT(hier_set_add(&set, "name=systemd"), -EBUSY);
	CHECK_EQ_INT(hier_set_add(&set, "none"), -EINVAL);
	CHECK_EQ_INT(hier_set_add(&set, "none,pids"), -EINVAL);
	CHECK_EQ_INT(hier_set_add(&set, "none,none,name=x"), -EINVAL);
	CHECK_EQ_INT(hier_set_add(&set, "pids;freezer"), -EINVAL);
	/* A name alone finds a hierarchy, never makes one. */
	CHECK_EQ_INT(hier_set_add(&set, "name=jobs"), -EINVAL);
	CHECK_EQ_INT(set.nr, 3);
	CHECK_EQ_INT(hier_set_add(&set, "none,name=jobs"), 0);
	CHECK_EQ_INT(hier_set_add(&set, "pids,freezer"), 0);
	CHECK_EQ_INT(set.nr, 5);
	CHECK(!strcmp(set.hier[3].dir_name, "none,name=jobs"));
	CHECK(!strcmp(set.hier[3].proc_name, "name=jobs"));
	CHECK(set.hier[4].nr_files > set.hier[3].nr_files);
	/* pids outranks cpu for the outermost place. */
	CHECK_EQ_INT(set.primary_order[0], 1);
	CHECK_EQ_INT(set.primary_order[1], 4);
	/* memory goes; the others keep their order. */
	hier_set_remove(&set, 1);
	CHECK_EQ_INT(set.nr, 4);
	CHECK(!strcmp(set.hier[1].dir_name, "systemd"));
	CHECK_EQ_INT(set.primary_order[0], 3);
	CHECK_EQ_INT(hier_set_add(&set, "memory"), 0);
	CHECK(rows_kept(&set));
	CHECK(set.hier[4].controller_rows[0] &&
	      !strcmp(set.hier[4].controller_rows[0]->name, "memory"));
	/* What the base keeps reads back as the same set. */
	CHECK_EQ_INT(hier_set_format(&set, &kept), 0);
	CHECK(!strcmp(kept.buf, "cpu,cpuacct\tcpu,cpuacct\nname=systemd\tsystemd\n"
				"name=jobs\tnone,name=jobs\npids,freezer\tpids,freezer\n"
				"memory\tmemory\n"));
	CHECK_EQ_INT(hier_set_parse_stored(&again, kept.buf), 0);
	CHECK_EQ_INT(again.nr, 5);
	CHECK(!strcmp(again.hier[2].dir_name, "none,name=jobs"));
	CHECK_EQ_INT(again.hier[4].nr_files, set.hier[4].nr_files);
	CHECK(rows_kept(&again));
	hier_set_release(&again);
	CHECK_EQ_INT(hier_set_parse_stored(&again, "memory\n"), -EINVAL);
	CHECK_EQ_INT(hier_set_parse_stored(&again, ""), -EINVAL);
	CHECK_EQ_INT(hier_set_parse_stored(&again, "cpu\tcpu\ncpu\tx\n"), -EBUSY);
	strbuf_release(&kept);
	hier_set_release(&set);

	/* --primary-order: the named controllers first, the default order after. */
	CHECK_EQ_INT(hier_set_parse(&set, CGX_DEFAULT_HIERARCHIES), 0);
	CHECK(rows_kept(&set));
	CHECK_EQ_INT(hier_set_primary(&set, "cpu,misc"), 0);
	CHECK_EQ_INT(set.primary_order[0], 1);	/* cpu,cpuacct */
	CHECK_EQ_INT(set.primary_order[1], 11); /* misc */
	CHECK_EQ_INT(set.primary_order[2], 3);	/* memory */
	CHECK_EQ_INT(hier_set_primary(&set, "cpu,io"), -EINVAL);
	CHECK_EQ_INT(set.primary_order[1], 11);
	CHECK_EQ_INT(hier_set_primary(&set, ""), 0);
	CHECK_EQ_INT(set.primary_order[0], 3);
	hier_set_release(&set);
	return check_summary("hierarchy");
}

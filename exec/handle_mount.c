// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mount -t cgroup -o CONTROLLERS[,name=X] SRC DIR: the hierarchy
 * cgroup1_get_tree() would pick or make is the view's directory of it, bound
 * at DIR in the caller's mount namespace. Other file systems, remounts and
 * binds are the kernel's.
 */
#include "supervisor.h"
#include "target.h"
#include "util.h"

#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

/* Mount(2) flags that make the call something other than a new mount. */
#define NOT_A_NEW_MOUNT                                                                            \
	(MS_REMOUNT | MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)

struct cgroup_request {
	unsigned int controllers;
	char name[64];
	bool none;
};

/* cgroup1_parse_param(): controllers, none, name=, all, and flags cgx does not carry. */
static int parse_options(const char *data, struct cgroup_request *want)
{
	const char *word = data;
	bool all = false;

	memset(want, 0, sizeof(*want));
	while (*word) {
		size_t len = strcspn(word, ",");
		int index;

		if (len == 0) {
			/* empty option: ignored, as the kernel's parser skips it */
		} else if (len == 4 && !strncmp(word, "none", 4)) {
			want->none = true;
		} else if (len == 3 && !strncmp(word, "all", 3)) {
			all = true;
		} else if (len > 5 && !strncmp(word, "name=", 5)) {
			if (want->name[0] || len - 5 >= sizeof(want->name))
				return -EINVAL;
			snprintf(want->name, sizeof(want->name), "%.*s", (int)(len - 5), word + 5);
			if (want->name[strspn(want->name,
					      "abcdefghijklmnopqrstuvwxyz"
					      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")])
				return -EINVAL;
		} else if ((index = hier_controller_index(word, len)) >= 0) {
			want->controllers |= 1u << index;
		} else if (!((len == 8 && !strncmp(word, "noprefix", 8)) ||
			     (len == 5 && !strncmp(word, "xattr", 5)) ||
			     (len == 14 && !strncmp(word, "clone_children", 14)) ||
			     (len == 14 && !strncmp(word, "cpuset_v2_mode", 14)) ||
			     (len == 13 && !strncmp(word, "favordynmods", 13)) ||
			     (len == 15 && !strncmp(word, "nofavordynmods", 15)) ||
			     (len > 14 && !strncmp(word, "release_agent=", 14)))) {
			return -EINVAL;
		}
		word += len + (word[len] == ',');
	}
	/* cgroup1_validate(): all or nothing named means every controller. */
	if (all || (!want->controllers && !want->none && !want->name[0]))
		want->controllers = (1u << VIEW_NR_CONTROLLERS) - 1;
	if (want->none && want->controllers && !all)
		return -EINVAL;
	if (!want->controllers && !want->name[0])
		return -EINVAL;
	return 0;
}

/* cgroup1_root_to_use(): an existing hierarchy, -EBUSY, or NULL to make one. */
static int find_hierarchy(struct view *view, const struct cgroup_request *want,
			  struct view_hier **found)
{
	*found = NULL;
	for (unsigned int i = 0; i < view->nr; i++) {
		struct view_hier *hier = &view->hier[i];
		bool name_match = want->name[0] && !strcmp(want->name, hier->name);

		if (want->name[0] && !name_match)
			continue;
		if ((want->controllers || want->none) && want->controllers != hier->controllers) {
			if (!name_match)
				continue;
			return -EBUSY;
		}
		*found = hier;
		return 0;
	}
	/*
	 * rebind_subsystems(): a new hierarchy cannot take a controller bound to
	 * another one. Asked of the view, "cpu" would be its alias symlink (EEXIST).
	 */
	for (unsigned int i = 0; i < view->nr; i++)
		if (want->controllers & view->hier[i].controllers)
			return -EBUSY;
	return 0;
}

/* The hierarchy made as the kernel would on this mount: mkdir of its spec at the view's root. */
static int make_hierarchy(struct view *view, const struct cgroup_request *want,
			  struct view_hier **made)
{
	char spec[256];
	size_t used = 0;
	int r;

	for (unsigned int c = 0; c < VIEW_NR_CONTROLLERS; c++)
		if (want->controllers & (1u << c))
			used += snprintf(spec + used, sizeof(spec) - used, "%s%s", used ? "," : "",
					 hier_controller_name(c));
	/* "none,name=X" and "name=X" are one hierarchy: the view names it the shorter way. */
	if (want->name[0])
		snprintf(spec + used, sizeof(spec) - used, "%sname=%s", used ? "," : "",
			 want->name);
	if (mkdirat(view->fd, spec, 0755) < 0)
		return -errno;
	if ((r = view_reload(view)) < 0)
		return r;
	*made = view_find_dir(view, spec);
	return *made ? 0 : -ENOENT;
}

/* The per-mount flags of the call, for mount_setattr() on the new bind. */
static void mount_attr_of(unsigned long flags, struct mount_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->attr_clr = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			 MOUNT_ATTR_NOEXEC | MOUNT_ATTR__ATIME | MOUNT_ATTR_NODIRATIME;
	if (flags & MS_RDONLY)
		attr->attr_set |= MOUNT_ATTR_RDONLY;
	if (flags & MS_NOSUID)
		attr->attr_set |= MOUNT_ATTR_NOSUID;
	if (flags & MS_NODEV)
		attr->attr_set |= MOUNT_ATTR_NODEV;
	if (flags & MS_NOEXEC)
		attr->attr_set |= MOUNT_ATTR_NOEXEC;
	if (flags & MS_NODIRATIME)
		attr->attr_set |= MOUNT_ATTR_NODIRATIME;
	if (flags & MS_NOATIME)
		attr->attr_set |= MOUNT_ATTR_NOATIME;
	else if (flags & MS_STRICTATIME)
		attr->attr_set |= MOUNT_ATTR_STRICTATIME;
	else
		attr->attr_set |= MOUNT_ATTR_RELATIME;
}

/*
 * Attaches @tree at @target as the caller would name it: a helper joins the
 * caller's mount namespace, root and cwd (setns() needs a single-threaded
 * process, and the supervisor keeps its own).
 */
static int attach_in_target(int tree, int ns, int root, int cwd, const char *target)
{
	int status;
	pid_t helper = fork();

	if (helper < 0)
		return -errno;
	if (helper == 0) {
		if (setns(ns, CLONE_NEWNS) < 0 || fchdir(root) < 0 || chroot(".") < 0 ||
		    fchdir(cwd) < 0 ||
		    move_mount(tree, "", AT_FDCWD, target,
			       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_SYMLINKS) < 0)
			_exit(errno & 0xff);
		_exit(0);
	}
	while (waitpid(helper, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -EIO;
	return -WEXITSTATUS(status);
}

static int open_proc(pid_t tid, const char *what, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", tid, what);
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int do_mount(struct supervisor *sup, const struct seccomp_notif *req, const char *target,
		    const char *data)
{
	_cleanup_close_ int ns = -1, root = -1, cwd = -1, tree = -1;
	struct cgroup_request want;
	struct view_hier *hier;
	struct mount_attr attr;
	int r;

	if ((ns = open_proc(req->pid, "ns/mnt", O_RDONLY)) < 0 ||
	    (root = open_proc(req->pid, "root", O_PATH | O_DIRECTORY)) < 0 ||
	    (cwd = open_proc(req->pid, "cwd", O_PATH | O_DIRECTORY)) < 0)
		return ns < 0 ? ns : root < 0 ? root : cwd;
	/* The strings and the namespace must be the caller's, not a reused pid's. */
	if (!notif_valid(sup, req->id))
		return -ENOENT;
	if ((r = target_has_cap_sys_admin(req->pid)) <= 0)
		return r < 0 ? r : -EPERM;
	if ((r = parse_options(data, &want)) < 0)
		return r;
	if ((r = view_reload(&sup->view)) < 0 || (r = find_hierarchy(&sup->view, &want, &hier)) < 0)
		return r;
	if (!hier && (r = make_hierarchy(&sup->view, &want, &hier)) < 0)
		return r;
	tree = open_tree(sup->view.fd, hier->dir, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	if (tree < 0)
		return -errno;
	mount_attr_of(req->data.args[3], &attr);
	if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		return -errno;
	return attach_in_target(tree, ns, root, cwd, target);
}

int handle_mount(struct supervisor *sup, const struct seccomp_notif *req)
{
	char fstype[64], target[PATH_MAX], data[4096] = "";
	int r;

	if (!req->data.args[2] || req->data.args[3] & NOT_A_NEW_MOUNT ||
	    target_read_string(req->pid, req->data.args[2], fstype, sizeof(fstype)) < 0 ||
	    strcmp(fstype, "cgroup"))
		return notif_continue(sup, req->id);
	if ((r = target_read_string(req->pid, req->data.args[1], target, sizeof(target))) < 0 ||
	    (req->data.args[4] &&
	     (r = target_read_string(req->pid, req->data.args[4], data, sizeof(data))) < 0))
		return notif_return(sup, req->id, -1, r == -ENAMETOOLONG ? r : -EFAULT);
	r = do_mount(sup, req, target, data);
	if (r == -ENOENT && !notif_valid(sup, req->id))
		return r;
	return notif_return(sup, req->id, r < 0 ? -1 : 0, r < 0 ? r : 0);
}

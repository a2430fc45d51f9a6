// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mount -t cgroup -o CONTROLLERS[,name=X] SRC DIR: the hierarchy
 * cgroup1_get_tree() would pick or make is the view's directory of it, bound
 * at DIR in the caller's mount namespace. Other file systems, remounts and
 * binds are the kernel's; fsopen("cgroup") is refused so that mount(2) is used.
 */
#include "caller.h"
#include "cgroup_lines.h"
#include "cgroupns.h"
#include "decode.h"
#include "handle.h"
#include "mount_helper.h"
#include "notif.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* Mount(2) flags that make the call something other than a new mount. */
#define NOT_A_NEW_MOUNT                                                                            \
	(MS_REMOUNT | MS_BIND | MS_MOVE | MS_SHARED | MS_PRIVATE | MS_SLAVE | MS_UNBINDABLE)

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
	return 0;
}

/* The hierarchy made as the kernel would on this mount: mkdir of its spec at the view's root. */
static int make_hierarchy(struct view *view, const struct cgroup_request *want,
			  struct view_hier **made)
{
	char spec[256];
	size_t used = 0;
	int r;

	/* rebind_subsystems(): a controller may live in one hierarchy only. */
	for (unsigned int i = 0; i < view->nr; i++)
		if (view->hier[i].controllers & want->controllers)
			return -EBUSY;
	for (unsigned int c = 0; c < VIEW_NR_CONTROLLERS; c++)
		if (want->controllers & (1u << c))
			used += snprintf(spec + used, sizeof(spec) - used, "%s%s", used ? "," : "",
					 hier_controller_name(c));
	/* The view makes a hierarchy as the kernel does: a name alone would be EINVAL. */
	if (want->name[0])
		snprintf(spec + used, sizeof(spec) - used, "%sname=%s", used ? "," : "none,",
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

/* Shown back as the mount's source in the mount table, as the kernel keeps fc->source. */
static int remember_source(struct supervisor *sup, int tree, const char *source)
{
	struct statx stx;

	if (statx(tree, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0)
		return -errno;
	if (stx.stx_mask & STATX_MNT_ID) {
		pthread_mutex_lock(&sup->view_lock);
		view_set_source(&sup->view, stx.stx_mnt_id, source);
		pthread_mutex_unlock(&sup->view_lock);
	}
	return 0;
}

/*
 * cgroup1_get_tree() and what the VFS asks before it, in the kernel's order,
 * the view locked while a hierarchy is found or made. Returns the tree to
 * attach, or -errno.
 */
static int hierarchy_tree(struct supervisor *sup, const struct caller *caller, const char *data,
			  const char *source)
{
	_cleanup_close_ int mnt_owner = -1, cgroup_owner = -1, tree = -1;
	_cleanup_free_ char *root_tuple = NULL;
	struct cgroup_request want;
	struct view_hier *hier;
	char dir[PATH_MAX], group[PATH_MAX];
	int r, root_error = 0;

	/* path_mount(): may_mount(), CAP_SYS_ADMIN over the caller's mount namespace. */
	if ((mnt_owner = ns_owner(caller->ns_mnt)) < 0)
		return mnt_owner;
	if ((r = caller_ns_capable(caller, mnt_owner)) <= 0)
		return r < 0 ? r : -EPERM;
	if ((r = cgroup_options_parse(data, &want)) < 0)
		return r;
	/* fc->user_ns is the cgroup namespace's owner: cgroup_init_fs_context(). */
	if ((cgroup_owner = ns_owner(caller->ns_cgroup)) < 0)
		return cgroup_owner;
	/* "Setting release_agent not allowed": it runs with every capability. */
	if (want.release_agent && (!ns_same(cgroup_owner, caller_self_ns_user()) ||
				   caller_ns_capable(caller, caller_self_ns_user()) != 1))
		return -EINVAL;
	/* mount_capable() (FS_USERNS_MOUNT) and cgroup1_get_tree(). */
	if ((r = caller_ns_capable(caller, cgroup_owner)) <= 0)
		return r < 0 ? r : -EPERM;
	if ((r = cgroup_options_validate(&want)) < 0)
		return r;
	/*
	 * cgroup_init_fs_context() takes the caller's cgroup namespace at
	 * mount(2); outside the initial one, its root is what is mounted. Found
	 * before the view is locked (it mounts and reads the cgroup2 tree); its
	 * error comes after cgroup1_root_to_use()'s, as the kernel's does.
	 */
	if (!ns_same(caller->ns_cgroup, caller_self_ns_cgroup())) {
		if (!(root_tuple = malloc(CGROUPNS_TUPLE_MAX)))
			return -ENOMEM;
		root_error = cgroupns_root(caller->ns_cgroup, root_tuple, CGROUPNS_TUPLE_MAX);
	}

	pthread_mutex_lock(&sup->view_lock);
	if ((r = view_reload(&sup->view)) < 0 || (r = find_hierarchy(&sup->view, &want, &hier)) < 0)
		goto unlock;
	if (!hier) {
		/* "No subsys list or none specified": a name alone finds, never makes. */
		r = -EINVAL;
		if (!want.controllers && !want.none)
			goto unlock;
		/*
		 * Hierarchies are made in the initial cgroup namespace only, by
		 * CAP_SYS_ADMIN in the initial user namespace: a new name in the
		 * view is seen by every session.
		 */
		r = -EPERM;
		if (!ns_same(caller->ns_cgroup, caller_self_ns_cgroup()) ||
		    caller_ns_capable(caller, caller_self_ns_user()) != 1)
			goto unlock;
		if ((r = make_hierarchy(&sup->view, &want, &hier)) < 0)
			goto unlock;
	}
	/*
	 * cgroup_do_get_tree(): a non-initial namespace mounts its root's group
	 * of the hierarchy; one removed since fails (kernfs_node_dentry()).
	 */
	r = root_error;
	if (r == 0 && snprintf(dir, sizeof(dir), "%s%s", hier->dir,
			       root_tuple ? cgroup_group_of(hier, root_tuple, group, sizeof(group))
					  : "") >= (int)sizeof(dir))
		r = -ENAMETOOLONG;
unlock:
	pthread_mutex_unlock(&sup->view_lock);
	if (r < 0)
		return r;
	/*
	 * Cloned by the supervisor, attached by the helper: the bind is the
	 * view's, the place and the right to mount there the caller's.
	 */
	if ((tree = open_tree(sup->view.fd, dir,
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_SYMLINK_NOFOLLOW)) < 0)
		return -errno;
	if ((r = remember_source(sup, tree, source)) < 0)
		return r;
	return steal_fd(tree);
}

static int do_mount(struct call *call, const char *target, const char *source, const char *data)
{
	_cleanup_(caller_close) struct caller caller;
	_cleanup_close_ int tree = -1;
	struct mount_helper helper = {.pid = -1, .pidfd = -1, .sock = -1};
	struct mount_attr attr;
	int r, unblocked;

	if ((r = caller_open(call->req.pid, &caller)) < 0)
		return r;
	/* The ids, namespaces, root and cwd must be the caller's, not a reused pid's. */
	if (!notif_valid(call))
		return -ENOENT;
	/* do_mount() looks the target up before anything else, with the caller's rights. */
	if ((r = mount_helper_start(&caller, target, &helper)) < 0)
		return r;
	call_watch_helper(call, helper.pidfd);
	call_block(call);
	r = mount_helper_resolved(&helper);
	if ((unblocked = call_unblock(call)) < 0)
		r = unblocked;
	if (r < 0)
		goto out;
	if ((r = tree = hierarchy_tree(call->sup, &caller, data, source)) < 0)
		goto out;
	mount_attr_of(call->req.data.args[3], &attr);
	if (mount_setattr(tree, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0) {
		r = -errno;
		goto out;
	}
	/* Interrupted meanwhile, the call would be made again: it must not mount twice. */
	if (!notif_valid(call)) {
		r = -ENOENT;
		goto out;
	}
	call_block(call);
	r = mount_helper_attach(&helper, tree);
	if ((unblocked = call_unblock(call)) < 0)
		r = unblocked;
out:
	call_watch_helper(call, -1);
	mount_helper_release(&helper);
	return r;
}

int handle_mount(struct call *call)
{
	const struct seccomp_notif *req = &call->req;
	char fstype[64], target[PATH_MAX], source[64] = "none", data[4096] = "";
	int r;

	if (!req->data.args[2] || req->data.args[3] & NOT_A_NEW_MOUNT)
		return notif_continue(call);
	if ((r = call_read_string(call, req->data.args[2], fstype, sizeof(fstype))) == -ECANCELED)
		return r;
	if (r < 0 || strcmp(fstype, "cgroup"))
		return notif_continue(call);
	/* Ours from here: given up, it fails as a fault would, and is never a real v1 mount. */
	call_set_giveup(call, -EFAULT);
	/* A source longer than cgx-exec keeps is cut, not refused: it is only shown. */
	r = req->data.args[0] ? call_read_string(call, req->data.args[0], source, sizeof(source))
			      : 0;
	if (r == -ENAMETOOLONG)
		source[sizeof(source) - 1] = '\0';
	else if (r < 0)
		return r == -ECANCELED ? r : notif_return(call, -1, -EFAULT);
	if ((r = call_read_string(call, req->data.args[1], target, sizeof(target))) < 0 ||
	    (req->data.args[4] &&
	     (r = call_read_string(call, req->data.args[4], data, sizeof(data))) < 0)) {
		if (r == -ECANCELED)
			return r;
		return notif_return(call, -1, r == -ENAMETOOLONG ? r : -EFAULT);
	}
	r = do_mount(call, target, source, data);
	if (r == -ECANCELED)
		return r;
	if ((r == -ENOENT || r == -ESRCH) && !notif_valid(call))
		return -ENOENT;
	return notif_return(call, r < 0 ? -1 : 0, r < 0 ? r : 0);
}

/*
 * The new mount API (fsopen, fsconfig, fsmount) of a cgroup v1 file system
 * is answered ENOSYS, as a kernel without it would: libmount (util-linux
 * 2.39 and later) then falls back to mount(2), which is served above.
 */
int handle_fsopen(struct call *call)
{
	char fsname[64];
	int r = call_read_string(call, call->req.data.args[0], fsname, sizeof(fsname));

	if (r == -ECANCELED)
		return r;
	if (r < 0 || strcmp(fsname, "cgroup"))
		return notif_continue(call);
	if (!notif_valid(call))
		return -ENOENT;
	return notif_return(call, -1, -ENOSYS);
}

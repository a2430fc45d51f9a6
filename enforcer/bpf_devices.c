// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The devices whitelist of cgroup v1 (security/device_cgroup.c, as in 6.1)
 * and its enforcement in cgroup2: a BPF_PROG_TYPE_CGROUP_DEVICE program,
 * generated from a group's behaviour and exceptions, loaded and attached
 * with raw bpf(2).
 *
 * The list functions follow the kernel's rules one for one, quirks
 * included: an exception is removed only by a rule naming the same type,
 * major and minor; "a" copies the parent's exceptions back; a child keeps
 * what it was allowed only while its parent still allows it.
 */
#include "bpf_devices.h"

#include "bpf_cgroup.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The kernel's isspace() (lib/ctype.c): the C locale's, plus 0xa0. */
static bool kisspace(char c)
{
	unsigned char u = (unsigned char)c;

	return u == ' ' || (u >= '\t' && u <= '\r') || u == 0xa0;
}

static bool kisdigit(char c)
{
	return c >= '0' && c <= '9';
}

void devcg_list_release(struct devcg_list *list)
{
	free(list->ex);
	list->ex = NULL;
	list->nr = list->cap = 0;
}

static int list_append(struct devcg_list *list, const struct devcg_exception *ex)
{
	if (list->nr == list->cap) {
		unsigned int cap = list->cap ? 2 * list->cap : 8;
		struct devcg_exception *grown = realloc(list->ex, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		list->ex = grown;
		list->cap = cap;
	}
	list->ex[list->nr++] = *ex;
	return 0;
}

static void list_clean(struct devcg_list *list)
{
	list->nr = 0;
}

int devcg_list_copy(struct devcg_list *dst, const struct devcg_list *src)
{
	struct devcg_list copy = {.allow = src->allow};

	for (unsigned int i = 0; i < src->nr; i++) {
		int r = list_append(&copy, &src->ex[i]);

		if (r < 0) {
			devcg_list_release(&copy);
			return r;
		}
	}
	devcg_list_release(dst);
	*dst = copy;
	return 0;
}

bool devcg_list_allows_all(const struct devcg_list *list)
{
	for (unsigned int i = 0; list->allow && i < list->nr; i++)
		if (list->ex[i].access)
			return false;
	return list->allow;
}

static bool same_device(const struct devcg_exception *a, const struct devcg_exception *b)
{
	return a->type == b->type && a->major == b->major && a->minor == b->minor;
}

/* dev_exception_add(): the access of an exception for the same device grows. */
static int exception_add(struct devcg_list *list, const struct devcg_exception *ex)
{
	bool merged = false;

	for (unsigned int i = 0; i < list->nr; i++) {
		if (!same_device(&list->ex[i], ex))
			continue;
		list->ex[i].access |= ex->access;
		merged = true;
	}
	return merged ? 0 : list_append(list, ex);
}

/* dev_exception_rm(): only an exception for the very same device loses access. */
static void exception_rm(struct devcg_list *list, const struct devcg_exception *ex)
{
	struct devcg_exception rule = *ex; /* @ex may be an element of @list */
	unsigned int kept = 0;

	for (unsigned int i = 0; i < list->nr; i++) {
		struct devcg_exception walk = list->ex[i];

		if (same_device(&walk, &rule))
			walk.access &= ~rule.access;
		if (walk.access || !same_device(&walk, &rule))
			list->ex[kept++] = walk;
	}
	list->nr = kept;
}

static bool type_matches(short type, const struct devcg_exception *ex)
{
	if ((type & DEVCG_DEV_BLOCK) && !(ex->type & DEVCG_DEV_BLOCK))
		return false;
	if ((type & DEVCG_DEV_CHAR) && !(ex->type & DEVCG_DEV_CHAR))
		return false;
	return true;
}

/* match_exception(): one exception holds the whole request. */
static bool match_exception(const struct devcg_list *list, short type, uint32_t major,
			    uint32_t minor, short access)
{
	for (unsigned int i = 0; i < list->nr; i++) {
		const struct devcg_exception *ex = &list->ex[i];

		if (!type_matches(type, ex))
			continue;
		if (ex->major != DEVCG_ANY && ex->major != major)
			continue;
		if (ex->minor != DEVCG_ANY && ex->minor != minor)
			continue;
		if (access & ~ex->access)
			continue;
		return true;
	}
	return false;
}

/* match_exception_partial(): an exception touches any device or access of the request. */
static bool match_exception_partial(const struct devcg_list *list, short type, uint32_t major,
				    uint32_t minor, short access)
{
	for (unsigned int i = 0; i < list->nr; i++) {
		const struct devcg_exception *ex = &list->ex[i];

		if (!type_matches(type, ex))
			continue;
		if (ex->major != DEVCG_ANY && major != DEVCG_ANY && ex->major != major)
			continue;
		if (ex->minor != DEVCG_ANY && minor != DEVCG_ANY && ex->minor != minor)
			continue;
		if (!(access & ex->access))
			continue;
		return true;
	}
	return false;
}

/* verify_new_ex() through parent_has_perm(): a child never gets more than its parent. */
static bool parent_has_perm(bool child_allow, const struct devcg_list *parent,
			    const struct devcg_exception *ex)
{
	if (!parent)
		return true;
	if (parent->allow)
		return child_allow ||
		       !match_exception_partial(parent, ex->type, ex->major, ex->minor, ex->access);
	return match_exception(parent, ex->type, ex->major, ex->minor, ex->access);
}

/* parent_allows_removal(): dropping a deny exception must not undo one of the parent's. */
static bool parent_allows_removal(const struct devcg_list *child, const struct devcg_list *parent,
				  const struct devcg_exception *ex)
{
	if (!parent || !child->allow)
		return true;
	return !match_exception_partial(parent, ex->type, ex->major, ex->minor, ex->access);
}

int devcg_update(struct devcg_list *group, const struct devcg_list *parent, bool has_children,
		 bool allow_file, const struct devcg_rule *rule, bool *propagate)
{
	*propagate = false;
	if (rule->all) {
		/* css_has_online_children(): a default changes only at the bottom of a tree. */
		if (has_children)
			return -EINVAL;
		if (!allow_file) {
			list_clean(group);
			group->allow = false;
			return 0;
		}
		if (parent && !parent->allow)
			return -EPERM;
		if (!parent) {
			list_clean(group);
			group->allow = true;
			return 0;
		}
		/* Allow, less whatever the parent denies: its exceptions come back. */
		return devcg_list_copy(group, parent);
	}
	if (allow_file) {
		if (group->allow) {
			/* Default allow: "allow" quietly drops a matching deny exception. */
			if (!parent_allows_removal(group, parent, &rule->ex))
				return -EPERM;
			exception_rm(group, &rule->ex);
			return 0;
		}
		if (!parent_has_perm(group->allow, parent, &rule->ex))
			return -EPERM;
		return exception_add(group, &rule->ex);
	}
	if (!group->allow) {
		exception_rm(group, &rule->ex);
	} else {
		int r = exception_add(group, &rule->ex);

		if (r < 0)
			return r;
	}
	/* Only new restrictions travel down (propagate_exception). */
	*propagate = true;
	return 0;
}

int devcg_propagate(struct devcg_list *devcg, const struct devcg_list *parent, bool origin_allow,
		    const struct devcg_exception *ex)
{
	if (origin_allow && devcg->allow) {
		int r = exception_add(devcg, ex);

		if (r < 0)
			return r;
	} else {
		exception_rm(devcg, ex);
	}
	/* revalidate_active_exceptions(): what the parent no longer grants goes. */
	for (unsigned int i = 0; i < devcg->nr;) {
		struct devcg_exception walk = devcg->ex[i];

		if (parent_has_perm(devcg->allow, parent, &walk)) {
			i++;
			continue;
		}
		exception_rm(devcg, &walk);
	}
	return 0;
}

bool devcg_may_access(const struct devcg_list *list, short type, uint32_t major, uint32_t minor,
		      short access)
{
	if (list->allow)
		return !match_exception_partial(list, type, major, minor, access);
	return match_exception(list, type, major, minor, access);
}

/* A major or minor as devcgroup_update_access reads it: "*" or at most 11 digits, a u32. */
static int parse_number(const char **cursor, uint32_t *value)
{
	const char *b = *cursor;
	unsigned long long n = 0;

	if (*b == '*') {
		*value = DEVCG_ANY;
		*cursor = b + 1;
		return 0;
	}
	if (!kisdigit(*b))
		return -EINVAL;
	/* The kernel copies up to 11 digits and leaves the cursor on a 12th, if any. */
	for (int count = 0; count < 11; count++) {
		n = n * 10 + (unsigned long long)(*b - '0');
		b++;
		if (!kisdigit(*b))
			break;
	}
	if (n > UINT32_MAX)
		return -EINVAL; /* kstrtou32's -ERANGE, reported as -EINVAL */
	*value = (uint32_t)n;
	*cursor = b;
	return 0;
}

/* The access bit of 'r', 'w' or 'm'; 0 for any other character. */
static short access_bit(char c)
{
	switch (c) {
	case 'r':
		return DEVCG_ACC_READ;
	case 'w':
		return DEVCG_ACC_WRITE;
	case 'm':
		return DEVCG_ACC_MKNOD;
	default:
		return 0;
	}
}

int devcg_rule_parse(const char *buf, struct devcg_rule *rule)
{
	_cleanup_free_ char *copy = strdup(buf);
	const char *b;
	char *end;
	int r;

	if (!copy)
		return -ENOMEM;
	/* devcgroup_access_write() hands the parser strstrip(buf). */
	end = copy + strlen(copy);
	while (end > copy && kisspace(end[-1]))
		*--end = '\0';
	for (b = copy; kisspace(*b); b++)
		;
	memset(rule, 0, sizeof(*rule));
	switch (*b) {
	case 'a':
		rule->all = true; /* whatever follows the 'a' */
		return 0;
	case 'b':
		rule->ex.type = DEVCG_DEV_BLOCK;
		break;
	case 'c':
		rule->ex.type = DEVCG_DEV_CHAR;
		break;
	default:
		return -EINVAL;
	}
	b++;
	if (!kisspace(*b))
		return -EINVAL;
	b++;
	if ((r = parse_number(&b, &rule->ex.major)) < 0)
		return r;
	if (*b != ':')
		return -EINVAL;
	b++;
	if ((r = parse_number(&b, &rule->ex.minor)) < 0)
		return r;
	if (!kisspace(*b))
		return -EINVAL;
	/* Three characters at most; a newline or the end stops early; the rest is not read. */
	b++;
	for (int count = 0; count < 3 && *b != '\n' && *b != '\0'; count++, b++) {
		short bit = access_bit(*b);

		if (!bit)
			return -EINVAL;
		rule->ex.access |= bit;
	}
	return 0;
}

static char type_char(short type)
{
	if (type == DEVCG_DEV_ALL)
		return 'a';
	if (type == DEVCG_DEV_CHAR)
		return 'c';
	if (type == DEVCG_DEV_BLOCK)
		return 'b';
	return 'X';
}

/* One line as devcgroup_seq_show() prints it: access in the order r, w, m. */
static int add_line(struct strbuf *out, short type, uint32_t major, uint32_t minor, short access)
{
	char maj[16], min[16], acc[4];
	int n = 0;

	if (access & DEVCG_ACC_READ)
		acc[n++] = 'r';
	if (access & DEVCG_ACC_WRITE)
		acc[n++] = 'w';
	if (access & DEVCG_ACC_MKNOD)
		acc[n++] = 'm';
	acc[n] = '\0';
	if (major == DEVCG_ANY)
		strcpy(maj, "*");
	else
		snprintf(maj, sizeof(maj), "%u", major);
	if (minor == DEVCG_ANY)
		strcpy(min, "*");
	else
		snprintf(min, sizeof(min), "%u", minor);
	return strbuf_addf(out, "%c %s:%s %s\n", type_char(type), maj, min, acc);
}

int devcg_list_show(const struct devcg_list *list, struct strbuf *out)
{
	int r = strbuf_add(out, "", 0);

	/* Default allow shows as allow-all whatever its exceptions: v1 kept it a whitelist. */
	if (list->allow)
		return r < 0 ? r
			     : add_line(out, DEVCG_DEV_ALL, DEVCG_ANY, DEVCG_ANY, DEVCG_ACC_MASK);
	for (unsigned int i = 0; r >= 0 && i < list->nr; i++)
		r = add_line(out, list->ex[i].type, list->ex[i].major, list->ex[i].minor,
			     list->ex[i].access);
	return r < 0 ? r : 0;
}

int devcg_list_format(const struct devcg_list *list, struct strbuf *out)
{
	int r = strbuf_addf(out, "default %s\n", list->allow ? "allow" : "deny");

	for (unsigned int i = 0; r >= 0 && i < list->nr; i++)
		r = add_line(out, list->ex[i].type, list->ex[i].major, list->ex[i].minor,
			     list->ex[i].access);
	return r < 0 ? r : 0;
}

/* "c 1:3 rwm" of the stored form, strictly: it is our own writing. */
static int parse_stored_line(const char *line, size_t len, struct devcg_exception *ex)
{
	const char *b = line, *end = line + len;

	memset(ex, 0, sizeof(*ex));
	if (len < 2 || (*b != 'b' && *b != 'c') || b[1] != ' ')
		return -EINVAL;
	ex->type = *b == 'b' ? DEVCG_DEV_BLOCK : DEVCG_DEV_CHAR;
	b += 2;
	if (parse_number(&b, &ex->major) < 0 || *b++ != ':' || parse_number(&b, &ex->minor) < 0 ||
	    b >= end || *b++ != ' ')
		return -EINVAL;
	for (; b < end; b++) {
		short bit = access_bit(*b);

		if (!bit || (ex->access & bit))
			return -EINVAL;
		ex->access |= bit;
	}
	return 0;
}

int devcg_list_parse(const char *text, struct devcg_list *list)
{
	struct devcg_list parsed = DEVCG_LIST_INIT;
	const char *line = text;
	int r;

	if (!strncmp(line, "default allow\n", 14)) {
		parsed.allow = true;
	} else if (!strncmp(line, "default deny\n", 13)) {
		parsed.allow = false;
	} else {
		return -EINVAL;
	}
	line = strchr(line, '\n') + 1;
	while (*line) {
		const char *eol = strchr(line, '\n');
		struct devcg_exception ex;

		if (!eol || (r = parse_stored_line(line, eol - line, &ex)) < 0 ||
		    (r = list_append(&parsed, &ex)) < 0) {
			devcg_list_release(&parsed);
			return eol ? r : -EINVAL;
		}
		line = eol + 1;
	}
	devcg_list_release(list);
	*list = parsed;
	return 0;
}

/* Registers of the program: the context, and the request's fields once loaded. */
enum { R0_VERDICT = 0, R1_CTX = 1, R2_ACCESS = 2, R3_TYPE = 3, R4_MAJOR = 4, R5_MINOR = 5 };

/* The instructions one exception takes; 0 when it can never decide (see devcg_prog_build). */
static unsigned int block_length(const struct devcg_list *list, const struct devcg_exception *ex)
{
	if (list->allow && !ex->access)
		return 0;
	return 1 + (ex->major != DEVCG_ANY) + (ex->minor != DEVCG_ANY) + 5;
}

/*
 * The kernel's check, one block per exception in list order:
 *   default allow: refuse when an exception shares the device and any access bit
 *                  (match_exception_partial);
 *   default deny:  allow when an exception holds the device and every access bit
 *                  (match_exception);
 * and the default when no block decides. The request's type is BLOCK or CHAR,
 * never both, so type_matches() is an equality here. Comparisons are 32-bit
 * (BPF_JMP32): majors and minors are u32 and a 64-bit compare would sign-extend.
 */
int devcg_prog_build(const struct devcg_list *list, void **insns, unsigned int *nr_insns)
{
	struct bpf_insn *prog;
	unsigned int nr = 6 + 2, n = 0;

	for (unsigned int i = 0; i < list->nr; i++)
		nr += block_length(list, &list->ex[i]);
	if (!(prog = calloc(nr, sizeof(*prog))))
		return -ENOMEM;
	prog[n++] = bpf_insn(BPF_LDX | BPF_MEM | BPF_W, R2_ACCESS, R1_CTX,
			     offsetof(struct bpf_cgroup_dev_ctx, access_type), 0);
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_X, R3_TYPE, R2_ACCESS, 0, 0);
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_AND | BPF_K, R3_TYPE, 0, 0, 0xffff);
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_RSH | BPF_K, R2_ACCESS, 0, 0, 16);
	prog[n++] = bpf_insn(BPF_LDX | BPF_MEM | BPF_W, R4_MAJOR, R1_CTX,
			     offsetof(struct bpf_cgroup_dev_ctx, major), 0);
	prog[n++] = bpf_insn(BPF_LDX | BPF_MEM | BPF_W, R5_MINOR, R1_CTX,
			     offsetof(struct bpf_cgroup_dev_ctx, minor), 0);
	for (unsigned int i = 0; i < list->nr; i++) {
		const struct devcg_exception *ex = &list->ex[i];
		unsigned int end = n + block_length(list, ex);

		if (end == n)
			continue;
		/* Each jump's offset counts from the instruction after it. */
		prog[n] = bpf_insn(BPF_JMP32 | BPF_JNE | BPF_K, R3_TYPE, 0, end - n - 1, ex->type);
		n++;
		if (ex->major != DEVCG_ANY) {
			prog[n] = bpf_insn(BPF_JMP32 | BPF_JNE | BPF_K, R4_MAJOR, 0, end - n - 1,
					   (int32_t)ex->major);
			n++;
		}
		if (ex->minor != DEVCG_ANY) {
			prog[n] = bpf_insn(BPF_JMP32 | BPF_JNE | BPF_K, R5_MINOR, 0, end - n - 1,
					   (int32_t)ex->minor);
			n++;
		}
		prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_X, R0_VERDICT, R2_ACCESS, 0, 0);
		if (list->allow) {
			prog[n++] = bpf_insn(BPF_ALU64 | BPF_AND | BPF_K, R0_VERDICT, 0, 0,
					     (uint16_t)ex->access);
			prog[n++] = bpf_insn(BPF_JMP | BPF_JEQ | BPF_K, R0_VERDICT, 0, 2, 0);
			prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_K, R0_VERDICT, 0, 0, 0);
		} else {
			prog[n++] = bpf_insn(BPF_ALU64 | BPF_AND | BPF_K, R0_VERDICT, 0, 0,
					     (uint16_t)~ex->access);
			prog[n++] = bpf_insn(BPF_JMP | BPF_JNE | BPF_K, R0_VERDICT, 0, 2, 0);
			prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_K, R0_VERDICT, 0, 0, 1);
		}
		prog[n++] = bpf_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	}
	prog[n++] = bpf_insn(BPF_ALU64 | BPF_MOV | BPF_K, R0_VERDICT, 0, 0, list->allow ? 1 : 0);
	prog[n++] = bpf_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	*insns = prog;
	*nr_insns = n;
	return 0;
}

static const struct bpf_cgroup_prog devices_prog = {
	.type = BPF_PROG_TYPE_CGROUP_DEVICE,
	.attach_type = BPF_CGROUP_DEVICE,
	.name = DEVCG_PROG_NAME,
	.what = "devices",
};

static int prog_load(const struct devcg_list *list)
{
	_cleanup_free_ void *insns = NULL;
	unsigned int nr;
	int r;

	if ((r = devcg_prog_build(list, &insns, &nr)) < 0)
		return r;
	return bpf_cgroup_prog_load(&devices_prog, insns, nr);
}

int devcg_cgroup_clear(int cgroup_fd)
{
	return bpf_cgroup_clear(cgroup_fd, &devices_prog);
}

int devcg_cgroup_apply(int cgroup_fd, const struct devcg_list *list)
{
	_cleanup_(bpf_cgroup_ours_release) struct bpf_cgroup_ours ours = {.nr = 0};
	_cleanup_close_ int prog_fd = -1;
	struct bpf_prog_info info;
	int r;

	if (devcg_list_allows_all(list))
		return devcg_cgroup_clear(cgroup_fd);
	if ((prog_fd = prog_load(list)) < 0)
		return prog_fd;
	if ((r = bpf_cgroup_query_ours(cgroup_fd, &devices_prog, &ours)) < 0)
		return cgx_log_errno(r, "cannot list the device programs of a cgroup");
	/* The same instructions are there already (a restart, a repeated rule): keep them. */
	if (ours.nr == 1 && bpf_prog_info_get(prog_fd, &info) == 0 &&
	    !memcmp(info.tag, ours.tag[0], BPF_TAG_SIZE))
		return 0;
	if ((r = bpf_cgroup_attach(cgroup_fd, &devices_prog, prog_fd)) < 0)
		return r;
	/* The new filter is in force: the old ones may go now. */
	return bpf_cgroup_detach_ours(cgroup_fd, &devices_prog, &ours);
}

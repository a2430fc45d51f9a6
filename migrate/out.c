// SPDX-License-Identifier: GPL-2.0-or-later
#include "out.h"

#include "fail.h"
#include "out_common.h"
#include "out_formats.h"
#include "util.h"

#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int out_format_lookup(const char *name, enum out_format *format)
{
	static const struct {
		const char *name;
		enum out_format format;
	} formats[] = {
		{"text", FMT_TEXT},   {"json", FMT_JSON}, {"markdown", FMT_MARKDOWN},
		{"md", FMT_MARKDOWN}, {"html", FMT_HTML},
	};

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(formats[i].name, name)) {
			*format = formats[i].format;
			return 0;
		}
	return -EINVAL;
}

int out_format_parse(const char *name, enum out_format *format)
{
	if (out_format_lookup(name, format) < 0)
		return mig_err(-EINVAL, "unknown format \"%s\" (text, json, markdown, html)", name);
	return 0;
}

bool out_colour_auto(const char *path)
{
	const char *no_colour = getenv("NO_COLOR");

	return !path && isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
}

static int finish_stream(FILE *stream)
{
	if (fflush(stream) != 0 || ferror(stream))
		return -(errno ? errno : EIO);
	return 0;
}

int out_write(const char *path, int (*render)(FILE *out, void *data), void *data)
{
	_cleanup_free_ char *copy = NULL, *temp = NULL;
	mode_t mask;
	FILE *stream;
	int fd, r;

	if (!path) {
		if ((r = render(stdout, data)) < 0)
			return r;
		if ((r = finish_stream(stdout)) < 0)
			return mig_err(r, "cannot write the output");
		return 0;
	}
	/* The temporary file sits beside the target: rename() is atomic only within a file system.
	 */
	if (!(copy = strdup(path)) ||
	    asprintf(&temp, "%s/.%s.XXXXXX", dirname(copy),
		     strrchr(path, '/') ? strrchr(path, '/') + 1 : path) < 0)
		return -ENOMEM;
	if ((fd = mkostemp(temp, O_CLOEXEC)) < 0)
		return mig_err(-errno, "cannot create a file beside %s", path);
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(stream = fdopen(fd, "w"))) {
		r = mig_err(-errno, "cannot write %s", temp);
		close(fd);
		unlink(temp);
		return r;
	}
	r = render(stream, data);
	if (r >= 0 && (r = finish_stream(stream)) < 0)
		mig_err(r, "cannot write %s", path);
	if (r >= 0 && fsync(fd) < 0)
		r = mig_err(-errno, "cannot write %s", path);
	if (fclose(stream) != 0 && r >= 0)
		r = mig_err(-errno, "cannot write %s", path);
	if (r >= 0 && rename(temp, path) < 0)
		r = mig_err(-errno, "cannot rename %s to %s", temp, path);
	if (r < 0)
		unlink(temp);
	return r;
}

int render_report(FILE *out, void *data)
{
	const struct render_args *args = data;
	struct json_object *object;
	int r;

	switch (args->format) {
	case FMT_JSON:
		if (!(object = report_to_json(args->report)))
			return -ENOMEM;
		r = render_json_object(out, object);
		json_object_put(object);
		return r;
	case FMT_MARKDOWN:
		return render_markdown(out, args->report);
	case FMT_HTML:
		return render_html(out, args->report);
	default:
		return render_text(out, args->report, args->colour);
	}
}

int render_json_object(FILE *out, struct json_object *object)
{
	const char *text = json_object_to_json_string_ext(
		object,
		JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!text)
		return -ENOMEM;
	out_put_json(out, text);
	fputc('\n', out);
	return 0;
}

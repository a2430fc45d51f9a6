// SPDX-License-Identifier: GPL-2.0-or-later
#include "json_field.h"

#include <json-c/json.h>

static struct json_object *typed(struct json_object *object, const char *key, json_type type)
{
	struct json_object *field;

	if (!json_object_object_get_ex(object, key, &field) || !json_object_is_type(field, type))
		return NULL;
	return field;
}

const char *json_field_string(struct json_object *object, const char *key)
{
	struct json_object *field = typed(object, key, json_type_string);

	return field ? json_object_get_string(field) : NULL;
}

struct json_object *json_field_array(struct json_object *object, const char *key)
{
	return typed(object, key, json_type_array);
}

struct json_object *json_field_object(struct json_object *object, const char *key)
{
	return typed(object, key, json_type_object);
}

long long json_field_int(struct json_object *object, const char *key)
{
	struct json_object *field;

	if (!json_object_object_get_ex(object, key, &field))
		return 0;
	return json_object_get_int64(field);
}

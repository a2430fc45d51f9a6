/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A field of a JSON object that cgx-migrate reads (a deprecation log
 * record, a host report), of the type it must have: anything else, or a
 * missing field, reads as absent.
 */
#ifndef CGX_MIGRATE_JSON_FIELD_H
#define CGX_MIGRATE_JSON_FIELD_H

struct json_object;

/* NULL when absent or not of the type. */
const char *json_field_string(struct json_object *object, const char *key);
struct json_object *json_field_array(struct json_object *object, const char *key);
struct json_object *json_field_object(struct json_object *object, const char *key);
/* 0 when absent; json-c's conversion otherwise. */
long long json_field_int(struct json_object *object, const char *key);

#endif

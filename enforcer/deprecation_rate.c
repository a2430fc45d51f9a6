// SPDX-License-Identifier: GPL-2.0-or-later
#include "deprecation_rate.h"

#include <stdio.h>
#include <string.h>

static bool same_key(const struct deprecation_rate_key *a, const struct deprecation_rate_key *b)
{
	return a->uid == b->uid && a->kind == b->kind && a->program_hash == b->program_hash;
}

struct deprecation_rate *deprecation_rate_slot(struct deprecation_rate_table *table,
					       const struct deprecation_rate_key *key)
{
	struct deprecation_rate *victim = NULL;

	for (size_t i = 0; i < DEPRECATION_RATE_SLOTS; i++) {
		struct deprecation_rate *slot = &table->slot[i];

		if (slot->used && same_key(&slot->key, key))
			return slot;
		if (!victim ||
		    (victim->used && (!slot->used || slot->last_use_ms < victim->last_use_ms)))
			victim = slot;
	}
	return victim;
}

bool deprecation_rate_expired(const struct deprecation_rate *slot, long long now_ms)
{
	return slot->used && now_ms - slot->window_start_ms >= DEPRECATION_RATE_WINDOW_MS;
}

bool deprecation_rate_due(const struct deprecation_rate *slot,
			  const struct deprecation_rate_key *key, long long now_ms)
{
	return !slot->used || !same_key(&slot->key, key) || deprecation_rate_expired(slot, now_ms);
}

void deprecation_rate_start(struct deprecation_rate *slot, const struct deprecation_rate_key *key,
			    long long now_ms, const char *program, const char *comm)
{
	*slot = (struct deprecation_rate){
		.used = true,
		.key = *key,
		.window_start_ms = now_ms,
		.last_use_ms = now_ms,
	};
	snprintf(slot->program, sizeof(slot->program), "%s", program);
	snprintf(slot->comm, sizeof(slot->comm), "%s", comm);
}

unsigned int deprecation_rate_take(struct deprecation_rate *slot, long long now_ms,
				   const char *time)
{
	unsigned int may = 0;

	slot->last_use_ms = now_ms;
	if (slot->written < DEPRECATION_LOG_BURST) {
		slot->written++;
		may |= DEPRECATION_RATE_WRITE;
		if (slot->said < DEPRECATION_SYSLOG_BURST) {
			slot->said++;
			may |= DEPRECATION_RATE_SYSLOG;
		} else {
			slot->held_back++;
		}
		return may;
	}
	if (!slot->folded++)
		snprintf(slot->first_folded, sizeof(slot->first_folded), "%s", time);
	snprintf(slot->last_folded, sizeof(slot->last_folded), "%s", time);
	slot->held_back++;
	return 0;
}

struct deprecation_uid_budget *deprecation_uid_slot(struct deprecation_rate_table *table, uid_t uid)
{
	struct deprecation_uid_budget *victim = NULL;

	for (size_t i = 0; i < DEPRECATION_UID_SLOTS; i++) {
		struct deprecation_uid_budget *budget = &table->uid[i];

		if (budget->used && budget->uid == uid)
			return budget;
		if (!victim ||
		    (victim->used && (!budget->used || budget->last_use_ms < victim->last_use_ms)))
			victim = budget;
	}
	return victim;
}

bool deprecation_uid_expired(const struct deprecation_uid_budget *budget, long long now_ms)
{
	return budget->used && now_ms - budget->window_start_ms >= DEPRECATION_RATE_WINDOW_MS;
}

bool deprecation_uid_due(const struct deprecation_uid_budget *budget, uid_t uid, long long now_ms)
{
	return !budget->used || budget->uid != uid || deprecation_uid_expired(budget, now_ms);
}

void deprecation_uid_start(struct deprecation_uid_budget *budget, uid_t uid, long long now_ms)
{
	*budget = (struct deprecation_uid_budget){
		.used = true,
		.uid = uid,
		.window_start_ms = now_ms,
		.last_use_ms = now_ms,
	};
}

bool deprecation_uid_charge(struct deprecation_uid_budget *budget, size_t len, long long now_ms)
{
	budget->last_use_ms = now_ms;
	if (len > DEPRECATION_UID_BYTES - budget->bytes)
		return false;
	budget->bytes += len;
	return true;
}

void deprecation_uid_fold(struct deprecation_uid_budget *budget, unsigned int kind,
			  unsigned long long records, uid_t uid, const char *time)
{
	bool first = true;

	for (unsigned int k = 0; k < DEPRECATION_RATE_KINDS; k++)
		first &= !budget->overflow[k];
	if (first) {
		snprintf(budget->first_overflow, sizeof(budget->first_overflow), "%s", time);
		budget->first_uid = uid;
	}
	snprintf(budget->last_overflow, sizeof(budget->last_overflow), "%s", time);
	budget->overflow[kind] += records;
}

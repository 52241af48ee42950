// SPDX-License-Identifier: GPL-2.0
/* A small u64 -> u64 hash map for the plugin's lookups. */
#include <stdlib.h>

#include "plugin.h"

uint64_t *map_slot(struct map *m, uint64_t key)
{
	if (2 * (m->n + 1) > m->cap) {
		struct map o = *m;

		m->cap = o.cap ? 2 * o.cap : 1024;
		m->k = calloc(m->cap, sizeof(*m->k));
		m->v = calloc(m->cap, sizeof(*m->v));
		if (!m->k || !m->v)
			abort();
		m->n = 0;
		for (size_t i = 0; i < o.cap; i++)
			if (o.k[i])
				*map_slot(m, o.k[i] - 1) = o.v[i];
		free(o.k);
		free(o.v);
	}
	uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ULL;
	size_t i = (h >> 17) & (m->cap - 1);

	while (m->k[i] && m->k[i] != key + 1)
		i = (i + 1) & (m->cap - 1);
	if (!m->k[i]) {
		m->k[i] = key + 1;
		m->v[i] = 0;
		m->n++;
	}
	return &m->v[i];
}

uint64_t *map_find(const struct map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	uint64_t h = (key + 1) * 0x9e3779b97f4a7c15ULL;
	size_t i = (h >> 17) & (m->cap - 1);

	while (m->k[i]) {
		if (m->k[i] == key + 1)
			return &m->v[i];
		i = (i + 1) & (m->cap - 1);
	}
	return NULL;
}

// SPDX-License-Identifier: LGPL-2.1
/*
 * The report's and the diff's sections of a kind of input, keyed by the
 * kind (et_file_kind.key): what a kind adds to the text and JSON outputs
 * beyond the tables every kind has.  The renderers look a kind up here;
 * the input layer (lib/source.c) says what a file is and nothing of how it
 * is shown, so it depends on no renderer.  A kind with no row adds
 * nothing.
 */
#include <string.h>

#include "entrytrace-local.h"

static const struct et_sections sections[] = {
	{ .key = "mix",
	  .text_header = et_text_mix_file, .text_tail = et_text_mix,
	  .json_file = et_json_mix_file, .json_tail = et_json_mix,
	  .diff_text_tail = et_text_mix_diff_tail, .diff_json = et_json_mix_diff },
};

static const struct et_sections none;

const struct et_sections *et_sections_of(const struct et_file_kind *k)
{
	for (size_t i = 0; k && i < ET_ARRAY_SIZE(sections); i++)
		if (!strcmp(sections[i].key, k->key))
			return &sections[i];
	return &none;
}

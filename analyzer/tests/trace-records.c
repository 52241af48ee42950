// SPDX-License-Identifier: GPL-2.0
/*
 * trace-records: where each record of an uncompressed trace.dat lies in the
 * file, for tests that damage one record of a real recording on purpose.
 *
 *   trace-records FILE [SYSTEM:EVENT [FIELD]]
 *
 * prints "cpu data_offset size system:event" per record (only those of the
 * event if one is named; with a FIELD, the offset and size are the field's).  The offset is that of the record's payload, the
 * bytes tep fields are read from; each one is checked against the file, so
 * a line is printed only when the bytes there are the record's.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

int tracecmd_cpus(struct tracecmd_input *handle);

int main(int argc, char **argv)
{
	struct tracecmd_input *h;
	struct tep_handle *tep;
	FILE *f;
	int bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: trace-records FILE [SYSTEM:EVENT [FIELD]]\n");
		return 2;
	}
	h = tracecmd_open_head(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	f = fopen(argv[1], "rb");
	if (!h || tracecmd_init_data(h) < 0 || !f) {
		fprintf(stderr, "trace-records: cannot open %s\n", argv[1]);
		return 1;
	}
	tep = tracecmd_get_tep(h);
	for (int cpu = 0; cpu < tracecmd_cpus(h); cpu++) {
		struct tep_record *r;

		while ((r = tracecmd_read_data(h, cpu))) {
			struct tep_event *ev = tep_find_event_by_record(tep, r);
			unsigned char hdr[4], *buf = malloc(r->size ? r->size : 1);
			char name[128];
			long off;

			snprintf(name, sizeof(name), "%s:%s", ev ? ev->system : "?",
				 ev ? ev->name : "?");
			/* ring buffer event header: type_len in the low 5 bits */
			fseek(f, (long)r->offset, SEEK_SET);
			if (fread(hdr, 1, 4, f) != 4)
				bad++;
			off = (long)r->offset + ((hdr[0] & 0x1f) == 0 ? 8 : 4);
			fseek(f, off, SEEK_SET);
			if (buf && fread(buf, 1, r->size, f) == (size_t)r->size &&
			    !memcmp(buf, r->data, r->size)) {
				bool want = argc < 3 || !strcmp(argv[2], name);
				struct tep_format_field *fld = want && argc > 3 && ev ?
					tep_find_field(ev, argv[3]) : NULL;

				if (want && argc > 3 && !fld)
					bad++;
				else if (want)
					printf("%d %ld %d %s\n", cpu, fld ? off + fld->offset : off,
					       fld ? fld->size : r->size, name);
			} else {
				bad++;
			}
			free(buf);
			tracecmd_free_record(r);
		}
	}
	fclose(f);
	tracecmd_close(h);
	if (bad)
		fprintf(stderr, "trace-records: %d records not where libtracecmd says (compressed file?)\n", bad);
	return bad ? 1 : 0;
}

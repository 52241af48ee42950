// SPDX-License-Identifier: LGPL-2.1
/*
 * Source lines: a kernel address resolved, through the vmlinux's DWARF
 * (elfutils libdw), to its function and the chain of functions inlined at
 * it, each with the file and line where its code is: the line table's line
 * for the innermost one, the call site for every one around it.  This is
 * what `entrytrace annotate` writes into plugin output as "src" lines, and
 * what the code-place table (codeplace.def) classes.
 *
 * libdw is opened here, on the first vmlinux read, not linked: linked, it
 * and what it pulls in (libelf, liblzma, libbz2) were loaded at the start
 * of every command, 0.6 MB of resident pages for a report that never reads
 * DWARF.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdwfl.h>

#include "entrytrace-local.h"

/* The libdw functions used here, called as dw.NAME once dw_open() said yes. */
#define DW_FUNCS(X)							\
	X(dwfl_begin) X(dwfl_end) X(dwfl_errmsg)			\
	X(dwfl_build_id_find_elf) X(dwfl_standard_find_debuginfo)	\
	X(dwfl_offline_section_address)					\
	X(dwfl_report_begin) X(dwfl_report_offline) X(dwfl_report_end)	\
	X(dwfl_module_build_id) X(dwfl_module_getdwarf)			\
	X(dwfl_module_getsrc) X(dwfl_module_addrdie)			\
	X(dwfl_module_addrinfo) X(dwfl_lineinfo)			\
	X(dwarf_attr) X(dwarf_attr_integrate) X(dwarf_formstring)	\
	X(dwarf_formudata) X(dwarf_tag) X(dwarf_getscopes)		\
	X(dwarf_getscopes_die) X(dwarf_getsrcfiles) X(dwarf_filesrc)

static struct {
#define X(f) __typeof__(f) *f;
	DW_FUNCS(X)
#undef X
} dw;

static bool dw_open(char *err, size_t errlen)
{
	static bool done;
	static const char *failed;
	void *lib;

	if (done)
		goto out;
	done = true;
	lib = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		failed = "libdw.so.1 (elfutils) cannot be loaded";
		goto out;
	}
#define X(f)								\
	if (!failed && !(dw.f = (__typeof__(f) *)dlsym(lib, #f)))	\
		failed = "libdw.so.1 lacks " #f;
	DW_FUNCS(X)
#undef X
out:
	if (failed)
		snprintf(err, errlen, "%s: a vmlinux cannot be read", failed);
	return !failed;
}

struct et_srcmap {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	char build_id[2 * 64 + 1];
	char release[128];
	char root[PATH_MAX];	/* the source tree, once a path showed it */
	bool has_dwarf;
};

/* The release of the kernel's "Linux version RELEASE (" banner, or "". */
static void read_release(const char *path, char *buf, size_t len)
{
	static const char banner[] = "Linux version ";
	int fd = open(path, O_RDONLY);
	struct stat st;
	const char *p, *end;
	void *map;

	buf[0] = '\0';
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !st.st_size) {
		close(fd);
		return;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	end = (const char *)map + st.st_size;
	for (p = map; (p = memmem(p, end - p, banner, sizeof(banner) - 1)); p++) {
		const char *r = p + sizeof(banner) - 1, *sp = r;

		while (sp < end && sp - r < (long)len - 1 && *sp > ' ' && *sp < 0x7f)
			sp++;
		if (sp + 1 < end && sp > r && sp[0] == ' ' && sp[1] == '(') {
			snprintf(buf, len, "%.*s", (int)(sp - r), r);
			break;
		}
	}
	munmap(map, st.st_size);
}

struct et_srcmap *et_srcmap_open(const char *vmlinux, char *err, size_t errlen)
{
	static Dwfl_Callbacks offline_callbacks;
	struct et_srcmap *sm;
	const unsigned char *bits;
	GElf_Addr vaddr;
	Dwarf_Addr bias;
	int n;

	if (!dw_open(err, errlen))
		return NULL;
	offline_callbacks = (Dwfl_Callbacks){
		.find_elf = dw.dwfl_build_id_find_elf,
		.find_debuginfo = dw.dwfl_standard_find_debuginfo,
		.section_address = dw.dwfl_offline_section_address,
	};
	sm = calloc(1, sizeof(*sm));
	if (!sm) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (access(vmlinux, R_OK) < 0) {
		snprintf(err, errlen, "%s: %s", vmlinux, strerror(errno));
		free(sm);
		return NULL;
	}
	sm->dwfl = dw.dwfl_begin(&offline_callbacks);
	if (!sm->dwfl)
		goto dwfl_fail;
	dw.dwfl_report_begin(sm->dwfl);
	sm->mod = dw.dwfl_report_offline(sm->dwfl, "vmlinux", vmlinux, -1);
	if (!sm->mod || dw.dwfl_report_end(sm->dwfl, NULL, NULL))
		goto dwfl_fail;
	n = dw.dwfl_module_build_id(sm->mod, &bits, &vaddr);
	for (int i = 0; i < n && i < 64; i++)
		sprintf(sm->build_id + 2 * i, "%02x", bits[i]);
	sm->has_dwarf = dw.dwfl_module_getdwarf(sm->mod, &bias) != NULL;
	read_release(vmlinux, sm->release, sizeof(sm->release));
	return sm;
dwfl_fail:
	snprintf(err, errlen, "%s: %s", vmlinux, dw.dwfl_errmsg(-1));
	et_srcmap_close(sm);
	return NULL;
}

void et_srcmap_close(struct et_srcmap *sm)
{
	if (!sm)
		return;
	if (sm->dwfl)
		dw.dwfl_end(sm->dwfl);
	free(sm);
}

const char *et_srcmap_build_id(const struct et_srcmap *sm) { return sm->build_id; }
const char *et_srcmap_release(const struct et_srcmap *sm) { return sm->release; }
bool et_srcmap_has_dwarf(const struct et_srcmap *sm) { return sm->has_dwarf; }

/*
 * A path in the build as a path in the kernel tree.  DWARF has absolute
 * paths into the source tree (/var/cache/.../trees/ppc64le-7.2-patched/
 * arch/powerpc/kernel/syscall.c) and paths relative to the build directory
 * for generated files (include/generated/...).  The tree's root is the
 * first directory on the way down that holds Kconfig and MAINTAINERS;
 * without the tree at hand, the path from its leftmost top-level directory.
 */
static const char *tree_path(struct et_srcmap *sm, const char *p)
{
	static const char *const top[] = {
		"arch/", "block/", "certs/", "crypto/", "drivers/", "fs/", "include/",
		"init/", "io_uring/", "ipc/", "kernel/", "lib/", "mm/", "net/", "rust/",
		"security/", "sound/", "usr/", "virt/",
	};
	size_t rl = strlen(sm->root);
	char dir[PATH_MAX];

	if (p[0] != '/')
		return p;
	if (rl && !strncmp(p, sm->root, rl) && p[rl] == '/')
		return p + rl + 1;
	for (const char *s = p + 1; *s; s++) {
		if (*s != '/' || (size_t)(s - p) + sizeof("/MAINTAINERS") > sizeof(dir))
			continue;
		snprintf(dir, sizeof(dir), "%.*s/Kconfig", (int)(s - p), p);
		if (access(dir, R_OK))
			continue;
		snprintf(dir, sizeof(dir), "%.*s/MAINTAINERS", (int)(s - p), p);
		if (access(dir, R_OK))
			continue;
		snprintf(sm->root, sizeof(sm->root), "%.*s", (int)(s - p), p);
		return s + 1;
	}
	for (const char *s = p + 1; *s; s++)
		if (s[-1] == '/')
			for (size_t i = 0; i < ET_ARRAY_SIZE(top); i++)
				if (!strncmp(s, top[i], strlen(top[i])))
					return s;
	return p;
}

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dw.dwarf_attr_integrate(die, DW_AT_name, &attr))
		name = dw.dwarf_formstring(&attr);
	return name ? name : "?";
}

/* Append "NAME@FILE:LINE" to buf; returns the new length. */
/* "a/b/../c/./d" as "a/c/d", in place */
static char *normalize(char *p)
{
	char *out = p, *s = p;

	while (*s) {
		if (!strncmp(s, "./", 2)) {
			s += 2;
		} else if (!strncmp(s, "../", 3) && out > p) {
			/* drop the last component written */
			char *q = out - 1;

			while (q > p && q[-1] != '/')
				q--;
			if (!strncmp(q, "../", 3)) {
				memmove(out, s, 3);
				out += 3;
			} else {
				out = q;
			}
			s += 3;
		} else {
			while (*s && *s != '/')
				*out++ = *s++;
			if (*s)
				*out++ = *s++;
		}
	}
	*out = '\0';
	return p;
}

static size_t frame_str(struct et_srcmap *sm, char *buf, size_t len, size_t size,
			const char *name, const char *file, int line)
{
	char path[PATH_MAX];
	int n;

	snprintf(path, sizeof(path), "%s", file ? file : "?");
	normalize(path);
	n = snprintf(buf + len, len < size ? size - len : 0, "%s%s@%s:%d", len ? " " : "",
		     name, file ? tree_path(sm, path) : "?", line);

	return n > 0 ? len + n : len;
}

/*
 * "FUNC@FILE:LINE ..." for the code at addr, innermost first, the last one
 * the function the code is in (its DWARF subprogram, or the ELF symbol if
 * the code has no DWARF: assembly).  Returns 0, or -1 if the address is in
 * no function and on no line.
 */
int et_srcmap_lookup(struct et_srcmap *sm, uint64_t addr, char *buf, size_t size)
{
	Dwfl_Line *l = dw.dwfl_module_getsrc(sm->mod, addr);
	const char *file = NULL, *sym;
	int line = 0, nscopes = 0;
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dw.dwfl_module_addrdie(sm->mod, addr, &bias), *scopes = NULL;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0, len = 0;
	GElf_Off off;
	GElf_Sym esym;
	bool any = false;

	buf[0] = '\0';
	if (l)
		file = dw.dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	if (cu) {
		/*
		 * The innermost scope at the address, then the scopes that
		 * physically contain it: an inlined instance's parent is where
		 * it was inlined (dwarf_getscopes() would continue with the
		 * abstract definition's scopes instead).
		 */
		nscopes = dw.dwarf_getscopes(cu, addr - bias, &scopes);
		if (nscopes > 0) {
			Dwarf_Die inner = scopes[0];

			free(scopes);
			scopes = NULL;
			nscopes = dw.dwarf_getscopes_die(&inner, &scopes);
		}
		dw.dwarf_getsrcfiles(cu, &files, &nfiles);
	}
	for (int i = 0; i < nscopes; i++) {
		int tag = dw.dwarf_tag(&scopes[i]);
		Dwarf_Attribute attr;
		Dwarf_Word cf = 0, cl = 0;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		len = frame_str(sm, buf, len, size, die_name(&scopes[i]), file, line);
		any = true;
		if (tag == DW_TAG_subprogram)
			break;
		/* the next frame's line: where this one was inlined */
		file = NULL;
		line = 0;
		if (dw.dwarf_formudata(dw.dwarf_attr(&scopes[i], DW_AT_call_file, &attr), &cf) == 0 &&
		    files && cf < nfiles)
			file = dw.dwarf_filesrc(files, cf, NULL, NULL);
		if (dw.dwarf_formudata(dw.dwarf_attr(&scopes[i], DW_AT_call_line, &attr), &cl) == 0)
			line = (int)cl;
	}
	free(scopes);
	if (!any) {
		sym = dw.dwfl_module_addrinfo(sm->mod, addr, &off, &esym, NULL, NULL, NULL);
		if (!sym && !file)
			return -1;
		len = frame_str(sm, buf, len, size, sym ? sym : "?", file, line);
	}
	return len < size ? 0 : -1;
}

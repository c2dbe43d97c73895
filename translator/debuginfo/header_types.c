/*
 * header_types.c -- C header files compiled into objects with DWARF for
 * @cast's "<header>" module strings (header_types.h).
 *
 * The C file is only `#include <h>` lines; gcc keeps every type it saw
 * with -fno-eliminate-unused-debug-types (by default it drops the ones
 * nothing uses, which is all of them here).  -MD writes the files the
 * compiler read, so a cached object is rebuilt when a header changes
 * (a library upgrade).  Must not: read DWARF (dwarf.h does), or print:
 * errors go back to the caller, which knows the script location.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "translator/debuginfo/cache_dir.h"
#include "translator/debuginfo/errbuf.h"
#include "translator/debuginfo/header_types.h"

extern char **environ;

/* Characters a header name may hold: what include paths are made of. */
static bool
header_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_./-+", c);
}

/* The length of "<name>" at p, 0 if it is not one. */
static size_t
header_at(const char *p)
{
	size_t n = 1;

	if (*p != '<')
		return 0;
	while (p[n] && header_char(p[n]))
		n++;
	return p[n] == '>' && n > 1 ? n + 1 : 0;
}

bool
hdr_is_header_list(const char *module)
{
	return module && module[0] == '<';
}

/* The C file including each header of the list; false for a list that
 * is not "<a.h><b.h>...". */
static bool
write_source(const char *path, const char *module, char *err, size_t len)
{
	FILE *f;
	size_t n;

	for (const char *p = module; *p; p += n)
		if (!(n = header_at(p))) {
			errbuf_printf(err, len, "'%s' is not a list of headers such as \"<sys/un.h>\" or \"<sys/socket.h><netinet/in.h>\"",
				module);
			return false;
		}
	if (!(f = fopen(path, "w"))) {
		errbuf_printf(err, len, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	for (const char *p = module; *p; p += n) {
		n = header_at(p);
		fprintf(f, "#include %.*s\n", (int)n, p);
	}
	return fclose(f) == 0;
}

/* Whether `obj` is newer than every file its dependency list `dep`
 * (make syntax, as gcc -MD writes it) names, but our own C file (its
 * name starts with `base`; it is gone). */
static bool
up_to_date(const char *obj, const char *dep, const char *base)
{
	struct stat so, sd;
	char word[4096];
	FILE *f;
	bool ok = true, target = true;

	if (stat(obj, &so) != 0 || !(f = fopen(dep, "r")))
		return false;
	while (ok && fscanf(f, "%4095s", word) == 1) {
		size_t n = strlen(word);
		if (target) {		/* "obj.o:" comes first */
			target = word[n - 1] != ':';
			continue;
		}
		if (strcmp(word, "\\") == 0 ||
		    strncmp(word, base, strlen(base)) == 0)
			continue;
		ok = stat(word, &sd) == 0 && sd.st_mtime <= so.st_mtime;
	}
	fclose(f);
	return ok;
}

/* The compiler's first error, without the temporary file's name. */
static void
first_error(const char *log, char *err, size_t len)
{
	char line[1024];
	FILE *f = fopen(log, "r");

	errbuf_printf(err, len, "the compiler failed (see %s)", log);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *e = strstr(line, "error: ");
		if (!e)
			continue;
		line[strcspn(line, "\n")] = '\0';
		errbuf_printf(err, len, "%s", e + 7);
		break;
	}
	fclose(f);
}

static const char *
compiler(void)
{
	const char *cc = getenv("CC");

	return cc && *cc && !strchr(cc, ' ') ? cc : "gcc";
}

/* cc -g ... -c SRC -o OBJ -MD -MF DEP, output to LOG; exit status. */
static int
run_compiler(const char *src, const char *obj, const char *dep,
	     const char *log)
{
	char *argv[] = { (char *)compiler(), "-g", "-O0",
			 "-fno-eliminate-unused-debug-types", "-w", "-c",
			 "-x", "c", (char *)src, "-o", (char *)obj, "-MD",
			 "-MF", (char *)dep, NULL };
	posix_spawn_file_actions_t fa;
	int status = -1;
	pid_t pid;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, log,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	if (rc != 0)
		errno = rc;
	else if (waitpid(pid, &status, 0) == pid)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	posix_spawn_file_actions_destroy(&fa);
	return status;
}

/* The directory objects go to: the cache's, else a temporary one that
 * is removed at exit. */
static char tmp_dir[64];

static void
remove_tmp_dir(void)
{
	char path[sizeof(tmp_dir) + 260];
	struct dirent *de;
	DIR *d = opendir(tmp_dir);

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", tmp_dir,
				 de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(tmp_dir);
}

static bool
object_dir(char *out, size_t len)
{
	if (cache_subdir("headers", true, out, len))
		return true;
	if (!*tmp_dir) {
		snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/tapc-headers-XXXXXX");
		if (!mkdtemp(tmp_dir)) {
			*tmp_dir = '\0';
			return false;
		}
		atexit(remove_tmp_dir);
	}
	snprintf(out, len, "%s", tmp_dir);
	return true;
}

char *
hdr_types_object(const char *module, char *err, size_t errlen)
{
	char dir[4096], key[4352], base[4200], src[4300], obj[4300],
	     dep[4300], log[4300], tobj[4300], tdep[4300];

	if (!object_dir(dir, sizeof(dir))) {
		errbuf_printf(err, errlen, "no directory to compile headers in");
		return NULL;
	}
	snprintf(key, sizeof(key), "%s\n%s", module, compiler());
	snprintf(base, sizeof(base), "%s/h-%016llx", dir,
		 (unsigned long long)cache_name_hash(key));
	snprintf(obj, sizeof(obj), "%s.o", base);
	snprintf(dep, sizeof(dep), "%s.d", base);
	if (up_to_date(obj, dep, base))
		return strdup(obj);
	/* compiled under this process's names, renamed when complete, so
	 * that concurrent runs never see half an object */
	snprintf(src, sizeof(src), "%s.%d.c", base, (int)getpid());
	snprintf(tobj, sizeof(tobj), "%s.%d.o", base, (int)getpid());
	snprintf(tdep, sizeof(tdep), "%s.%d.d", base, (int)getpid());
	snprintf(log, sizeof(log), "%s.log", base);
	if (!write_source(src, module, err, errlen))
		return NULL;
	int rc = run_compiler(src, tobj, tdep, log);
	unlink(src);
	if (rc != 0) {
		if (rc < 0)
			errbuf_printf(err, errlen, "cannot run %s: %s", compiler(),
				strerror(errno));
		else
			first_error(log, err, errlen);
		unlink(tobj);
		unlink(tdep);
		return NULL;
	}
	if (rename(tdep, dep) != 0 || rename(tobj, obj) != 0) {
		errbuf_printf(err, errlen, "cannot keep %s: %s", obj, strerror(errno));
		return NULL;
	}
	unlink(log);
	return strdup(obj);
}

/*-------------------------------------------------------------------------
 *
 * safe_read.c
 *		Reading the files of a results directory, which may come from
 *		anyone (report, compare, import, --resume, calibrate --reanalyse):
 *		regular files only, each bounded by a size for its kind.
 *
 * A FIFO would hang the reader and a device never end, so a file is opened
 * with O_NONBLOCK (a FIFO opens at once) and O_NOFOLLOW, then fstat() on
 * that descriptor decides: anything but a regular file is refused by name,
 * and so is one larger than its kind allows.  Writing is safe_file.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "safe_file.h"
#include "safe_read.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Open a file of a results directory for reading: a regular file (not a
 * link, FIFO, device or socket) of at most max_bytes.  NULL with error.
 */
FILE *
safe_fopen_read(const char *path, off_t max_bytes, char **error)
{
	int			fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	FILE	   *f;

	if (fd < 0)
	{
		int			save_errno = errno;

		if (errno == ELOOP)
			*error = psprintf("\"%s\" is a symbolic link: refusing to read through it\n"
							  "hint: A results directory holds its files themselves.", path);
		else
			*error = psprintf("could not read \"%s\": %m", path);
		errno = save_errno;
		return NULL;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > max_bytes)
	{
		if (!S_ISREG(st.st_mode))
			*error = psprintf("\"%s\" is not a regular file (%s): refusing to read it\n"
							  "hint: A results directory holds regular files only; remove it.",
							  path, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
							  S_ISSOCK(st.st_mode) ? "a socket" : "a device");
		else
			*error = psprintf("\"%s\" is larger than %lld bytes: refusing to read it\n"
							  "hint: No file of a results directory is that large; it is damaged or not one of %s's.",
							  path, (long long) max_bytes, progname);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	if (fcntl(fd, F_SETFL, 0) != 0 || (f = fdopen(fd, "r")) == NULL)
	{
		*error = psprintf("could not read \"%s\": %m", path);
		close(fd);
		return NULL;
	}
	return f;
}

/*
 * A file of a results directory that may be missing (a run's .err): NULL
 * then, and NULL with a warning naming it when it is no file to read.
 */
FILE *
safe_fopen_read_optional(const char *path, off_t max_bytes)
{
	char	   *error;
	FILE	   *f = safe_fopen_read(path, max_bytes, &error);

	if (f == NULL && errno != ENOENT)
		log_warning_text(error);
	return f;
}

/* A JSON file of a results directory, read as safe_fopen_read() opens it. */
json_t *
safe_read_json(const char *path, off_t max_bytes, char **error)
{
	FILE	   *f = safe_fopen_read(path, max_bytes, error);
	json_error_t jerr;
	json_t	   *obj;

	if (f == NULL)
		return NULL;
	obj = json_loadf(f, 0, &jerr);
	fclose(f);
	if (obj == NULL)
		*error = psprintf("could not read \"%s\": %s (line %d)", path, jerr.text, jerr.line);
	return obj;
}

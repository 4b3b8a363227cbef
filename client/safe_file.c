/*-------------------------------------------------------------------------
 *
 * safe_file.c
 *		Opening files for writing where someone else may have planted a
 *		link: in the data directory of a managed cluster (owned by the
 *		server account, and by whatever code that server runs), or in a
 *		results directory that came from another machine.
 *
 * Run as root, a write that follows a planted symbolic link clobbers any
 * file of the system.  So a file is opened with O_NOFOLLOW (a link as the
 * last component is refused), without O_TRUNC (the checks come first),
 * and with O_NONBLOCK (a planted FIFO cannot hang us); then it must be a
 * regular file with a single link, else it is refused by name.  Ownership
 * is given on the open descriptor, never by path.  The directories above
 * the file are ours (the results directory, clusters/NAME), which
 * safe_check_private_dir() verifies where a directory is reused.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "safe_file.h"
#include "subprocess.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Open path for writing, creating it (0644) if absent; append, or else
 * truncate once the checks pass.  Returns the descriptor, or -1 with error
 * (a message and a "\nhint: " line).
 */
int
safe_open_write(const char *path, bool append, char **error)
{
	int			fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
						  (append ? O_APPEND : 0), 0644);
	struct stat st;
	const char *problem = NULL;

	if (fd < 0)
	{
		if (errno == ELOOP)
			*error = psprintf("\"%s\" is a symbolic link: refusing to write through it\n"
							  "hint: Remove the link; %s writes only regular files there.",
							  path, progname);
		else if (errno == ENXIO)
			*error = psprintf("\"%s\" is a FIFO or socket: refusing to write to it\n"
							  "hint: Remove it; %s writes only regular files there.",
							  path, progname);
		else
			*error = psprintf("could not open \"%s\" for writing: %m", path);
		return -1;
	}
	if (fstat(fd, &st) != 0)
		problem = "could not be examined";
	else if (!S_ISREG(st.st_mode))
		problem = "is not a regular file";
	else if (st.st_nlink != 1)
		problem = "has another hard link";
	if (problem != NULL)
	{
		*error = psprintf("\"%s\" %s: refusing to write to it\n"
						  "hint: Remove it; %s writes only regular files of a single link there.",
						  path, problem, progname);
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETFL, append ? O_APPEND : 0) != 0 ||
		(!append && ftruncate(fd, 0) != 0))
	{
		*error = psprintf("could not write \"%s\": %m", path);
		close(fd);
		return -1;
	}
	return fd;
}

/* safe_open_write() as a stdio stream. */
FILE *
safe_fopen_write(const char *path, bool append, char **error)
{
	int			fd = safe_open_write(path, append, error);
	FILE	   *f;

	if (fd < 0)
		return NULL;
	if ((f = fdopen(fd, append ? "a" : "w")) == NULL)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		close(fd);
	}
	return f;
}

/* Write (or append) text to path, synced to disk. */
bool
safe_write_file(const char *path, const char *text, bool append, char **error)
{
	int			fd = safe_open_write(path, append, error);
	size_t		len = strlen(text);

	if (fd < 0)
		return false;
	if (write(fd, text, len) != (ssize_t) len || fsync(fd) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		close(fd);
		return false;
	}
	if (close(fd) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		return false;
	}
	return true;
}

/*
 * When we are root: give a file or directory we made to the server
 * account, on a descriptor opened without following a link.
 */
bool
safe_give_to_server_account(const char *path, char **error)
{
	const struct passwd *pw;
	int			fd;
	bool		ok;

	if (!need_server_account())
		return true;
	if ((pw = server_account(error)) == NULL)
		return false;
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
	{
		*error = psprintf("could not open \"%s\": %m", path);
		return false;
	}
	ok = fchown(fd, pw->pw_uid, pw->pw_gid) == 0;
	if (!ok)
		*error = psprintf("could not give \"%s\" to user \"%s\": %m", path, pw->pw_name);
	close(fd);
	return ok;
}

/*
 * A directory we write into again (a cluster's, on --resume): a real
 * directory, not a link, owned by us and writable by nobody else, so that
 * nobody else can put a link into it.
 */
bool
safe_check_private_dir(const char *path, char **error)
{
	struct stat st;

	if (lstat(path, &st) != 0)
	{
		*error = psprintf("could not examine \"%s\": %m", path);
		return false;
	}
	if (!S_ISDIR(st.st_mode))
	{
		*error = psprintf("\"%s\" is not a directory (a symbolic link?): refusing to write into it\n"
						  "hint: A results directory holds its clusters' directories themselves.",
						  path);
		return false;
	}
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
	{
		*error = psprintf("\"%s\" is %s: refusing to write into it\n"
						  "hint: Only the user running %s may write into a cluster's directory (it was made by an older version, or changed); start a new experiment.",
						  path, st.st_uid != geteuid() ? "owned by another user" : "writable by group or others",
						  progname);
		return false;
	}
	return true;
}

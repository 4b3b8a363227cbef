/*-------------------------------------------------------------------------
 *
 * procfs.c
 *		The one reader of /proc/PID/stat: whether a server is still alive
 *		(cluster.c), which processes a postmaster started, to pin them
 *		(quiet.c) or to wait for them to settle under valgrind
 *		(profile_counted.c); and of the "key: value" lines of /proc files
 *		(a process's status, meminfo, cpuinfo); and the CPUs this process
 *		may use.
 *
 * The line is "PID (COMM) STATE PPID ...", and COMM may hold anything,
 * spaces and ')' included, so the fields are read after the last ')'.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "procfs.h"

#include <dirent.h>
#include <sched.h>

/* The fields of /proc/PID/stat after COMM, into buf; false if gone. */
static bool
stat_fields(pid_t pid, char *buf, size_t size)
{
	char		path[64];
	char		line[1024];
	char	   *close_paren;
	bool		found = false;
	FILE	   *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long) pid);
	if ((f = fopen(path, "re")) == NULL)
		return false;
	if (fgets(line, sizeof(line), f) && (close_paren = strrchr(line, ')')) != NULL)
	{
		strlcpy(buf, close_paren + 1, size);
		found = true;
	}
	fclose(f);
	return found;
}

bool
procfs_stat(pid_t pid, char *state, pid_t *parent)
{
	char		fields[1024];
	char		letter;
	long		ppid;

	if (!stat_fields(pid, fields, sizeof(fields)) ||
		sscanf(fields, " %c %ld", &letter, &ppid) != 2)
		return false;
	*state = letter;
	*parent = (pid_t) ppid;
	return true;
}

unsigned long long
procfs_start_time(pid_t pid)
{
	char		fields[1024];
	unsigned long long start;

	/* starttime is the 22nd field, the 20th after COMM */
	if (!stat_fields(pid, fields, sizeof(fields)) ||
		sscanf(fields, " %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
			   &start) != 1)
		return 0;
	return start;
}

/*
 * The threads of pid (its task directory), at most max of them into out;
 * -1 when it cannot be read (the process is gone).
 */
int
procfs_threads(pid_t pid, pid_t *out, int max)
{
	char		path[64];
	DIR		   *task;
	struct dirent *de;
	int			n = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long) pid);
	if ((task = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(task)) != NULL && n < max)
		if (atol(de->d_name) > 0)
			out[n++] = (pid_t) atol(de->d_name);
	closedir(task);
	return n;
}

/*
 * The kernel's own list of a thread's children (CONFIG_PROC_CHILDREN),
 * appended to out: false when the kernel keeps none.  It reads one small
 * file per thread, where the walk of /proc below reads one per process of
 * the machine: what lets a duet move its servers many times a second.
 */
static bool
children_from_task_lists(pid_t pid, pid_t *out, int max, int *n)
{
	pid_t		tasks[64];
	int			ntasks = procfs_threads(pid, tasks, lengthof(tasks));

	if (ntasks <= 0)
		return false;
	for (int t = 0; t < ntasks; t++)
	{
		char		path[96];
		FILE	   *f;
		long		child;

		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", (long) pid, (long) tasks[t]);
		if ((f = fopen(path, "re")) == NULL)
			return t > 0;
		while (*n < max && fscanf(f, "%ld", &child) == 1)
			out[(*n)++] = (pid_t) child;
		fclose(f);
	}
	return true;
}

int
procfs_children(pid_t pid, pid_t *out, int max)
{
	DIR		   *proc;
	struct dirent *de;
	int			n = 0;

	if (children_from_task_lists(pid, out, max, &n))
		return n;
	if ((proc = opendir("/proc")) == NULL)
		return -1;
	n = 0;
	while ((de = readdir(proc)) != NULL && n < max)
	{
		pid_t		child = (pid_t) atol(de->d_name);
		pid_t		parent;
		char		state;

		if (child > 0 && procfs_stat(child, &state, &parent) && parent == pid)
			out[n++] = child;
	}
	closedir(proc);
	return n;
}

/*
 * The value of the first line of a /proc file of the form "key<blanks>:
 * value" whose key is the one given, or NULL.
 */
char *
procfs_value(const char *path, const char *key)
{
	FILE	   *f = fopen(path, "re");
	char	   *line = NULL;
	size_t		cap = 0;
	char	   *found = NULL;
	size_t		klen = strlen(key);

	if (f == NULL)
		return NULL;
	while (found == NULL && getline(&line, &cap, f) > 0)
	{
		char	   *colon = strchr(line, ':');
		char	   *end = colon;

		if (colon == NULL || strncmp(line, key, klen) != 0)
			continue;
		while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end - line != (ptrdiff_t) klen)
			continue;
		for (colon++; *colon == ' ' || *colon == '\t'; colon++)
			;
		colon[strcspn(colon, "\n")] = '\0';
		found = pg_strdup(colon);
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * The CPUs this process may use, in order, into cpus (CPU_SETSIZE of them)
 * unless NULL; how many, or -1 when they cannot be read.
 */
int
usable_cpus(int *cpus)
{
	cpu_set_t	mine;
	int			n = 0;

	if (sched_getaffinity(0, sizeof(mine), &mine) != 0)
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mine))
		{
			if (cpus)
				cpus[n] = cpu;
			n++;
		}
	return n;
}

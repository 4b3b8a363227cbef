/*-------------------------------------------------------------------------
 *
 * hugepages.c
 *		Huge pages for the shared memory of managed servers: how many a
 *		server needs, whether the kernel's pool has them free, and, where
 *		the client runs as root, the pool raised for the experiment and put
 *		back when its servers have stopped.
 *
 * Every start of a server maps its shared memory onto pages the kernel
 * picks then, and with 4 kB pages their placement in the caches and the
 * TLB is drawn anew at each start (docs/calibration.md measures what that
 * does to an A/A).  In 2 MB pages the buffer pool takes a few hundred TLB
 * entries instead of tens of thousands, and each page's placement in the
 * caches follows its offset.
 *
 * PostgreSQL 15 and later say what their shared memory needs in huge pages
 * before they start ("postgres -C shared_memory_size_in_huge_pages" on the
 * stopped data directory, shared_preload_libraries counted).  Pages that a
 * running server mapped but has not touched yet are counted free and
 * reserved (HugePages_Rsvd), so what the next start can have is the free
 * less the reserved.  Only root may raise the pool (vm.nr_hugepages); the
 * client raises it by what is missing, says so, and takes off what it added
 * when its servers have stopped, so that a host's own reservation, or
 * another client's, is left as it is.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "hugepages.h"
#include "procfs.h"
#include "safe_file.h"
#include "subprocess.h"

#include <unistd.h>

#define NR_HUGEPAGES_PATH "/proc/sys/vm/nr_hugepages"

/* How much we have raised vm.nr_hugepages (what was there before: the rest) */
static long pool_added = 0;

/* The pool as /proc/meminfo says: its size, free, reserved and page size. */
typedef struct HugePagePool
{
	long		total;
	long		free;
	long		reserved;
	long		page_kb;
} HugePagePool;

static bool
read_pool(HugePagePool *pool)
{
	const char *keys[] = {"HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "Hugepagesize"};
	long	   *out[] = {&pool->total, &pool->free, &pool->reserved, &pool->page_kb};

	for (int i = 0; i < lengthof(keys); i++)
	{
		char	   *value = procfs_value("/proc/meminfo", keys[i]);

		if (value == NULL)
			return false;
		*out[i] = atol(value);
	}
	return pool->page_kb > 0;
}

long
hugepages_needed(const char *bindir, const char *datadir, const char *variant, char **error)
{
	char	   *argv[] = {psprintf("%s/postgres", bindir), "-D", (char *) datadir,
	"-C", "shared_memory_size_in_huge_pages", NULL};
	ChildSpec	spec = CHILD_SPEC_INIT;
	char	   *out;
	char	   *end;
	long		pages;
	int			status;

	spec.argv = argv;
	spec.unprivileged = true;
	out = child_output(&spec, true, &status);
	if (status != 0 && strstr(out, "shared_memory_size_in_huge_pages") != NULL)
		return 0;				/* before PostgreSQL 15: an unknown parameter */
	pages = strtol(out, &end, 10);
	if (status != 0 || end == out || (*end != '\0' && *end != '\n'))
	{
		*error = psprintf("huge_pages = on: could not ask the server of variant \"%s\" how many huge pages it needs (%s -C shared_memory_size_in_huge_pages): %s",
						  variant, argv[0], out[0] ? out : "no output");
		return -1;
	}
	if (pages <= 0)
	{
		*error = psprintf("huge_pages = on: the server of variant \"%s\" cannot use huge pages here (postgres -C shared_memory_size_in_huge_pages says %ld); set huge_pages = off",
						  variant, pages);
		return -1;
	}
	return pages;
}

bool
hugepages_provide(long need, const char *variant, char **error)
{
	HugePagePool pool;
	long		available;
	long		missing;
	long		before;

	if (!read_pool(&pool))
		return fail_with(error, "huge_pages = on: /proc/meminfo says nothing of huge pages: this kernel has none; set huge_pages = off");
	available = pool.free - pool.reserved;
	if (need == 0)
	{
		/* a PostgreSQL that cannot say its need: some pages must be there */
		if (available > 0)
			return true;
		*error = psprintf("huge_pages = on: no huge page is free, and the server of variant \"%s\" (before PostgreSQL 15) cannot say how many it needs before it starts; "
						  "reserve them (sysctl -w vm.nr_hugepages=N, N pages covering the shared memory of every server) or set huge_pages = off",
						  variant);
		return false;
	}
	if (available >= need)
		return true;
	missing = need - available;
	if (geteuid() != 0)
		return fail_with(error, "huge_pages = on: the server of variant \"%s\" needs %ld huge pages of %ld kB and %ld are free, and only root may reserve more; "
						 "run as root (the client then reserves them for the experiment and puts the pool back), reserve them (sysctl -w vm.nr_hugepages=%ld) or set huge_pages = off",
						 variant, need, pool.page_kb, available, pool.total + missing);
	if (!safe_write_sysctl(NR_HUGEPAGES_PATH, psprintf("%ld", pool.total + missing), error))
		return false;
	before = pool.total;
	if (!read_pool(&pool))
	{
		pool_added += missing;
		*error = pg_strdup("huge_pages = on: /proc/meminfo could not be read after vm.nr_hugepages was raised");
		return false;
	}
	/* the kernel may have found fewer: what it gave is what goes back */
	pool_added += pool.total - before;
	if (pool.free - pool.reserved < need)
		return fail_with(error, "huge_pages = on: the kernel gave %ld of the %ld huge pages of %ld kB the server of variant \"%s\" needs (memory too fragmented for more); "
						 "reserve them soon after a boot (vm.nr_hugepages) or set huge_pages = off",
						 pool.free - pool.reserved, need, pool.page_kb, variant);
	printf("huge_pages = on: reserved %ld huge pages of %ld kB for the server of variant %s (vm.nr_hugepages %ld, %ld before this experiment; put back when it ends)\n",
		   missing, pool.page_kb, variant, pool.total, pool.total - pool_added);
	fflush(stdout);
	return true;
}

bool
hugepages_taken(long need)
{
	HugePagePool pool;

	return read_pool(&pool) && pool.free - pool.reserved < need;
}

/*
 * What we added is taken off the pool as it is now, not the size we found
 * written back: another client that raised it meanwhile keeps its pages.
 */
void
hugepages_give_back(void)
{
	HugePagePool pool;
	char	   *ignored;

	if (pool_added == 0 || !read_pool(&pool))
		return;
	(void) safe_write_sysctl(NR_HUGEPAGES_PATH, psprintf("%ld", Max(pool.total - pool_added, 0)),
							 &ignored);
	pool_added = 0;
}

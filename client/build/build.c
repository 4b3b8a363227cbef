/*-------------------------------------------------------------------------
 *
 * build.c
 *		Build the variants that name a PostgreSQL source tree, before any
 *		cluster starts, into a cache that later experiments reuse.
 *
 * docs/building.md describes the build key, the cache entry (CACHE/KEY
 * with build.json written last: a finished build, reused once
 * build_cache.c has checked who could have written it), the equal prefix
 * and path length of every build, and the shared work: a patched or
 * seeded build starts from a copy of the finished tree it differs from.
 *
 * Every step is a child process given as an argv vector, run as the
 * build account (subprocess.c: the server account when we are root).
 * The invoking user only reads — the source tree and the patches, which
 * may be readable by it alone — and hands the bytes over a pipe;
 * configure's extra arguments are split by words.c's rule; nothing passes
 * through a shell.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "pgo.h"
#include "build_cache.h"
#include "digest.h"
#include "subprocess.h"
#include "words.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/logging.h"

/* Bump when the steps below change what a key produces. */
#define BUILD_RECIPE		4
#define BUILD_PREFIX		"/usr/local/pgsql"
#define BUILD_KEY_LEN		16
/* Added to the cflags of builds for experiments with profiles. */
#define BUILD_SYMBOLS_CFLAGS "-g -fno-omit-frame-pointer"


/* Options that keep the build small and fast; pgbench still works. */
static const char *const minimal_configure[] = {
	"--enable-depend", "--without-icu", "--without-readline", "--without-zlib",
	"--without-lz4", "--without-zstd", "--without-llvm", "--disable-nls", NULL
};

/* What of this client's tree makes the extension a build installs. */
static const char *const extension_files[] = {
	"Makefile", "pgbench_ext.control", "extension", "common", NULL
};


/* The first line of what a command prints on stdout, or "". */
static char *
first_output_line(char *const *argv, bool unprivileged)
{
	ChildSpec	spec = CHILD_SPEC_INIT;
	int			status;
	char	   *out;

	spec.argv = argv;
	spec.unprivileged = unprivileged;
	spec.interruptible = true;
	out = child_output(&spec, false, &status);
	out[strcspn(out, "\n")] = '\0';
	return status == 0 ? out : pg_strdup("");
}

/* PACKAGE_VERSION='15.8' of a configure script: "15.8", or "?". */
static char *
configure_version(const char *configure)
{
	int			fd = open_regular_file(configure, false);
	FILE	   *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char		line[1024];
	char	   *version = pg_strdup("?");

	if (f == NULL)
		return version;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "PACKAGE_VERSION='", 17) == 0)
		{
			line[strcspn(line + 17, "'") + 17] = '\0';
			version = pg_strdup(line + 17);
			break;
		}
	fclose(f);
	return version;
}

/*
 * What the tree is: "git describe" when it is a git checkout, and always a
 * checksum over every file's name, size and modification time (cheap, and
 * it notices local edits).  A tree unpacked by tools/pg-source also names
 * the tarball it came from and that tarball's checksum.  git runs as the
 * invoking user, whose checkout it is (git itself refuses a tree owned by
 * someone else).  Without --dirty, which would refresh the index and so
 * run the checkout's filters and fsmonitor: the checksum notices edits.
 */
static char *
source_identity(const char *dir)
{
	char	   *id = psprintf("PostgreSQL %s, files %s",
							  configure_version(psprintf("%s/configure", dir)),
							  sha256_of_tree(dir, NULL, NULL));
	char	   *origin = first_line_of_file(psprintf("%s/.pgbench_ext_origin", dir));

	if (access(psprintf("%s/.git", dir), F_OK) == 0)
	{
		char	   *git[] = {"git", "-C", (char *) dir, "-c", "core.fsmonitor=false", "describe", "--always", NULL};

		id = psprintf("%s, git %s", id, first_output_line(git, false));
	}
	if (*origin)
		id = psprintf("%s, %s", id, origin);
	return id;
}

/* The compiler the builds use: $CC (split into words), else gcc. */
static char **
compiler_words(char **error)
{
	const char *cc = getenv("CC");
	int			n;
	char	  **words = split_words(cc && *cc ? cc : "gcc", &n, error);

	if (words != NULL && n == 0)
	{
		*error = pg_strdup("CC is set but empty of words");
		return NULL;
	}
	if (words == NULL)
		*error = psprintf("CC: %s", *error);
	return words;
}

/*
 * Where the server module of a build is compiled from: the copy of its
 * sources installed with this client, so that the installed client works
 * wherever its checkout went; PGBENCH_EXT_TOP names a source tree instead
 * (the tests use the checkout under test).
 */
static const char *
extension_source_tree(void)
{
	const char *top = getenv("PGBENCH_EXT_TOP");

	return top != NULL && *top != '\0' ? top : PGBENCH_EXT_SOURCE_DIR;
}

/* Machine checks of the build keys, made with the other checks before anything runs. */
bool
build_check(const ExperimentSpec *spec, char **error)
{
	bool		any = false;

	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		int			nwords;

		if (v->source == NULL)
			continue;
		any = true;
		if (access(psprintf("%s/configure", v->source), X_OK) != 0)
			return fail_with(error, "variant \"%s\": source \"%s\" is not a PostgreSQL source tree (no executable configure)",
							 v->name, v->source);
		for (int p = 0; p < v->npatches; p++)
			if (access(v->patches[p], R_OK) != 0)
				return fail_with(error, "variant \"%s\": patch \"%s\" is not a readable file", v->name, v->patches[p]);
		if (split_words(v->configure, &nwords, error) == NULL)
			return fail_with(error, "variant \"%s\": configure: %s\nhint: Quote as a shell would: 'a b' or \"a b\" is one word, \\ escapes the next character; nothing is expanded.",
							 v->name, *error);
		if (v->build_seed > 0 && access("/usr/bin/ld.lld", X_OK) != 0)
			return fail_with(error, "variant \"%s\": build seeds need the lld linker (/usr/bin/ld.lld)", v->name);
	}
	if (any && access(psprintf("%s/pgbench_ext.control", extension_source_tree()), R_OK) != 0)
		return fail_with(error, "the extension's sources, which a build from source compiles, are not in \"%s\": %m\n"
						 "hint: Install pgbench_ext with \"make install\" (it installs them), or set PGBENCH_EXT_TOP to a pgbench_ext source tree.",
						 extension_source_tree());
	return !any || compiler_words(error) != NULL;
}

/*
 * The key text of v, optionally without its patches or its seed: hashed
 * into every cached build's key, so a change to it builds everything anew.
 */
char *
build_key_text(Build *b, bool with_patches, int seed)
{
	VariantSpec *v = b->v;
	char	   *text = psprintf("recipe %d\nsource %s\ncompiler %s\ncflags %s\nconfigure %s\nlto %d\nbuild_seed %d\n",
								BUILD_RECIPE, b->source_id, b->compiler, v->cflags ? v->cflags : "",
								v->configure ? v->configure : "", v->lto, seed);

	if (v->pgo)
		text = psprintf("%spgo seed %d seconds %d\n", text, PGO_TRAINING_SEED, PGO_TRAINING_SECONDS);
	if (v->symbols)
		text = psprintf("%ssymbols " BUILD_SYMBOLS_CFLAGS "\n", text);

	if (with_patches)
		for (size_t i = 0; i < json_array_size(b->patches); i++)
			text = psprintf("%spatch %s\n", text,
							json_string_value(json_object_get(json_array_get(b->patches, i), "sha256")));
	return text;
}

char *
build_key_dir(const char *text)
{
	return psprintf("%s/%.*s", build_cache_root(), BUILD_KEY_LEN, sha256_of_string(text));
}

/* Whether dir is a finished build to start from; -1 if it is refused. */
static int
usable_base(const char *dir, char **error)
{
	CacheEntry	state = build_cache_entry(dir, error);

	return state == ENTRY_REFUSED ? -1 : state == ENTRY_FINISHED;
}

bool
build_describe(Build *b, char **error)
{
	VariantSpec *v = b->v;
	Argv		cc = {0};
	int			found;

	b->source_id = source_identity(v->source);
	argv_add_words(&cc, compiler_words(error));
	argv_add(&cc, "--version");
	b->compiler = first_output_line(cc.args, true);
	b->cflags = pg_strdup(v->cflags ? v->cflags : "-O2");
	b->ldflags = pg_strdup("");
	if (v->lto)
	{
		b->cflags = psprintf("%s -flto", b->cflags);
		b->ldflags = psprintf("%s -flto", b->ldflags);
	}
	/* in every build, so that a build seed is only a relink of any of them */
	b->cflags = psprintf("%s -ffunction-sections", b->cflags);
	/* profiles: symbols and frame pointers, so that every frame is named */
	if (v->symbols)
		b->cflags = psprintf("%s " BUILD_SYMBOLS_CFLAGS, b->cflags);
	b->patches = json_array();
	for (int i = 0; i < v->npatches; i++)
	{
		char	   *sum = sha256_of_file(v->patches[i], error);

		if (sum == NULL)
			return false;
		json_array_append_new(b->patches,
							  json_pack("{s:s, s:s}", "file", make_absolute_path(v->patches[i]),
										"sha256", sum));
	}
	b->key_text = build_key_text(b, true, v->build_seed);
	b->dir = build_key_dir(b->key_text);
	b->key = pg_strdup(strrchr(b->dir, '/') + 1);

	/*
	 * The tree to start from, the cheapest first: for a build seed, the
	 * same build without a seed, else the first seed's (only a relink);
	 * for a patched build, the unpatched one (an incremental make).  A
	 * profile belongs to one tree's objects: PGO builds start afresh.
	 */
	b->base = NULL;
	b->base_patched = false;
	if (v->pgo)
		return true;
	if (v->build_seed > 0)
	{
		if ((found = usable_base(b->base = build_key_dir(build_key_text(b, true, 0)), error)) == 0 &&
			v->build_seed > 1)
			found = usable_base(b->base = build_key_dir(build_key_text(b, true, 1)), error);
		if (found < 0)
			return false;
		if (found)
		{
			b->base_patched = true;
			return true;
		}
	}
	if (v->npatches > 0)
	{
		if ((found = usable_base(b->base = build_key_dir(build_key_text(b, false, v->build_seed)), error)) < 0)
			return false;
		if (found)
			return true;
	}
	b->base = NULL;
	return true;
}

static char *
log_of(Build *b, const char *name)
{
	return psprintf("%s/logs/%s.log", b->dir, name);
}

static bool
failed(Build *b, const char *name)
{
	b->failed_step = pg_strdup(name);
	b->failed_log = log_of(b, name);
	return false;
}

/*
 * One build step: argv run as the build account in cwd, with its output
 * in logs/STEP.log (opened by that account).
 */
static bool
step(Build *b, const char *name, char *const *argv, const char *cwd)
{
	ChildSpec	spec = CHILD_SPEC_INIT;

	spec.argv = argv;
	spec.unprivileged = true;
	spec.interruptible = true;
	spec.cwd = cwd;
	spec.log_path = log_of(b, name);
	return child_run(&spec) == 0 || failed(b, name);
}

/* Copy files into the build account's directory to (copy_to_server_account()). */
static bool
copy_step(Build *b, const char *name, const char *from, char *const *files,
		  char *const *excludes, const char *to)
{
	return copy_to_server_account(from, excludes, files, to, log_of(b, name)) || failed(b, name);
}

/* File work inside the entry, as the build account; a failure fails step name. */
static bool
entry_work(Build *b, const char *name, bool ok, const char *error)
{
	if (ok)
		return true;
	b->failed_step = pg_strdup(name);
	b->failed_log = psprintf("(%s)", error);
	return false;
}

static char *
bindir_of(const char *dir)
{
	return psprintf("%s/dest" BUILD_PREFIX "/bin", dir);
}

static bool
is_extension_source(const char *name)
{
	size_t		len = strlen(name);

	return strcmp(name, "Makefile") == 0 ||
		(len > 2 && (strcmp(name + len - 2, ".c") == 0 || strcmp(name + len - 2, ".h") == 0)) ||
		(len > 4 && strcmp(name + len - 4, ".sql") == 0) ||
		(len > 8 && strcmp(name + len - 8, ".control") == 0);
}

/*
 * The extension, from its sources installed with this client (or the tree
 * PGBENCH_EXT_TOP names), into the build's
 * installation, compiled against that build's headers (a patched struct
 * is what struct_layout() must see).  Only the server module: the client
 * is this program.  Redone when the extension's sources change.
 */
static bool
install_extension(Build *b, bool *installed)
{
	const char *top = extension_source_tree();
	char	   *stamp = psprintf("%s/extension.stamp", b->dir);
	char	   *ext = psprintf("%s/ext", b->dir);
	char	   *want;
	char	   *error = NULL;
	char	   *excludes[] = {"--exclude=*.o", "--exclude=*.so", "--exclude=*.bc", NULL};
	/*
	 * No LLVM bitcode: JIT never inlines the module's functions into a
	 * benchmark's queries, and clang would double the compile's time.
	 */
	char	   *make[] = {"make", "-s", psprintf("PG_CONFIG=%s/pg_config", bindir_of(b->dir)),
	"CLIENT_MAKE=:", "with_llvm=no", "install", NULL};

	want = sha256_of_tree(top, extension_files, is_extension_source);
	*installed = false;
	if (strcmp(want, first_line_of_file(stamp)) == 0)
		return true;
	*installed = true;
	return entry_work(b, "extension", unprivileged_remove(ext, &error) &&
					  unprivileged_mkdir(ext, &error), error) &&
		copy_step(b, "extension", top, (char *const *) extension_files, excludes, ext) &&
		step(b, "extension", make, ext) &&
		entry_work(b, "extension", unprivileged_write(stamp, psprintf("%s\n", want), &error), error);
}

/* The arguments configure gets besides the prefix and the flags. */
static void
add_configure_words(Argv *a, const VariantSpec *v)
{
	int			nwords;
	char	   *ignored;

	argv_add_words(a, (char *const *) minimal_configure);
	/* build_check() made sure the words parse */
	argv_add_words(a, split_words(v->configure, &nwords, &ignored));
}

/*
 * Configure (unless the tree came configured from a base), make, install.
 * suffix tells apart the logs of PGO's first pass; make_args go to make.
 */
static bool
compile(Build *b, const char *suffix, const char *tree, char *const *make_args,
		const char *cflags, const char *ldflags)
{
	Argv		configure = {0};
	Argv		make = {0};
	char	   *error = NULL;
	char	   *dest = psprintf("%s/dest", b->dir);
	char	   *install[] = {"make", "-s", "install", psprintf("DESTDIR=%s", dest), NULL};
	/* prewarm = on, the default of counted profiles, needs it (a tree without it is told at set-up) */
	char	   *install_prewarm[] = {"make", "-s", "-C", "contrib/pg_prewarm", "install",
	psprintf("DESTDIR=%s", dest), NULL};
	bool		has_prewarm = access(psprintf("%s/contrib/pg_prewarm/Makefile", tree), F_OK) == 0;

	argv_add(&configure, "./configure");
	argv_add(&configure, "--prefix=" BUILD_PREFIX);
	add_configure_words(&configure, b->v);
	argv_add(&configure, psprintf("CFLAGS=%s", cflags));
	argv_add(&configure, psprintf("LDFLAGS=%s", ldflags));
	argv_add_words(&make, make_args);

	if (b->base == NULL &&
		!step(b, psprintf("configure%s", suffix), configure.args, tree))
		return false;
	/* a copied tree's postgres was linked with another seed or other objects */
	return entry_work(b, psprintf("make%s", suffix),
					  unprivileged_remove(psprintf("%s/src/backend/postgres", tree), &error), error) &&
		step(b, psprintf("make%s", suffix), make.args, tree) &&
		entry_work(b, psprintf("install%s", suffix), unprivileged_remove(dest, &error), error) &&
		step(b, psprintf("install%s", suffix), install, tree) &&
		(!has_prewarm || step(b, psprintf("install-prewarm%s", suffix), install_prewarm, tree));
}

static bool
do_build(Build *b)
{
	VariantSpec *v = b->v;
	char	   *tree = psprintf("%s/build", b->dir);
	const char *jobs = getenv("PGBENCH_EXT_BUILD_JOBS");
	Argv		make = {0};
	char	   *error = NULL;

	if (b->base)
	{
		char	   *cp[] = {"cp", "-a", psprintf("%s/build", b->base), tree, NULL};

		if (!step(b, "copy", cp, NULL))
			return false;
	}
	else
	{
		char	   *all[] = {".", NULL};
		char	   *excludes[] = {"--exclude=.git", NULL};

		if (!entry_work(b, "copy", unprivileged_mkdir(tree, &error), error) ||
			!copy_step(b, "copy", v->source, all, excludes, tree))
			return false;
	}
	if (!b->base_patched)
		for (int i = 0; i < v->npatches; i++)
		{
			const char *file = json_string_value(json_object_get(json_array_get(b->patches, i), "file"));
			char	   *name = psprintf("patch-%d", i + 1);
			char	   *patch[] = {"patch", "-p1", "--batch", "--forward", "-d", tree, NULL};
			ChildSpec	spec = CHILD_SPEC_INIT;
			int			rc;

			/* read as the invoking user, applied by the build account */
			if ((spec.in_fd = open_regular_file(file, true)) < 0)
				return entry_work(b, name, false, psprintf("could not open \"%s\": %m", file));
			spec.argv = patch;
			spec.unprivileged = true;
			spec.interruptible = true;
			spec.log_path = log_of(b, name);
			rc = child_run(&spec);
			close(spec.in_fd);
			if (rc != 0)
				return failed(b, name);
		}
	argv_add(&make, "make");
	argv_add(&make, "-s");
	argv_add(&make, psprintf("-j%s", jobs && *jobs ? jobs : "2"));
	if (v->build_seed > 0)
		argv_add(&make, psprintf("LDFLAGS_EX=-fuse-ld=lld -Wl,--shuffle-sections=*=%d", v->build_seed));
	if (v->pgo && b->base == NULL)
	{
		/* instrumented build, training load, then the build proper */
		char	   *profile = psprintf("%s/profile", b->dir);
		char	   *work = psprintf("%s/pgo", b->dir);
		char	   *clean[] = {"make", "-s", "clean", NULL};
		Argv		instrumented = make;

		/*
		 * enable_coverage=yes: instrumented code calls exit() from libgcov,
		 * which libpq's "no exit()" check otherwise refuses.
		 */
		instrumented.args = pg_malloc(sizeof(char *) * (make.n + 1));
		memcpy(instrumented.args, make.args, sizeof(char *) * (make.n + 1));
		instrumented.max = make.n + 1;
		argv_add(&instrumented, "enable_coverage=yes");
		if (!compile(b, "-pgo-generate", tree, instrumented.args,
					 psprintf("%s -fprofile-generate=%s", b->cflags, profile),
					 psprintf("%s -fprofile-generate=%s", b->ldflags, profile)))
			return false;
		/* only the training counts: drop what programs run by the build wrote */
		if (!entry_work(b, "pgo-training",
						unprivileged_remove(profile, &error) &&
						unprivileged_mkdir(profile, &error) &&
						unprivileged_remove(work, &error) &&
						unprivileged_mkdir(work, &error), error))
			return false;
		if (!pgo_train(bindir_of(b->dir), work, log_of(b, "pgo-training"), &error))
		{
			b->failed_step = pg_strdup("pgo-training");
			b->failed_log = psprintf("%s (%s)", log_of(b, "pgo-training"), error);
			return false;
		}
		if (!step(b, "pgo-clean", clean, tree))
			return false;
		b->cflags = psprintf("%s -fprofile-use=%s -fprofile-correction -Wno-missing-profile", b->cflags, profile);
	}
	return compile(b, "", tree, make.args, b->cflags, b->ldflags);
}

/* A fresh entry for b, as the build account: what an unfinished build left goes. */
static bool
make_entry(Build *b, char **error)
{
	return unprivileged_remove(b->dir, error) &&
		unprivileged_mkdir(b->dir, error) &&
		unprivileged_mkdir(psprintf("%s/logs", b->dir), error);
}

/*
 * Hold b's entry for ourselves while we build or reuse it (an flock on
 * KEY.lock beside it): two clients building one key at once would remove
 * each other's trees, and one installing the extension into a build that
 * another runs from would change it under it.  The lock file is the build
 * account's, as everything in the cache; a lock taken on a file that was
 * replaced meanwhile is taken again.  Returns the lock's descriptor, or -1
 * with error.
 */
static int
lock_entry(const Build *b, char **error)
{
	char	   *path = psprintf("%s.lock", b->dir);
	bool		said = false;

	for (;;)
	{
		struct stat held;
		struct stat named;
		int			fd;
		int			rc;

		if (access(path, F_OK) != 0 && !unprivileged_write(path, "", error))
			return -1;
		if ((fd = open_regular_file(path, false)) < 0)
		{
			*error = psprintf("could not open \"%s\": %m", path);
			return -1;
		}
		while ((rc = flock(fd, LOCK_EX | (said ? 0 : LOCK_NB))) != 0 &&
			   ((errno == EWOULDBLOCK && !said) || (errno == EINTR && !run_interrupted)))
		{
			if (errno == EWOULDBLOCK)
			{
				printf("variant %s: waiting for another client's build of %s\n", b->v->name, b->dir);
				fflush(stdout);
				said = true;
			}
		}
		if (rc != 0)
		{
			*error = run_interrupted ? psprintf("variant \"%s\": interrupted while waiting for another build", b->v->name)
				: psprintf("could not lock \"%s\": %m", path);
			close(fd);
			return -1;
		}
		if (fstat(fd, &held) == 0 && stat(path, &named) == 0 &&
			held.st_dev == named.st_dev && held.st_ino == named.st_ino)
			return fd;
		close(fd);
	}
}

static bool
build_one(VariantSpec *v, char **error)
{
	Build		b = {v};
	time_t		t0 = time(NULL);	/* builds take minutes: seconds will do */
	bool		reused;
	bool		ext_installed;
	json_t	   *info = NULL;
	char	   *bindir = NULL;
	CacheEntry	state;
	int			lock_fd;
	bool		ok = false;

	if (!build_describe(&b, error))
		return fail_with(error, "variant \"%s\": %s", v->name, *error);
	if ((lock_fd = lock_entry(&b, error)) < 0)
		return false;
	state = build_cache_entry(b.dir, error);
	if (state == ENTRY_REFUSED)
		goto done;
	reused = state == ENTRY_FINISHED;
	if (reused)
	{
		/* before anything runs from it */
		if ((info = build_cache_load(b.dir, &bindir, error)) == NULL)
			goto done;
		printf("variant %s: reusing build %s\n", v->name, b.dir);
	}
	else
	{
		printf("variant %s: building in %s%s\n", v->name, b.dir,
			   b.base ? psprintf(" (starting from %s)", b.base) : "");
		fflush(stdout);
		if (!make_entry(&b, error))
		{
			*error = psprintf("variant \"%s\": could not create build directory \"%s\": %s",
							  v->name, b.dir, *error);
			goto done;
		}
	}
	if ((!reused && !do_build(&b)) || !install_extension(&b, &ext_installed))
	{
		if (run_interrupted)
			*error = psprintf("variant \"%s\": build interrupted at step \"%s\"", v->name, b.failed_step);
		else
			*error = psprintf("variant \"%s\": build step \"%s\" failed; see %s, which ends with:\n%s",
							  v->name, b.failed_step, b.failed_log, tail_of_file(b.failed_log, 12));
		goto done;
	}
	if (!reused)
	{
		char	   *text;
		Argv		configure = {0};
		json_t	   *words = json_array();

		add_configure_words(&configure, v);
		for (int i = 0; i < configure.n; i++)
			json_array_append_new(words, json_string(configure.args[i]));
		bindir = bindir_of(b.dir);
		info = json_pack("{s:s, s:s, s:s, s:s, s:O, s:s, s:s, s:o, s:b, s:i, s:s, s:s, s:f, s:s?, s:o?}",
						 "key", b.key, "dir", b.dir, "source", b.source_id,
						 "key_text", b.key_text,
						 "patches", b.patches, "cflags", b.cflags, "ldflags", b.ldflags,
						 "configure", words,
						 "lto", v->lto, "build_seed", v->build_seed,
						 "compiler", b.compiler, "bindir", bindir,
						 "build_s", difftime(time(NULL), t0), "started_from", b.base,
						 "pgo", v->pgo ? json_pack("{s:s, s:i, s:i}", "training", "pgbench -s 1, tpcb-like then select-only, -c 2 -j 2",
												   "seconds_each", PGO_TRAINING_SECONDS, "random_seed", PGO_TRAINING_SEED) : NULL);
		text = json_dumps(info, JSON_INDENT(2));
		if (text == NULL ||
			!unprivileged_write(psprintf("%s/build.json", b.dir), psprintf("%s\n", text), error))
		{
			*error = psprintf("variant \"%s\": could not record the build: %s", v->name, text ? *error : "out of memory");
			goto done;
		}
		free(text);
		printf("variant %s: built in %.0f s\n", v->name, difftime(time(NULL), t0));
	}
	json_object_set_new(info, "reused", json_boolean(reused));
	json_object_set_new(info, "extension_installed", json_boolean(ext_installed));
	v->build = info;
	v->bindir = bindir;
	ok = true;
done:
	close(lock_fd);				/* the next client's turn */
	return ok;
}

/*
 * The pass of build_variants() that builds v: unpatched first, so that
 * patched ones can start from their trees, and first seeds before later
 * ones, which start from them.
 */
int
build_pass(const VariantSpec *v)
{
	return v->build_seed > 1 ? 2 : v->npatches > 0 ? 1 : 0;
}

/*
 * Build every source variant, unpatched first so that patched ones can
 * start from their trees; afterwards each is a bindir variant.
 */
bool
build_variants(ExperimentSpec *spec, char **error)
{
	bool		prepared = false;

	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < spec->nvariants; i++)
		{
			VariantSpec *v = &spec->variants[i];

			if (v->source == NULL || build_pass(v) != pass)
				continue;
			if (!prepared && !build_cache_prepare(error))
				return false;
			prepared = true;
			if (!build_one(v, error))
				return false;
		}
	fflush(stdout);
	return true;
}

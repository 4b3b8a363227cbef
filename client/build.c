/*-------------------------------------------------------------------------
 *
 * build.c
 *		Build the variants that name a PostgreSQL source tree, before any
 *		cluster starts, into a cache that later experiments reuse.
 *
 * A build is identified by a key: a hash of everything that changes the
 * binary — the source tree's identity, each patch's contents, cflags,
 * configure arguments, LTO, the layout seed, the compiler's version and
 * this file's recipe version.  CACHE/KEY/ holds the build tree, the
 * installation (DESTDIR install of prefix BUILD_PREFIX), the logs of every
 * step and build.json, written last: a directory with build.json is a
 * finished build and is reused as is.
 *
 * Every variant is configured with the same prefix and installed under
 * CACHE/KEY/dest, KEY being of fixed length: the compiled-in paths are
 * identical and the real paths of equal length, so neither differs
 * between variants (path length is a known source of layout bias).
 * PostgreSQL installations are relocatable, so this works.
 *
 * Shared work: a patched variant starts from a copy of the finished build
 * tree of the same source and flags without patches (configured with
 * --enable-depend, so make recompiles only what the patch touches).
 * Unpatched builds therefore go first.
 *
 * Layout seeds: every build compiles with -ffunction-sections, and a
 * seeded one relinks postgres with lld's --shuffle-sections=*=SEED, which
 * gives each seed its own function order; it starts from the same build
 * without a seed, or the first seed's, so a seed costs a copy and a link.
 * layout_seeds.c expands the variant into NAME@seedK variants.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "subprocess.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/logging.h"

/* Bump when the steps below change what a key produces. */
#define BUILD_RECIPE		2
#define BUILD_PREFIX		"/usr/local/pgsql"
#define BUILD_KEY_LEN		16
/* Added to the cflags of builds for experiments with profiles. */
#define BUILD_PROFILE_CFLAGS "-g -fno-omit-frame-pointer"

#ifndef PGBENCH_EXT_TOP
#define PGBENCH_EXT_TOP ""
#endif

/* Options that keep the build small and fast; pgbench still works. */
static const char *const minimal_configure =
"--enable-depend --without-icu --without-readline --without-zlib "
"--without-lz4 --without-zstd --without-llvm --disable-nls";

typedef struct Build
{
	VariantSpec *v;
	char	   *key;
	char	   *key_text;		/* what the key hashes, for build.json */
	char	   *dir;			/* CACHE/KEY */
	char	   *source_id;
	char	   *compiler;
	char	   *cflags;			/* as given to configure */
	char	   *ldflags;
	json_t	   *patches;
	char	   *base;			/* CACHE/KEY of the tree we start from, or NULL */
	bool		base_patched;	/* ... which already has our patches */
	char	   *failed_step;
	char	   *failed_log;
} Build;

static char *
shell_quote(const char *s)
{
	char	   *out = pg_malloc(strlen(s) * 4 + 3);
	char	   *o = out;

	*o++ = '\'';
	for (; *s; s++)
	{
		if (*s == '\'')
		{
			memcpy(o, "'\\''", 4);
			o += 4;
		}
		else
			*o++ = *s;
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

/* The first line a shell command prints, without its newline, or "". */
static char *
capture(const char *cmd)
{
	FILE	   *p = popen(cmd, "r");
	char		line[1024] = "";

	if (p == NULL)
		return pg_strdup("");
	if (fgets(line, sizeof(line), p) == NULL)
		line[0] = '\0';
	pclose(p);
	line[strcspn(line, "\n")] = '\0';
	return pg_strdup(line);
}

static char *
sha256_of_string(const char *text)
{
	char		tmpl[] = "/tmp/pgbench_ext_key.XXXXXX";
	int			fd = mkstemp(tmpl);
	char	   *hash;

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t) strlen(text))
		pg_fatal("could not write a temporary file: %m");
	close(fd);
	hash = capture(psprintf("sha256sum < %s | cut -c1-64", tmpl));
	unlink(tmpl);
	return hash;
}

static char *
cache_root(void)
{
	const char *env = getenv(BUILD_CACHE_ENV);

	return make_absolute_path(env && *env ? env : BUILD_CACHE_DEFAULT);
}

/*
 * What the tree is: "git describe" when it is a git checkout, and always a
 * checksum over every file's name, size and modification time (cheap, and
 * it notices local edits).  A tree unpacked by tools/pg-source also names
 * the tarball it came from and that tarball's checksum.
 */
static char *
source_identity(const char *dir)
{
	char	   *q = shell_quote(dir);
	char	   *version = capture(psprintf("sed -n \"s/^PACKAGE_VERSION='\\(.*\\)'/\\1/p\" %s/configure", q));
	char	   *manifest = capture(psprintf("cd %s && find . -path ./.git -prune -o -type f -printf '%%P %%s %%T@\\n' | LC_ALL=C sort | sha256sum | cut -c1-64", q));
	char	   *id = psprintf("PostgreSQL %s, files %s", *version ? version : "?", manifest);
	char	   *origin = psprintf("%s/.pgbench_ext_origin", dir);

	if (access(psprintf("%s/.git", dir), F_OK) == 0)
		id = psprintf("%s, git %s", id, capture(psprintf("git -C %s describe --always --dirty 2>/dev/null", q)));
	if (access(origin, R_OK) == 0)
		id = psprintf("%s, %s", id, capture(psprintf("cat %s", shell_quote(origin))));
	return id;
}

/* Machine checks of the build keys, made with the other checks before anything runs. */
bool
build_check(const ExperimentSpec *spec, char **error)
{
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];

		if (v->source == NULL)
			continue;
		if (access(psprintf("%s/configure", v->source), X_OK) != 0)
		{
			*error = psprintf("variant \"%s\": source \"%s\" is not a PostgreSQL source tree (no executable configure)",
							  v->name, v->source);
			return false;
		}
		for (int p = 0; p < v->npatches; p++)
			if (access(v->patches[p], R_OK) != 0)
			{
				*error = psprintf("variant \"%s\": patch \"%s\" is not a readable file", v->name, v->patches[p]);
				return false;
			}
		if (v->layout_seed > 0 && access("/usr/bin/ld.lld", X_OK) != 0)
		{
			*error = psprintf("variant \"%s\": layout seeds need the lld linker (/usr/bin/ld.lld)", v->name);
			return false;
		}
	}
	return true;
}

/* The key text of v, optionally without its patches or its seed. */
static char *
key_text(Build *b, bool with_patches, int seed)
{
	VariantSpec *v = b->v;
	char	   *text = psprintf("recipe %d\nsource %s\ncompiler %s\ncflags %s\nconfigure %s\nlto %d\nlayout_seed %d\n",
								BUILD_RECIPE, b->source_id, b->compiler, v->cflags ? v->cflags : "",
								v->configure ? v->configure : "", v->lto, seed);

	if (v->pgo)
		text = psprintf("%spgo seed %d seconds %d\n", text, PGO_TRAINING_SEED, PGO_TRAINING_SECONDS);
	if (v->profile_build)
		text = psprintf("%sprofile " BUILD_PROFILE_CFLAGS "\n", text);

	if (with_patches)
		for (size_t i = 0; i < json_array_size(b->patches); i++)
			text = psprintf("%spatch %s\n", text,
							json_string_value(json_object_get(json_array_get(b->patches, i), "sha256")));
	return text;
}

static char *
key_dir(Build *b, const char *text)
{
	return psprintf("%s/%.*s", cache_root(), BUILD_KEY_LEN, sha256_of_string(text));
}

static bool
finished(const char *dir)
{
	return access(psprintf("%s/build.json", dir), F_OK) == 0;
}

static void
describe_build(Build *b)
{
	VariantSpec *v = b->v;

	b->source_id = source_identity(v->source);
	b->compiler = capture("${CC:-gcc} --version 2>&1 | head -1");
	b->cflags = pg_strdup(v->cflags ? v->cflags : "-O2");
	b->ldflags = pg_strdup("");
	if (v->lto)
	{
		b->cflags = psprintf("%s -flto", b->cflags);
		b->ldflags = psprintf("%s -flto", b->ldflags);
	}
	/* in every build, so that a layout seed is only a relink of any of them */
	b->cflags = psprintf("%s -ffunction-sections", b->cflags);
	/* profiles: symbols and frame pointers, so that every frame is named */
	if (v->profile_build)
		b->cflags = psprintf("%s " BUILD_PROFILE_CFLAGS, b->cflags);
	b->patches = json_array();
	for (int i = 0; i < v->npatches; i++)
		json_array_append_new(b->patches,
							  json_pack("{s:s, s:s}", "file", make_absolute_path(v->patches[i]),
										"sha256", capture(psprintf("sha256sum < %s | cut -c1-64",
																   shell_quote(v->patches[i])))));
	b->key_text = key_text(b, true, v->layout_seed);
	b->dir = key_dir(b, b->key_text);
	b->key = pg_strdup(strrchr(b->dir, '/') + 1);

	/*
	 * The tree to start from, the cheapest first: for a layout seed, the
	 * same build without a seed, else the first seed's (only a relink);
	 * for a patched build, the unpatched one (an incremental make).  A
	 * profile belongs to one tree's objects: PGO builds start afresh.
	 */
	b->base = NULL;
	b->base_patched = false;
	if (v->pgo)
		return;
	if (v->layout_seed > 0)
	{
		if (finished(b->base = key_dir(b, key_text(b, true, 0))) ||
			(v->layout_seed > 1 && finished(b->base = key_dir(b, key_text(b, true, 1)))))
		{
			b->base_patched = true;
			return;
		}
	}
	if (v->npatches > 0 && finished(b->base = key_dir(b, key_text(b, false, v->layout_seed))))
		return;
	b->base = NULL;
}

/*
 * One build step: a shell command with its output in logs/STEP.log.  An
 * enclosing make's variables are dropped: with MAKELEVEL set, PostgreSQL's
 * make takes itself for a sub-make and skips its generated headers.
 */
static bool
step(Build *b, const char *name, const char *cmd)
{
	char	   *log = psprintf("%s/logs/%s.log", b->dir, name);
	char	   *argv[] = {"/bin/sh", "-c",
		psprintf("unset MAKELEVEL MAKEFLAGS MFLAGS MAKEOVERRIDES; %s", cmd), NULL};

	if (run_logged(argv, false, log) != 0)
	{
		b->failed_step = pg_strdup(name);
		b->failed_log = log;
		return false;
	}
	return true;
}

static char *
bindir_of(const char *dir)
{
	return psprintf("%s/dest" BUILD_PREFIX "/bin", dir);
}

/*
 * The extension, from this client's source tree, into the build's
 * installation, compiled against that build's headers (a patched struct
 * is what struct_layout() must see).  Only the server module: the client
 * is this program.  Redone when the extension's sources change.
 */
static bool
install_extension(Build *b, bool *installed)
{
	const char *top = getenv("PGBENCH_EXT_TOP");
	char	   *q;
	char	   *stamp;
	char	   *want;
	char	   *have;

	if (top == NULL || *top == '\0')
		top = PGBENCH_EXT_TOP;
	q = shell_quote(top);
	want = capture(psprintf("cd %s && find Makefile pgbench_ext.control extension common -type f "
							"\\( -name '*.[ch]' -o -name '*.sql' -o -name Makefile -o -name '*.control' \\) "
							"-printf '%%p %%s %%T@\\n' | LC_ALL=C sort | sha256sum | cut -c1-64", q));
	stamp = psprintf("%s/extension.stamp", b->dir);
	have = capture(psprintf("cat %s 2>/dev/null", shell_quote(stamp)));
	*installed = false;
	if (strcmp(want, have) == 0)
		return true;
	*installed = true;
	return step(b, "extension",
				psprintf("set -e; rm -rf %1$s/ext; mkdir %1$s/ext; cd %2$s; "
						 "cp -a Makefile pgbench_ext.control extension common %1$s/ext/; "
						 "cd %1$s/ext; find . -name '*.o' -delete; "
						 "make -s PG_CONFIG=%3$s/pg_config CLIENT_MAKE=: install; "
						 "chmod -R a+rX %1$s/dest; echo %4$s > %5$s",
						 shell_quote(b->dir), q, shell_quote(bindir_of(b->dir)), want,
						 shell_quote(stamp)));
}

/*
 * Configure (unless the tree came configured from a base), make, install.
 * suffix tells apart the logs of PGO's first pass.
 */
static bool
compile(Build *b, const char *suffix, const char *tree, const char *make,
		const char *link, const char *cflags, const char *ldflags)
{
	VariantSpec *v = b->v;
	char	   *d = shell_quote(b->dir);

	if (b->base == NULL &&
		!step(b, psprintf("configure%s", suffix),
			  psprintf("cd %s && ./configure --prefix=" BUILD_PREFIX " %s %s CFLAGS=%s LDFLAGS=%s",
					   tree, minimal_configure, v->configure ? v->configure : "",
					   shell_quote(cflags), shell_quote(ldflags))))
		return false;
	/* a copied tree's postgres was linked with another seed or other objects */
	return step(b, psprintf("make%s", suffix),
				psprintf("cd %s && rm -f src/backend/postgres && %s %s", tree, make, link)) &&
		step(b, psprintf("install%s", suffix),
			 psprintf("cd %1$s && rm -rf %2$s/dest && make -s install DESTDIR=%2$s/dest && chmod -R a+rX %2$s",
					  tree, d));
}

static bool
do_build(Build *b)
{
	VariantSpec *v = b->v;
	char	   *tree = psprintf("%s/build", shell_quote(b->dir));
	const char *jobs = getenv("PGBENCH_EXT_BUILD_JOBS");
	char	   *make = psprintf("make -s -j%s", jobs && *jobs ? jobs : "2");
	char	   *link = pg_strdup("");

	if (!step(b, "copy", b->base
			  ? psprintf("cp -a %s/build %s", shell_quote(b->base), tree)
			  : psprintf("mkdir %1$s && tar -C %2$s --exclude=.git -cf - . | tar -C %1$s -xf -",
						 tree, shell_quote(v->source))))
		return false;
	if (!b->base_patched)
		for (int i = 0; i < v->npatches; i++)
		{
			const char *file = json_string_value(json_object_get(json_array_get(b->patches, i), "file"));

			if (!step(b, psprintf("patch-%d", i + 1),
					  psprintf("patch -p1 --batch --forward -d %s -i %s", tree, shell_quote(file))))
				return false;
		}
	if (v->layout_seed > 0)
		link = psprintf("LDFLAGS_EX=%s",
						shell_quote(psprintf("-fuse-ld=lld -Wl,--shuffle-sections=*=%d", v->layout_seed)));
	if (v->pgo && b->base == NULL)
	{
		/* instrumented build, training load, then the build proper */
		char	   *profile = psprintf("%s/profile", b->dir);
		char	   *work = psprintf("%s/pgo", b->dir);
		char	   *ignored;

		/*
		 * enable_coverage=yes: instrumented code calls exit() from libgcov,
		 * which libpq's "no exit()" check otherwise refuses.
		 */
		if (!compile(b, "-pgo-generate", tree, psprintf("%s enable_coverage=yes", make), link,
					 psprintf("%s -fprofile-generate=%s", b->cflags, profile),
					 psprintf("%s -fprofile-generate=%s", b->ldflags, profile)))
			return false;
		/* only the training counts: drop what programs run by the build wrote */
		if (system(psprintf("rm -rf %s", shell_quote(profile))) != 0 ||
			mkdir(profile, 0777) != 0 || chmod(profile, 0777) != 0 || mkdir(work, 0755) != 0 ||
			!give_to_server_account(work, &ignored))
		{
			b->failed_step = pg_strdup("pgo-training");
			b->failed_log = psprintf("(could not create %s or %s: %m)", profile, work);
			return false;
		}
		if (!pgo_train(bindir_of(b->dir), work, psprintf("%s/logs/pgo-training.log", b->dir)))
		{
			b->failed_step = pg_strdup("pgo-training");
			b->failed_log = psprintf("%s/logs/pgo-training.log", b->dir);
			return false;
		}
		if (!step(b, "pgo-clean", psprintf("cd %s && make -s clean", tree)))
			return false;
		b->cflags = psprintf("%s -fprofile-use=%s -fprofile-correction -Wno-missing-profile", b->cflags, profile);
	}
	return compile(b, "", tree, make, link, b->cflags, b->ldflags);
}

static bool
build_one(VariantSpec *v, char **error)
{
	Build		b = {v};
	time_t		t0 = time(NULL);	/* builds take minutes: seconds will do */
	bool		reused;
	bool		ext_installed;
	json_t	   *info;
	char	   *jpath;

	describe_build(&b);
	jpath = psprintf("%s/build.json", b.dir);
	reused = finished(b.dir);
	if (reused)
		printf("variant %s: reusing build %s\n", v->name, b.dir);
	else
	{
		printf("variant %s: building in %s%s\n", v->name, b.dir,
			   b.base ? psprintf(" (starting from %s)", b.base) : "");
		fflush(stdout);
		if (system(psprintf("rm -rf %1$s && mkdir -p %1$s/logs && chmod 755 %2$s %1$s",
							shell_quote(b.dir), shell_quote(cache_root()))) != 0)
		{
			*error = psprintf("variant \"%s\": could not create build directory \"%s\"", v->name, b.dir);
			return false;
		}
	}
	if ((!reused && !do_build(&b)) || !install_extension(&b, &ext_installed))
	{
		*error = psprintf("variant \"%s\": build step \"%s\" failed; see %s, which ends with:\n%s",
						  v->name, b.failed_step, b.failed_log, tail_of_file(b.failed_log, 12));
		return false;
	}
	if (reused)
	{
		json_error_t jerr;

		info = json_load_file(jpath, 0, &jerr);
		if (info == NULL)
		{
			*error = psprintf("variant \"%s\": unreadable %s: %s", v->name, jpath, jerr.text);
			return false;
		}
	}
	else
	{
		info = json_pack("{s:s, s:s, s:s, s:s, s:O, s:s, s:s, s:s, s:b, s:i, s:s, s:s, s:f, s:s?, s:o?}",
						 "key", b.key, "dir", b.dir, "source", b.source_id,
						 "key_text", b.key_text,
						 "patches", b.patches, "cflags", b.cflags, "ldflags", b.ldflags,
						 "configure", psprintf("%s %s", minimal_configure, v->configure ? v->configure : ""),
						 "lto", v->lto, "layout_seed", v->layout_seed,
						 "compiler", b.compiler, "bindir", bindir_of(b.dir),
						 "build_s", difftime(time(NULL), t0), "started_from", b.base,
						 "pgo", v->pgo ? json_pack("{s:s, s:i, s:i}", "training", "pgbench -s 1, tpcb-like then select-only, -c 2 -j 2",
												   "seconds_each", PGO_TRAINING_SECONDS, "random_seed", PGO_TRAINING_SEED) : NULL);
		if (json_dump_file(info, jpath, JSON_INDENT(2)) != 0)
		{
			*error = psprintf("variant \"%s\": could not write %s", v->name, jpath);
			return false;
		}
		printf("variant %s: built in %.0f s\n", v->name, difftime(time(NULL), t0));
	}
	json_object_set_new(info, "reused", json_boolean(reused));
	json_object_set_new(info, "extension_installed", json_boolean(ext_installed));
	v->build = info;
	v->bindir = pg_strdup(json_string_value(json_object_get(info, "bindir")));
	return true;
}

/*
 * Build every source variant, unpatched first so that patched ones can
 * start from their trees; afterwards each is a bindir variant.
 */
bool
build_variants(ExperimentSpec *spec, char **error)
{
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < spec->nvariants; i++)
		{
			VariantSpec *v = &spec->variants[i];
			int			order = v->npatches > 0 ? 1 : 0;

			/* first seeds before later ones: those start from them */
			if (v->layout_seed > 1)
				order = 2;
			if (v->source == NULL || order != pass)
				continue;
			if (!build_one(v, error))
				return false;
		}
	fflush(stdout);
	return true;
}

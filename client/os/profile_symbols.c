/*-------------------------------------------------------------------------
 *
 * profile_symbols.c
 *	  Symbol tables of an ELF binary, read with <elf.h>: whether a profile
 *	  of it can name functions, and which.
 *
 * Profilers name code by symbols.  A binary as built has .symtab, with
 * every function, static ones included; a packaged one is usually
 * stripped of it and keeps only .dynsym, the functions it exports.
 * PostgreSQL links its server with --export-dynamic, so .dynsym still
 * names every non-static function (what extensions may call), but no
 * static one.  Callgrind's toggle on PostgresMain needs that symbol.
 *
 * The file is mapped read-only and every offset checked against its size
 * before use.  64-bit ELF of the machine's byte order only: the servers
 * profiled run here.
 *
 * client/os/profile_symbols.c
 *
 *-------------------------------------------------------------------------
 */
#include "profile_symbols.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool
fail(char *errbuf, size_t errlen, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, errlen, fmt, ap);
	va_end(ap);
	return false;
}

static bool
within(size_t size, uint64_t offset, uint64_t len)
{
	return offset <= size && len <= size - offset;
}

/* Functions of one symbol table section; whether wanted is among them. */
static int
count_functions(const unsigned char *base, size_t size, const Elf64_Shdr *sh,
				const Elf64_Shdr *strtab, const char *wanted, bool *found)
{
	int			n = 0;
	uint64_t	count;

	if (sh->sh_entsize != sizeof(Elf64_Sym) || !within(size, sh->sh_offset, sh->sh_size) ||
		!within(size, strtab->sh_offset, strtab->sh_size))
		return -1;
	count = sh->sh_size / sizeof(Elf64_Sym);
	for (uint64_t i = 0; i < count; i++)
	{
		Elf64_Sym	sym;

		memcpy(&sym, base + sh->sh_offset + i * sizeof(Elf64_Sym), sizeof(sym));
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
			continue;
		n++;
		if (wanted && sym.st_name < strtab->sh_size)
		{
			const char *name = (const char *) base + strtab->sh_offset + sym.st_name;
			size_t		room = strtab->sh_size - sym.st_name;

			if (strnlen(name, room) < room && strcmp(name, wanted) == 0)
				*found = true;
		}
	}
	return n;
}

bool
prof_elf_symbols(const char *path, const char *wanted, ElfSymbols *out,
				 char *errbuf, size_t errlen)
{
	int			fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *base;
	Elf64_Ehdr	eh;
	const Elf64_Shdr *shstr;
	bool		ok = true;
	static const unsigned char host_order =
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		ELFDATA2LSB;
#else
		ELFDATA2MSB;
#endif

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return fail(errbuf, errlen, "could not open \"%s\": %s", path, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t) sizeof(eh))
	{
		close(fd);
		return fail(errbuf, errlen, "\"%s\" is not an ELF binary (too small, or not a file)", path);
	}
	base = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return fail(errbuf, errlen, "could not read \"%s\": %s", path, strerror(errno));
	memcpy(&eh, base, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		ok = fail(errbuf, errlen, "\"%s\" is not an ELF binary", path);
	else if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != host_order)
		ok = fail(errbuf, errlen, "\"%s\" is not a 64-bit ELF binary of this machine's byte order", path);
	else if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
			 !within(st.st_size, eh.e_shoff, (uint64_t) eh.e_shnum * sizeof(Elf64_Shdr)))
		ok = fail(errbuf, errlen, "\"%s\" has a malformed section header table", path);
	if (!ok)
	{
		munmap(base, st.st_size);
		return false;
	}
	shstr = (const Elf64_Shdr *) (base + eh.e_shoff) + eh.e_shstrndx;
	for (int i = 0; i < eh.e_shnum && ok; i++)
	{
		Elf64_Shdr	sh;
		const char *name = "";

		memcpy(&sh, base + eh.e_shoff + (uint64_t) i * sizeof(Elf64_Shdr), sizeof(sh));
		if (sh.sh_name < shstr->sh_size && within(st.st_size, shstr->sh_offset, shstr->sh_size))
		{
			name = (const char *) base + shstr->sh_offset + sh.sh_name;
			if (strnlen(name, shstr->sh_size - sh.sh_name) == shstr->sh_size - sh.sh_name)
				name = "";
		}
		if (strcmp(name, ".debug_info") == 0)
			out->has_debug_info = true;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
		{
			Elf64_Shdr	strtab;
			int			n;

			if (sh.sh_link >= eh.e_shnum)
			{
				ok = fail(errbuf, errlen, "\"%s\": a symbol table without its string table", path);
				break;
			}
			memcpy(&strtab, base + eh.e_shoff + (uint64_t) sh.sh_link * sizeof(Elf64_Shdr), sizeof(strtab));
			n = count_functions(base, st.st_size, &sh, &strtab, wanted, &out->has_wanted);
			if (n < 0)
				ok = fail(errbuf, errlen, "\"%s\": a symbol table out of the file's bounds", path);
			else if (sh.sh_type == SHT_SYMTAB)
			{
				out->has_symtab = true;
				out->symtab_functions += n;
			}
			else
				out->dynsym_functions += n;
		}
	}
	munmap(base, st.st_size);
	return ok;
}
